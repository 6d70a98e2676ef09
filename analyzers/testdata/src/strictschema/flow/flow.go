// Package flow covers the ways of building tools and schemas that the
// style fixtures do not: a returned map of tools, s.AddTools(list...),
// assignments to an mcp-go tool's InputSchema, a jsonschema:"enum=..."
// tag read by mcp.WithInputSchema[T], and the assignments that open a
// schema again, in both polarities.
package flow

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

func meta() *mcp.Meta { return mcp.NewMetaFromMap(map[string]any{types.MetaKey: decl}) }

func handle(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return mcp.NewToolResultStructuredOnly(map[string]any{}), nil
}

// A map of tools, ranged by name.
func toolsByName() map[string]mcp.Tool {
	run := mcp.NewTool("run_workflow", mcp.WithAny("workflow"), mcp.WithString("program_ref"), mcp.WithString("trace_level"))
	run.Meta = meta()
	run.InputSchema.AdditionalProperties = false                                                         // want `loop tool "run_workflow" sets "additionalProperties": false on its input schema; mcp-go publishes it`
	run.InputSchema.Properties["mode"] = map[string]any{"type": "string", "enum": []string{"immediate"}} // want `loop tool "run_workflow" constrains reserved member "mode" with enum`
	check := mcp.NewTool("check_workflow", mcp.WithAny("workflow"))
	check.Meta = meta()
	check.InputSchema.AdditionalProperties = true
	check.InputSchema.Properties["comment"] = map[string]any{"type": "string", "enum": []string{"a"}}
	return map[string]mcp.Tool{"run": run, "check": check}
}

var handlers = map[string]server.ToolHandlerFunc{"run": handle, "check": handle}

func registerMap(s *server.MCPServer) {
	for name, t := range toolsByName() {
		s.AddTool(t, handlers[name])
	}
}

type TaggedArgs struct {
	Workflow   any    `json:"workflow,omitempty"`
	TraceLevel string `json:"trace_level,omitempty" jsonschema:"enum=none,enum=full"` // want `loop tool "exec_tagged" constrains reserved member "trace_level" with enum \(its jsonschema:"enum=..." tag\)`
	Comment    string `json:"comment,omitempty" jsonschema:"enum=a,enum=b"`
}

// A spread slice of server tools.
func serverTools() []server.ServerTool {
	tagged := mcp.NewTool("exec_tagged", mcp.WithInputSchema[TaggedArgs]()) // want `mcp.WithInputSchema\[TaggedArgs\] gives loop tool "exec_tagged"`
	tagged.Meta = meta()
	return []server.ServerTool{{Tool: tagged, Handler: handle}}
}

func registerSpread(s *server.MCPServer) {
	s.AddTools(serverTools()...)
}

var manifest = map[string]any{"loop": map[string]any{"execute": "exec_tagged", "validate": "check_workflow"}}

type OpenArgs struct {
	Workflow   any    `json:"workflow,omitempty"`
	ProgramRef string `json:"program_ref,omitempty"`
}

func opened() *jsonschema.Schema {
	s, _ := jsonschema.For[OpenArgs](nil)
	s.AdditionalProperties = &jsonschema.Schema{}
	return s
}

func closedAgain() *jsonschema.Schema {
	s, _ := jsonschema.For[OpenArgs](nil)
	s.AdditionalProperties = nil
	s.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}} // want `loop tool "run_closed" sets "additionalProperties": false on its input schema; go-sdk's mcp.AddTool validates`
	return s
}

func typed(ctx context.Context, req *gosdk.CallToolRequest, in map[string]any) (*gosdk.CallToolResult, any, error) {
	return nil, nil, nil
}

func registerGoSDK(s *gosdk.Server) {
	m := gosdk.Meta{types.MetaKey: decl}
	gosdk.AddTool(s, &gosdk.Tool{Name: "run_open", Meta: m, InputSchema: opened()}, typed)
	gosdk.AddTool(s, &gosdk.Tool{Name: "run_closed", Meta: m, InputSchema: closedAgain()}, typed)
	// Not a Pilotage tool: its closed schema is its own business.
	weather, _ := jsonschema.For[OpenArgs](nil)
	gosdk.AddTool(s, &gosdk.Tool{Name: "weather", InputSchema: weather}, typed)
}
