// Package clean is a Pilotage server written the recommended way, on both
// SDKs: pilotage-vet reports nothing here.
package clean

import (
	"context"

	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const pilotageKey = "io.github.jafarsa0/pilotage"

var decl = map[string]any{"argument": "workflow", "language": "workflow/v1"}

// runSchema types the members and nothing more (Part III §4.6).
var runSchema = &jsonschema.Schema{
	Type: "object",
	Properties: map[string]*jsonschema.Schema{
		"workflow":    {},
		"program_ref": {Type: "string"},
		"input":       {Type: "object"},
		"trace_level": {Type: "string"},
	},
}

func requestError(kind, msg string) map[string]any {
	return map[string]any{"error": map[string]any{"kind": kind, "message": msg}}
}

func run(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
	if (in["workflow"] == nil) == (in["program_ref"] == nil) {
		return &mcp.CallToolResult{IsError: true, StructuredContent: requestError("invalid_request", "supply exactly one of workflow and program_ref")}, nil, nil
	}
	return nil, map[string]any{"run_id": "r1", "outcome": map[string]any{"ok": true, "status": "success", "error": nil}}, nil
}

func NewGoSDK() *mcp.Server {
	caps := &mcp.ServerCapabilities{}
	caps.AddExtension(pilotageKey, map[string]any{"version": "1.1"})
	s := mcp.NewServer(&mcp.Implementation{Name: "clean", Version: "1.0.0"}, &mcp.ServerOptions{Capabilities: caps})
	mcp.AddTool(s, &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{pilotageKey: decl}, InputSchema: runSchema}, run)
	return s
}

func validate(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
	if _, ok := req.GetArguments()["workflow"]; !ok {
		res := mcpgo.NewToolResultStructured(requestError("invalid_request", "workflow is required"), "invalid_request")
		res.IsError = true
		return res, nil
	}
	return mcpgo.NewToolResultStructuredOnly(map[string]any{"valid": true, "diagnostics": []any{}}), nil
}

func NewMCPGo() *server.MCPServer {
	// No server.WithInputSchemaValidation: it answers a schema failure with
	// an isError result without structuredContent (Part III §6, §7.1).
	s := server.NewMCPServer("clean", "1.0.0",
		server.WithExtensions(map[string]any{pilotageKey: map[string]any{}}),
	)
	tool := mcpgo.NewTool("validate_workflow",
		mcpgo.WithAny("workflow", mcpgo.Required()),
		mcpgo.WithObject("context"),
	)
	tool.Meta = mcpgo.NewMetaFromMap(map[string]any{pilotageKey: decl})
	s.AddTool(tool, validate)
	return s
}
