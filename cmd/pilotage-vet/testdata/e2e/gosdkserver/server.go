// Package gosdkserver is a small Pilotage server on the real go-sdk, with
// one mistake of each kind next to code written the recommended way.
package gosdkserver

import (
	"context"
	"errors"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const pilotageKey = "io.github.jafarsa0/pilotage"

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

// ValidateArgs is inferred into a strict schema by mcp.AddTool.
type ValidateArgs struct {
	Workflow any    `json:"workflow"`
	Context  string `json:"context,omitempty"`
}

type Outcome struct {
	OK     bool    `json:"ok"`
	Status string  `json:"status"`
	Error  *string `json:"error"`
}

func validate(ctx context.Context, req *mcp.CallToolRequest, in ValidateArgs) (*mcp.CallToolResult, any, error) {
	return nil, map[string]any{"valid": true, "diagnostics": []any{}}, nil
}

func run(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, Outcome, error) {
	if in["workflow"] == nil && in["program_ref"] == nil {
		return &mcp.CallToolResult{IsError: true}, Outcome{}, nil
	}
	return nil, Outcome{OK: true, Status: "success"}, nil
}

var runSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"workflow":    {},
		"program_ref": {Type: "string"},
		"input":       {Type: "object"},
		"trace_level": {Type: "string", Enum: []any{"none", "summary", "full"}},
	},
	Required: []string{"workflow"},
}

func New() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "e2e-gosdk", Version: "1.0.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "validate_workflow", Meta: mcp.Meta{"pilotage": decl}}, validate)
	mcp.AddTool(s, &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{pilotageKey: decl}, InputSchema: runSchema}, run)
	s.AddTool(&mcp.Tool{Name: "pilotage_manifest", InputSchema: &jsonschema.Schema{Type: "object"}},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Name == "" {
				return nil, errors.New("no name")
			}
			return &mcp.CallToolResult{StructuredContent: map[string]any{"pilotage": "1.1"}}, nil
		})
	return s
}

// Capabilities declares the extension under the legacy dotted name.
func Capabilities() *mcp.ServerCapabilities {
	caps := &mcp.ServerCapabilities{}
	caps.AddExtension("io.github.jafarsa0.pilotage", nil)
	return caps
}
