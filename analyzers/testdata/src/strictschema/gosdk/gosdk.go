package gosdk

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

type RunArgs struct {
	Workflow   any    `json:"workflow"`
	TraceLevel string `json:"trace_level,omitempty"`
}

type Out struct {
	Valid bool `json:"valid"`
}

var decl = mcp.Meta{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}}

func validate(ctx context.Context, req *mcp.CallToolRequest, in RunArgs) (*mcp.CallToolResult, Out, error) {
	return nil, Out{}, nil
}

func raw(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: map[string]any{}}, nil
}

func register(s *mcp.Server) {
	// Inferred from a struct: strict.
	mcp.AddTool(s, &mcp.Tool{Name: "validate_workflow", Meta: decl}, validate) // want `mcp.AddTool infers the input schema of loop tool "validate_workflow" from RunArgs with "additionalProperties": false and every field without omitempty required; it validates arguments against that schema and answers an unknown member or a missing field with an isError result that has no structuredContent, before the handler runs \(Part III §4.6\)`

	// Explicit instantiation and a pointer In are the same.
	mcp.AddTool[*RunArgs, Out](s, &mcp.Tool{Name: "validate_ptr", Meta: decl}, nil) // want `infers the input schema of loop tool "validate_ptr" from \*RunArgs`

	// Explicit schema, closed and constrained.
	mcp.AddTool(s, &mcp.Tool{
		Name: "run_workflow",
		Meta: decl,
		InputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"workflow":    {Pattern: "^wf"},                                 // want `loop tool "run_workflow" constrains its program argument "workflow" with pattern`
				"trace_level": {Type: "string", Enum: []any{"none", "summary"}}, // want `loop tool "run_workflow" constrains reserved member "trace_level" with enum, beyond its JSON type; go-sdk's mcp.AddTool validates arguments.*declare it as \{"type": "string"\}`
				"program_ref": {Type: "string"},
				"note":        {Type: "string", Enum: []any{"a"}},
			},
			Required:             []string{"workflow", "note"},                  // want `execute tool "run_workflow" marks "workflow" required`
			AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}, // want `loop tool "run_workflow" sets "additionalProperties": false on its input schema; go-sdk's mcp.AddTool validates`
		},
	}, validate)

	// The raw API does not validate, but publishes the schema.
	s.AddTool(&mcp.Tool{
		Name: "trace_run",
		Meta: decl,
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           map[string]any{"run_id": map[string]any{"type": "string"}},
			"additionalProperties": false, // want `loop tool "trace_run" sets "additionalProperties": false on its input schema; Server.AddTool publishes it as is`
		},
	}, raw)

	// JSON text, with a fix in place.
	s.AddTool(&mcp.Tool{Name: "run_raw", Meta: decl, InputSchema: json.RawMessage(`{"type": "object", "additionalProperties": false}`)}, raw) // want `loop tool "run_raw" sets "additionalProperties": false`
}

// A tool named as a loop tool by a manifest in the package is a loop tool
// even without a declaration.
var manifest = map[string]any{
	"pilotage": "1.1",
	"languages": []any{map[string]any{
		"id":   "workflow/v1",
		"loop": map[string]any{"validate": "check_flow", "execute": "exec_flow"},
	}},
}

const manifestJSON = `{"pilotage": "1.1", "languages": [{"id": "sql/pg", "loop": {"execute": "exec_sql"}}]}`

func registerByManifest(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "check_flow"}, validate) // want `loop tool "check_flow"`
	s.AddTool(&mcp.Tool{Name: "exec_sql", InputSchema: map[string]any{
		"type":     "object",
		"required": []string{"program_ref"}, // want `execute tool "exec_sql" marks "program_ref" required`
	}}, raw)
	// Not a Pilotage tool: its schema is its own business.
	mcp.AddTool(s, &mcp.Tool{Name: "weather"}, validate)
}
