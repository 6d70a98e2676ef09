// Package mcpgoserver is a small Pilotage server on the real mcp-go.
package mcpgoserver

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

const pilotageKey = "io.github.jafarsa0/pilotage"

func decl() *mcp.Meta {
	return mcp.NewMetaFromMap(map[string]any{
		pilotageKey: map[string]any{"argument": "query", "language": "sql/pg"},
	})
}

func execute(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if req.GetString("mode", "") == "" {
		return nil, fmt.Errorf("mode is required")
	}
	return mcp.NewToolResultStructuredOnly(map[string]any{"ok": true, "status": "success", "error": nil}), nil
}

func validate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{"valid": true, "diagnostics": []any{}}), nil
}

func New() *server.MCPServer {
	s := server.NewMCPServer("e2e-mcpgo", "1.0.0",
		server.WithInputSchemaValidation(),
		server.WithExtensions(map[string]any{pilotageKey: map[string]any{}}),
	)
	exec := mcp.NewTool("exec_sql",
		mcp.WithString("query", mcp.Required()),
		mcp.WithString("program_ref"),
		mcp.WithString("trace_level", mcp.Enum("none", "summary", "full")),
		mcp.WithSchemaAdditionalProperties(false),
	)
	exec.Meta = decl()
	s.AddTool(exec, execute)

	check := mcp.NewTool("validate_sql", mcp.WithString("query", mcp.Required()))
	check.Meta = decl()
	s.AddTool(check, validate)
	return s
}
