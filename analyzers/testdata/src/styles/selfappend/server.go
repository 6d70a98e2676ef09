// Package selfappend is the rawgosdk server with its tools collected in a
// table that a closure appends to (ts = append(ts, ...)) and registered in
// a loop over it, as internal/pilotserver does. It is correct:
// pilotage-vet reports nothing, and in particular does not recurse
// without end following the table's value.
package selfappend

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

func manifest() map[string]any {
	return map[string]any{
		"pilotage": "1.1",
		"languages": []any{map[string]any{
			"id":   "workflow/v1",
			"loop": map[string]any{"validate": "validate_workflow", "execute": "run_workflow", "trace": "trace_run"},
		}},
	}
}

func requestError(kind, msg string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"kind": kind, "message": msg}}}
}

func invalidParams(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

func arguments(req *mcp.CallToolRequest) (map[string]any, error) {
	var args map[string]any
	if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
		return nil, invalidParams("arguments must be an object")
	}
	return args, nil
}

// loopSchema is the permissive loop-tool schema of Part III §4.6, built
// member by member.
func loopSchema() map[string]any {
	props := map[string]any{}
	props["workflow"] = map[string]any{}
	props["trace_level"] = map[string]any{"type": "string"}
	props["mode"] = map[string]any{"type": "string", "description": "immediate or deploy"}
	schema := map[string]any{"type": "object"}
	schema["properties"] = props
	return schema
}

func runSchema() map[string]any {
	schema := loopSchema()
	schema["properties"].(map[string]any)["program_ref"] = map[string]any{"type": "string"}
	return schema
}

func traceSchema() map[string]any {
	schema := map[string]any{"type": "object"}
	props := map[string]any{}
	props["run_id"] = map[string]any{"type": "string"}
	schema["properties"] = props
	// The run id is structural for the trace tool: required is allowed.
	schema["required"] = []string{"run_id"}
	return schema
}

func handleManifest(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{StructuredContent: manifest()}, nil
}

func handleValidate(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req)
	if err != nil {
		return nil, err
	}
	if _, ok := args["workflow"]; !ok {
		return requestError("invalid_request", "workflow is required"), nil
	}
	return &mcp.CallToolResult{StructuredContent: map[string]any{"valid": true, "diagnostics": []any{}}}, nil
}

func handleRun(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req)
	if err != nil {
		return nil, err
	}
	if tl, ok := args["trace_level"]; ok {
		level, isString := tl.(string)
		if !isString {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "trace_level must be a string"}
		}
		if level != "none" && level != "summary" && level != "full" {
			return requestError("invalid_request", "unknown trace_level"), nil
		}
	}
	res := &mcp.CallToolResult{}
	res.StructuredContent = map[string]any{"ok": true, "status": "success", "error": nil}
	return res, nil
}

func handleTrace(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args, err := arguments(req)
	if err != nil {
		return nil, err
	}
	if _, ok := args["run_id"].(string); !ok {
		return nil, invalidParams("run_id must be a string")
	}
	return requestError("not_found", "unknown run: it may have expired"), nil
}

type entry struct {
	tool    *mcp.Tool
	handler mcp.ToolHandler
}

// tools collects the table with a closure that appends to it, the shape
// that once sent pilotage-vet into endless recursion: the list's value is
// an append of itself.
func tools() []entry {
	var ts []entry
	add := func(t *mcp.Tool, h mcp.ToolHandler) { ts = append(ts, entry{t, h}) }
	add(&mcp.Tool{Name: types.ToolManifest, InputSchema: map[string]any{"type": "object"}}, handleManifest)
	add(&mcp.Tool{Name: "validate_workflow", Meta: mcp.Meta{types.MetaKey: decl}, InputSchema: loopSchema()}, handleValidate)
	add(&mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{types.MetaKey: decl}, InputSchema: runSchema()}, handleRun)
	add(&mcp.Tool{Name: "trace_run", InputSchema: traceSchema()}, handleTrace)
	return ts
}

func Register(s *mcp.Server) {
	for _, e := range tools() {
		s.AddTool(e.tool, e.handler)
	}
}
