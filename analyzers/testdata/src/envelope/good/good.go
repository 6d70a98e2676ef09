// Package good returns Pilotage envelopes the recommended way: no findings.
package good

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

func requestError(kind, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"kind": kind, "message": msg}}
}

// Out = any: the handler owns structuredContent, so a request error keeps it.
func run(ctx context.Context, req *gosdk.CallToolRequest, in map[string]any) (*gosdk.CallToolResult, any, error) {
	if in["mode"] == nil {
		return &gosdk.CallToolResult{IsError: true, StructuredContent: requestError("invalid_request", "mode is required")}, nil, nil
	}
	res := &gosdk.CallToolResult{}
	res.StructuredContent = map[string]any{"ok": true, "status": "success", "error": nil}
	return res, nil, nil
}

func registerGoSDK(s *gosdk.Server) {
	gosdk.AddTool(s, &gosdk.Tool{Name: "run_workflow", Meta: gosdk.Meta{types.MetaKey: decl}, InputSchema: &jsonschema.Schema{Type: "object"}}, run)
}

func validate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if ctx.Err() != nil {
		res := mcp.NewToolResultStructured(requestError("internal", "cancelled"), "internal: cancelled")
		res.IsError = true
		return res, nil
	}
	return mcp.NewToolResultStructuredOnly(map[string]any{"valid": true, "diagnostics": []any{}}), nil
}

func registerMCPGo(s *server.MCPServer) {
	tool := mcp.NewTool("validate_workflow", mcp.WithAny("workflow", mcp.Required()))
	tool.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	s.AddTool(tool, validate)
}
