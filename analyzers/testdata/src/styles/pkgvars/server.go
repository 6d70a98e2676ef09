// Package pkgvars declares its go-sdk tools and schemas as package-level
// variables and registers them from a table of tools and handlers. It is
// correct: pilotage-vet reports nothing; its twins are in
// analyzers/styles_test.go.
package pkgvars

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

var runSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"workflow":    {},
		"program_ref": {Type: "string"},
		"trace_level": {Type: "string", Description: "none, summary or full"},
	},
}

var runTool = &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{types.MetaKey: decl}, InputSchema: runSchema}

var manifestTool = &mcp.Tool{Name: types.ToolManifest, InputSchema: &jsonschema.Schema{Type: "object"}}

func init() {
	runSchema.Properties["mode"] = &jsonschema.Schema{Type: "string"}
}

func run(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: map[string]any{"ok": true, "status": "success", "error": nil}}, nil
}

func manifest(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: map[string]any{"pilotage": "1.1"}}, nil
}

var table = []struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}{
	{tool: runTool, handler: run},
	{tool: manifestTool, handler: manifest},
}

func Register(s *mcp.Server) {
	for _, e := range table {
		s.AddTool(e.tool, e.handler)
	}
}
