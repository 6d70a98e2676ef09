// Package chain holds go-sdk handlers whose errors come from helpers of
// the package, followed to any depth (issue 30 §6).
package chain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

var decl = mcp.Meta{types.MetaKey: map[string]any{"argument": "workflow", "language": "workflow/v1"}}

type args struct {
	Workflow any    `json:"workflow"`
	Mode     string `json:"mode"`
}

var ok = &mcp.CallToolResult{StructuredContent: map[string]any{"valid": true}}

// invalidParams returns a *jsonrpc.Error as a plain error: the static
// type no longer says what it holds.
func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// decode's every error comes from invalidParams.
func decode(req *mcp.CallToolRequest) (args, error) {
	var a args
	if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
		return args{}, invalidParams("the arguments are not an object: " + err.Error())
	}
	if err := require(a); err != nil {
		return args{}, err
	}
	return a, nil
}

// require has several returns, so it is followed into each.
func require(a args) error {
	if a.Workflow == nil {
		return invalidParams("workflow is required")
	}
	if _, isString := a.Workflow.(string); isString {
		return invalidParams("workflow must be an object")
	}
	return nil
}

// Five helpers deep, each passing the error on.
func level1(req *mcp.CallToolRequest) (args, error) { return level2(req) }
func level2(req *mcp.CallToolRequest) (args, error) { return level3(req) }
func level3(req *mcp.CallToolRequest) (args, error) { return level4(req) }
func level4(req *mcp.CallToolRequest) (args, error) {
	a, err := decode(req)
	if err != nil {
		return a, err
	}
	return a, nil
}

// retry calls itself: the cycle ends, and its other error decides.
func retry(req *mcp.CallToolRequest, n int) (args, error) {
	if n > 0 {
		return retry(req, n-1)
	}
	return decode(req)
}

// wrapDecode wraps decode's error with %w, which Server.AddTool unwraps
// (errors.As) and the typed mcp.AddTool does not.
func wrapDecode(req *mcp.CallToolRequest) (args, error) {
	a, err := decode(req)
	if err != nil {
		return a, fmt.Errorf("decoding: %w", err)
	}
	return a, nil
}

// named keeps its error in a named result under a defer.
func named(req *mcp.CallToolRequest) (a args, err error) {
	defer func() {}()
	a, err = decode(req)
	return a, err
}

// Good: every error the handler returns is a *jsonrpc.Error, however far
// down it is built.
func runDeep(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a, err := level1(req)
	if err != nil {
		return nil, err
	}
	// err is assigned again with a plain error, but the return above sees
	// only decode's, and this one is answered as a result.
	if err = errors.New("not for the carrier"); a.Mode == "x" {
		return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"kind": "invalid_request", "message": err.Error()}}}, nil
	}
	if _, err := retry(req, 3); err != nil {
		return nil, err
	}
	if _, err := named(req); err != nil {
		return nil, err
	}
	if _, err := wrapDecode(req); err != nil {
		return nil, err
	}
	return ok, nil
}

// decodeLoose returns one plain error among the *jsonrpc.Error ones.
func decodeLoose(req *mcp.CallToolRequest) (args, error) {
	a, err := decode(req)
	if err != nil {
		return a, err
	}
	if a.Mode == "" {
		return a, errors.New("mode is required")
	}
	return a, nil
}

func loose1(req *mcp.CallToolRequest) (args, error) { return loose2(req) }
func loose2(req *mcp.CallToolRequest) (args, error) { return loose3(req) }
func loose3(req *mcp.CallToolRequest) (args, error) { return loose4(req) }
func loose4(req *mcp.CallToolRequest) (args, error) { return decodeLoose(req) }

// spin calls itself and has no other error: nothing shows a
// *jsonrpc.Error.
func spin(req *mcp.CallToolRequest) error {
	if req == nil {
		return spin(req)
	}
	return spin(nil)
}

// Bad: a plain error reaches the return, five helpers down, or through a
// cycle that never shows a *jsonrpc.Error.
func runLoose(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	if _, err := loose1(req); err != nil {
		return nil, err // want `handler of Pilotage tool "run_loose" returns a Go error; go-sdk's Server.AddTool sends it as a JSON-RPC error response with code 0`
	}
	if err := spin(req); err != nil {
		return nil, err // want `handler of Pilotage tool "run_loose" returns a Go error`
	}
	a, err := decode(req)
	if err != nil {
		return nil, err
	}
	// Reassigned with a plain error that does reach this return.
	if err = errors.New("mode unknown"); a.Mode == "x" {
		return nil, err // want `handler of Pilotage tool "run_loose" returns a Go error`
	}
	return ok, nil
}

// The typed mcp.AddTool does not unwrap: a wrapped *jsonrpc.Error becomes
// an isError result.
func typedWrapped(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
	if _, err := level1(req); err != nil {
		return nil, nil, err
	}
	if _, err := wrapDecode(req); err != nil {
		return nil, nil, err // want `handler of Pilotage tool "validate_deep" returns a Go error; go-sdk's mcp.AddTool turns it into an isError result`
	}
	return nil, map[string]any{"valid": true}, nil
}

func register(s *mcp.Server) {
	s.AddTool(&mcp.Tool{Name: "run_deep", Meta: decl}, runDeep)
	s.AddTool(&mcp.Tool{Name: "run_loose", Meta: decl}, runLoose)
	mcp.AddTool(s, &mcp.Tool{Name: "validate_deep", Meta: decl, InputSchema: map[string]any{"type": "object"}}, typedWrapped)
}
