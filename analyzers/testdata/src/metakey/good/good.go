// Package good is a server written the recommended way: no findings.
package good

import (
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

var goTool = &gosdk.Tool{
	Name: "run_workflow",
	Meta: gosdk.Meta{types.MetaKey: decl},
}

func register(s *server.MCPServer) {
	caps := &gosdk.ServerCapabilities{}
	caps.AddExtension(types.ExtensionID, map[string]any{"version": "1.1"})
	tool := mcp.NewTool("run_workflow")
	tool.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl, "progressToken": 1})
	_ = server.NewMCPServer("demo", "1.0.0",
		server.WithExtensions(map[string]any{types.ExtensionID: map[string]any{}}),
	)
	// Unrelated maps may use "pilotage" as a key: it is the manifest's
	// version member, among other things.
	_ = map[string]any{"pilotage": types.WireVersion}
	// Another vendor's key is none of our business.
	_ = gosdk.Meta{"io.modelcontextprotocol/related-task": 1}
}
