package gosdk

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = mcp.Meta{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}}

var schema = &jsonschema.Schema{Type: "object"}

type Outcome struct {
	OK bool `json:"ok"`
}

func typedStruct(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, Outcome, error) {
	if in["workflow"] == nil {
		return nil, Outcome{}, errors.New("workflow missing") // want `handler of Pilotage tool "run_workflow" returns a Go error; go-sdk's mcp.AddTool turns it into an isError result whose only content is the error text, with no structuredContent \(a \*jsonrpc.Error becomes a JSON-RPC error response\), not a Pilotage request error \(Part III §7.1\)`
	}
	if in["mode"] == "x" {
		return &mcp.CallToolResult{IsError: true}, Outcome{}, nil // want `typed handler of Pilotage tool "run_workflow" sets IsError, but go-sdk overwrites structuredContent with the marshalled Out \(Outcome\) even when IsError is true`
	}
	res := &mcp.CallToolResult{}
	res.SetError(errors.New("bad")) // want `typed handler of Pilotage tool "run_workflow" sets IsError`
	res.IsError = true              // want `sets IsError`
	// A nil result is fine here: the SDK builds one from Out.
	return nil, Outcome{OK: true}, nil
}

func typedAny(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
	if in["x"] != nil {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "no"}}}, nil, nil // want `handler of Pilotage tool "validate_workflow" returns a result without structuredContent`
	}
	if in["y"] != nil {
		// A *jsonrpc.Error is the carrier channel, chosen on purpose for a
		// structural fault (Part III §7.1): the SDK sends it with its code.
		return nil, nil, &jsonrpc.Error{Code: -32602, Message: "bad"}
	}
	if _, ok := in["z"].(string); !ok {
		return nil, nil, invalidParams("z must be a string")
	}
	if in["w"] != nil {
		// The typed mcp.AddTool passes only the *jsonrpc.Error itself
		// through; wrapped, it becomes an isError result.
		return nil, nil, fmt.Errorf("w: %w", invalidParams("w")) // want `handler of Pilotage tool "validate_workflow" returns a Go error; go-sdk's mcp.AddTool turns it into an isError result`
	}
	// A non-nil out becomes structuredContent.
	return nil, map[string]any{"valid": true}, nil
}

func invalidParams(msg string) *jsonrpc.Error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

func register(s *mcp.Server) {
	mcp.AddTool(s, &mcp.Tool{Name: "run_workflow", Meta: decl, InputSchema: schema}, typedStruct)
	mcp.AddTool(s, &mcp.Tool{Name: "validate_workflow", Meta: decl, InputSchema: schema}, typedAny)
	s.AddTool(&mcp.Tool{Name: types.ToolManifest, InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if req.Params == nil {
			return nil, errors.New("no params") // want `handler of Pilotage tool "pilotage_manifest" returns a Go error; go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0, a carrier protocol error`
		}
		if req.Params.Arguments == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "arguments required"}
		}
		if len(req.Params.Arguments) > 1<<20 {
			var err error = invalidParams("too long")
			return nil, err
		}
		if len(req.Params.Arguments) > 1<<16 {
			// Server.AddTool keeps the code of a wrapped *jsonrpc.Error.
			return nil, fmt.Errorf("arguments: %w", invalidParams("too long"))
		}
		if req.Params.Name == "" {
			return nil, nil // want `handler of Pilotage tool "pilotage_manifest" returns a nil result, which has no structuredContent`
		}
		return &mcp.CallToolResult{StructuredContent: map[string]any{"pilotage": "1.1"}}, nil
	})
	// Not a Pilotage tool.
	s.AddTool(&mcp.Tool{Name: "weather", InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("no weather today")
	})
}
