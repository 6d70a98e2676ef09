// Package gosdkfor builds its loop-tool schema with jsonschema.For[T] and
// opens it, and registers typed go-sdk handlers whose Out is any, so the
// handler owns structuredContent. It is correct: pilotage-vet reports
// nothing; its twins are in analyzers/styles_test.go.
package gosdkfor

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// RunArgs leaves every member optional: runnable selection and value
// checks belong to the handler (Part III §4.6).
type RunArgs struct {
	Workflow   any    `json:"workflow,omitempty"`
	ProgramRef string `json:"program_ref,omitempty"`
	TraceLevel string `json:"trace_level,omitempty" jsonschema:"none, summary or full"`
	Mode       string `json:"mode,omitempty"`
}

func runSchema() *jsonschema.Schema {
	s, err := jsonschema.For[RunArgs](nil)
	if err != nil {
		panic(err)
	}
	// For closes every struct; a loop tool stays open.
	s.AdditionalProperties = nil
	return s
}

var decl = mcp.Meta{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}}

func requestError(kind, msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"kind": kind, "message": msg}}}
}

func run(ctx context.Context, req *mcp.CallToolRequest, in RunArgs) (*mcp.CallToolResult, any, error) {
	if (in.Workflow == nil) == (in.ProgramRef == "") {
		return requestError("invalid_request", "give exactly one of workflow and program_ref"), nil, nil
	}
	switch in.TraceLevel {
	case "", "none", "summary", "full":
	default:
		return requestError("invalid_request", "unknown trace_level"), nil, nil
	}
	return nil, map[string]any{"ok": true, "status": "success", "error": nil}, nil
}

func manifest(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: map[string]any{"pilotage": "1.1"}}, nil
}

func Register(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: types.ToolManifest, InputSchema: map[string]any{"type": "object"}}, manifest)
	mcp.AddTool(s, &mcp.Tool{Name: "run_workflow", Meta: decl, InputSchema: runSchema()}, run)
}
