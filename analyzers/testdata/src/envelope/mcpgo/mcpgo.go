package mcpgo

import (
	"context"
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
