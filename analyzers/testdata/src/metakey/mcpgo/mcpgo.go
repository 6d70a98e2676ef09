package mcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

func register(s *server.MCPServer) {
	tool := mcp.NewTool("run_workflow")
	tool.Meta = mcp.NewMetaFromMap(map[string]any{
		"pilotage": decl, // want `_meta key "pilotage" is a shorthand`
	})
	tool.Meta.AdditionalFields["io.github.jafarsa0.pilotage"] = decl // want `legacy dotted identifier`
	tool.Meta = &mcp.Meta{AdditionalFields: map[string]any{
		"pilotage": decl, // want `_meta key "pilotage" is a shorthand`
	}}
	_ = server.NewMCPServer("demo", "1.0.0",
		server.WithExtensions(map[string]any{
			"io.github.jafarsa0.pilotage": map[string]any{}, // want `extension name "io.github.jafarsa0.pilotage" is the legacy dotted identifier`
		}),
	)
	_ = mcp.ServerCapabilities{Extensions: map[string]any{
		"pilotage": map[string]any{}, // want `extension name "pilotage"`
	}}
}
