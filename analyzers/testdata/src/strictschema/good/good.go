// Package good declares loop tools the recommended way: no findings.
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

// permissive is the recommended loop-tool schema: members typed only,
// nothing required that runnable selection decides, no closed object.
var permissive = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"workflow":                 {},
		"program_ref":              {Type: "string", Description: "promoted program"},
		"input":                    {Type: "object"},
		"trace_level":              {Type: "string"},
		"expected_catalog_version": {Type: "string"},
	},
}

type Args struct {
	Workflow any `json:"workflow"`
}

func typed(ctx context.Context, req *gosdk.CallToolRequest, in Args) (*gosdk.CallToolResult, any, error) {
	return nil, nil, nil
}

func register(s *gosdk.Server) {
	gosdk.AddTool(s, &gosdk.Tool{Name: "run_workflow", Meta: gosdk.Meta{types.MetaKey: decl}, InputSchema: permissive}, typed)
	// A map In infers a permissive schema.
	gosdk.AddTool(s, &gosdk.Tool{Name: "validate_workflow", Meta: gosdk.Meta{types.MetaKey: decl}},
		func(ctx context.Context, req *gosdk.CallToolRequest, in map[string]any) (*gosdk.CallToolResult, any, error) {
			return nil, nil, nil
		})
	// The fixed access tools are strict by design (Part III §7.1).
	gosdk.AddTool(s, &gosdk.Tool{Name: types.ToolGetGuide}, typed)
}

func handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{}), nil
}

func registerMCPGo() {
	// No server.WithInputSchemaValidation: it would answer a structural
	// fault with an isError result without structuredContent.
	s := server.NewMCPServer("demo", "1.0.0")
	run := mcp.NewTool("run_workflow",
		mcp.WithAny("workflow"),
		mcp.WithString("program_ref"),
		mcp.WithString("trace_level", mcp.Description("none, summary or full")),
		mcp.WithObject("input"),
		mcp.WithString("comment", mcp.Enum("a", "b")),
	)
	run.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	s.AddTool(run, handle)

	trace := mcp.NewTool("trace_run", mcp.WithString("run_id", mcp.Required()))
	trace.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	s.AddTool(trace, handle)
}
