package mcpgo

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

type RunArgs struct {
	Workflow any `json:"workflow"`
}

func handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{}), nil
}

func register() {
	s := server.NewMCPServer("demo", "1.0.0",
		server.WithStrictInputSchemaDefault(), // want `server.WithStrictInputSchemaDefault sets "additionalProperties": false on loop tool "run_workflow"; mcp-go publishes it, and with server.WithInputSchemaValidation answers a violation`
		server.WithInputSchemaValidation(),    // want `server.WithInputSchemaValidation makes mcp-go answer arguments that fail an input schema with an isError result that has no structuredContent, before the handler runs; for Pilotage tools "run_workflow", "trace_run" that breaks the result envelope \(structuredContent is REQUIRED, Part III §6\), and a missing required member or a wrong JSON type is a carrier fault that belongs in a JSON-RPC error \(Part III §7.1\): drop the option and check those members in the handler`
	)

	inferred := mcp.NewTool("validate_workflow",
		mcp.WithInputSchema[RunArgs](), // want `mcp.WithInputSchema\[RunArgs\] gives loop tool "validate_workflow" an input schema with "additionalProperties": false`
	)
	inferred.Meta = mcp.NewMetaFromMap(map[string]any{
		types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"},
	})
	s.AddTool(inferred, handle)

	run := mcp.NewTool("run_workflow",
		mcp.WithAny("workflow", mcp.Required()), // want `execute tool "run_workflow" marks "workflow" required`
		mcp.WithString("program_ref"),
		mcp.WithString("trace_level", mcp.Enum("none", "summary", "full")), // want `loop tool "run_workflow" constrains reserved member "trace_level" with enum`
		mcp.WithObject("input", mcp.AdditionalProperties(false)),           // want `loop tool "run_workflow" constrains reserved member "input" with additionalProperties`
		mcp.WithString("mode", mcp.Pattern("^(immediate|deploy)$")),        // want `constrains reserved member "mode" with pattern`
		mcp.WithString("comment", mcp.MaxLength(10)),
	)
	run.Meta = mcp.NewMetaFromMap(map[string]any{
		types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"},
	})
	s.AddTool(run, handle)

	closed := mcp.NewTool("trace_run",
		mcp.WithString("run_id", mcp.Required()),
		mcp.WithSchemaAdditionalProperties(false), // want `loop tool "trace_run" sets "additionalProperties": false`
	)
	s.AddTools(server.ServerTool{Tool: closed, Handler: handle})

	// Not a Pilotage tool.
	s.AddTool(mcp.NewTool("weather", mcp.WithInputSchema[RunArgs]()), handle)
}

var manifest = map[string]any{"loop": map[string]any{"trace": "trace_run"}}
