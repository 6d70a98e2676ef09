// Package mcpgolist declares its mcp-go tools in one function, with
// options shared through variables, and registers them in a loop that
// looks each handler up in a map: a common mcp-go layout. It is correct:
// pilotage-vet reports nothing; its twins are in analyzers/styles_test.go.
package mcpgolist

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

var traceLevel = mcp.WithString("trace_level", mcp.Description("none, summary or full"))

func loopOptions() []mcp.ToolOption {
	return []mcp.ToolOption{mcp.WithAny("workflow"), traceLevel, mcp.WithString("mode")}
}

func tools() []mcp.Tool {
	validate := mcp.NewTool("validate_workflow", loopOptions()...)
	validate.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	run := mcp.NewTool("run_workflow", append(loopOptions(), mcp.WithString("program_ref"))...)
	run.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	return []mcp.Tool{validate, run, mcp.NewTool(types.ToolManifest)}
}

func requestError(kind, msg string) *mcp.CallToolResult {
	res := mcp.NewToolResultStructured(map[string]any{"error": map[string]any{"kind": kind, "message": msg}}, kind+": "+msg)
	res.IsError = true
	return res
}

func validate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{"valid": true, "diagnostics": []any{}}), nil
}

func run(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if ctx.Err() != nil {
		return requestError("internal", "cancelled"), nil
	}
	return mcp.NewToolResultStructuredOnly(map[string]any{"ok": true, "status": "success", "error": nil}), nil
}

func manifest(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{
		"pilotage": "1.1",
		"languages": []any{map[string]any{
			"id":   "workflow/v1",
			"loop": map[string]any{"validate": "validate_workflow", "execute": "run_workflow"},
		}},
	}), nil
}

var handlers = map[string]server.ToolHandlerFunc{
	"validate_workflow": validate,
	"run_workflow":      run,
	types.ToolManifest:  manifest,
}

func New() *server.MCPServer {
	s := server.NewMCPServer("workflows", "1.0.0")
	for _, t := range tools() {
		s.AddTool(t, handlers[t.Name])
	}
	return s
}
