package mcpgo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func run(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	helper := func() (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("a nested function's returns are its own")
	}
	_ = helper
	if ctx == nil {
		return nil, fmt.Errorf("no context") // want `handler of Pilotage tool "run_workflow" returns a Go error; mcp-go sends it as JSON-RPC error -32603 \(Internal error\), a carrier protocol error, not a Pilotage request error \(Part III §7.1\): return a request-error result instead`
	}
	if ctx.Err() != nil {
		return mcp.NewToolResultError("cancelled"), nil // want `handler of Pilotage tool "run_workflow" returns mcp.NewToolResultError, which has no structuredContent`
	}
	res := &mcp.CallToolResult{Content: []mcp.Content{mcp.TextContent{Type: "text", Text: "ok"}}}
	return res, nil // want `handler of Pilotage tool "run_workflow" returns a result without structuredContent`
}

type Args struct{ Workflow any }

func register(s *server.MCPServer) {
	tool := mcp.NewTool("run_workflow")
	tool.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}})
	s.AddTool(tool, run)
	s.AddTools(server.ServerTool{
		Tool: mcp.NewTool(types.ToolCatalog),
		Handler: mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, args Args) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("none"), nil // want `handler of Pilotage tool "pilotage_catalog" returns mcp.NewToolResultText`
		}),
	})
	s.AddTool(mcp.NewTool("weather"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("sunny"), nil
	})
}

// A tool built with mcp.NewToolWithRawSchema is the same tool: its name
// and _meta make it a Pilotage tool, and its handler is judged alike
// (issue 33 §6).
func registerRaw(s *server.MCPServer) {
	raw := mcp.NewToolWithRawSchema("validate_raw", "validates", json.RawMessage(`{"type": "object"}`))
	raw.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}})
	s.AddTool(raw, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if ctx == nil {
			return nil, fmt.Errorf("no context") // want `handler of Pilotage tool "validate_raw" returns a Go error; mcp-go sends it as JSON-RPC error -32603`
		}
		return mcp.NewToolResultStructuredOnly(map[string]any{"valid": true}), nil
	})
	// A fixed-name tool by the same constructor.
	s.AddTool(mcp.NewToolWithRawSchema(types.ToolGetGuide, "guides", json.RawMessage(`{"type": "object"}`)), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("no guides"), nil // want `handler of Pilotage tool "pilotage_get_guide" returns mcp.NewToolResultText`
	})
	// Not a Pilotage tool: no declaration, no fixed name.
	s.AddTool(mcp.NewToolWithRawSchema("weather_raw", "", json.RawMessage(`{}`)), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("no weather")
	})
}
