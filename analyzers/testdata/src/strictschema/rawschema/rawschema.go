// Package rawschema declares loop-tool schemas the two other ways servers
// pass them (issue 33 §6): mcp-go's mcp.NewToolWithRawSchema, and a go-sdk
// schema built as a map, marshalled and passed as json.RawMessage.
package rawschema

import (
	"context"
	"encoding/json"

	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

func handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{}), nil
}

func raw(ctx context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
	return &gosdk.CallToolResult{StructuredContent: map[string]any{}}, nil
}

func mcpgo(s *server.MCPServer) {
	// Bad: closed, and the reserved trace_level constrained.
	closed := mcp.NewToolWithRawSchema("run_closed", "runs", json.RawMessage(`{"type": "object", "additionalProperties": false, "properties": {"workflow": {}, "trace_level": {"type": "string", "enum": ["none", "summary", "full"]}}}`)) // want `loop tool "run_closed" sets "additionalProperties": false` `loop tool "run_closed" constrains reserved member "trace_level" with enum`
	closed.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	s.AddTool(closed, handle)

	// Good: permissive, members typed only.
	open := mcp.NewToolWithRawSchema("run_open", "runs", json.RawMessage(`{"type": "object", "properties": {"workflow": {}, "trace_level": {"type": "string"}}}`))
	open.Meta = mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl})
	s.AddTool(open, handle)

	// Not a loop tool: its schema is its own business.
	s.AddTool(mcp.NewToolWithRawSchema("weather", "", json.RawMessage(`{"type": "object", "additionalProperties": false}`)), handle)
}

func gosdkMarshalled(s *gosdk.Server) error {
	// Bad: a map schema, marshalled, passed as json.RawMessage.
	schema := map[string]any{
		"type":                 "object",
		"additionalProperties": false, // want `loop tool "validate_marshalled" sets "additionalProperties": false`
		"properties": map[string]any{
			"workflow": map[string]any{},
			"mode":     map[string]any{"type": "string", "enum": []string{"immediate", "deploy"}}, // want `loop tool "validate_marshalled" constrains reserved member "mode" with enum`
		},
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	s.AddTool(&gosdk.Tool{Name: "validate_marshalled", Meta: gosdk.Meta{types.MetaKey: decl}, InputSchema: json.RawMessage(b)}, raw)

	// Bad: closed by a later assignment through the map.
	later := map[string]any{"type": "object", "properties": map[string]any{"workflow": map[string]any{}}}
	later["additionalProperties"] = false // want `loop tool "run_later" sets "additionalProperties": false`
	lb, _ := json.MarshalIndent(later, "", "  ")
	s.AddTool(&gosdk.Tool{Name: "run_later", Meta: gosdk.Meta{types.MetaKey: decl}, InputSchema: json.RawMessage(lb)}, raw)

	// Good: the same way, permissive.
	permissive := map[string]any{
		"type": "object",
		"properties": map[string]any{
			"workflow":    map[string]any{},
			"program_ref": map[string]any{"type": "string"},
			"trace_level": map[string]any{"type": "string"},
		},
	}
	pb, err := json.Marshal(permissive)
	if err != nil {
		return err
	}
	s.AddTool(&gosdk.Tool{Name: "run_marshalled", Meta: gosdk.Meta{types.MetaKey: decl}, InputSchema: json.RawMessage(pb)}, raw)
	return nil
}
