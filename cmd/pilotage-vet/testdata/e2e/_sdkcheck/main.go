// Command sdkcheck observes, on the real SDKs, the behaviours the
// pilotage-vet messages describe, and prints one line per observation.
// The pilotage-vet end-to-end test runs it and compares the output, so a
// new SDK release that changes a behaviour shows up as a test failure.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/google/jsonschema-go/jsonschema"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type Args struct {
	Workflow   any    `json:"workflow"`
	TraceLevel string `json:"trace_level,omitempty"`
}

type Outcome struct {
	OK bool `json:"ok"`
}

func main() {
	ctx := context.Background()
	if err := goSDK(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := mcpGo(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func goSDK(ctx context.Context) error {
	s := mcp.NewServer(&mcp.Implementation{Name: "check", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "inferred"}, func(ctx context.Context, req *mcp.CallToolRequest, in Args) (*mcp.CallToolResult, any, error) {
		return nil, map[string]any{"reached": true}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "typed_struct_out"}, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, Outcome, error) {
		return &mcp.CallToolResult{IsError: true, StructuredContent: map[string]any{"error": map[string]any{"kind": "invalid_request"}}}, Outcome{}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "typed_error"}, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("boom")
	})
	mcp.AddTool(s, &mcp.Tool{Name: "explicit_enum", InputSchema: &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"trace_level": {Type: "string", Enum: []any{"none", "summary", "full"}}},
	}}, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		return nil, map[string]any{"reached": true}, nil
	})
	s.AddTool(&mcp.Tool{Name: "raw_error", InputSchema: &jsonschema.Schema{Type: "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("boom")
	})
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		return err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	for _, t := range tools.Tools {
		if t.Name == "inferred" {
			fmt.Println("go-sdk inferred schema:", jsonOf(t.InputSchema))
		}
	}
	call := func(name string, args any) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			var we *jsonrpc.Error
			if errors.As(err, &we) {
				fmt.Printf("go-sdk %s: JSON-RPC error %d %q\n", name, we.Code, we.Message)
			} else {
				fmt.Printf("go-sdk %s: error %v\n", name, err)
			}
			return
		}
		text := ""
		if len(res.Content) > 0 {
			if tc, ok := res.Content[0].(*mcp.TextContent); ok {
				text = tc.Text
			}
		}
		fmt.Printf("go-sdk %s: isError=%v structuredContent=%s content=%q\n", name, res.IsError, jsonOf(res.StructuredContent), text)
	}
	call("inferred", map[string]any{"workflow": 1, "extra": true})
	call("inferred", map[string]any{"trace_level": "full"})
	call("inferred", map[string]any{"workflow": 1})
	call("explicit_enum", map[string]any{"trace_level": "verbose"})
	call("typed_struct_out", map[string]any{})
	call("typed_error", map[string]any{})
	call("raw_error", map[string]any{})
	return nil
}

func mcpGo(ctx context.Context) error {
	inferred := mcpgo.NewTool("inferred", mcpgo.WithInputSchema[Args]())
	fmt.Println("mcp-go WithInputSchema schema:", string(inferred.RawInputSchema))

	s := mcpgoserver.NewMCPServer("check", "1",
		mcpgoserver.WithStrictInputSchemaDefault(),
		mcpgoserver.WithInputSchemaValidation(),
	)
	handler := func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return mcpgo.NewToolResultStructuredOnly(map[string]any{"reached": true}), nil
	}
	s.AddTool(mcpgo.NewTool("strict_default", mcpgo.WithString("trace_level", mcpgo.Enum("none", "summary"))), handler)
	s.AddTool(mcpgo.NewTool("fails", mcpgo.WithString("x")), func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		return nil, errors.New("boom")
	})
	send := func(msg string) map[string]any {
		out := s.HandleMessage(ctx, json.RawMessage(msg))
		var m map[string]any
		_ = json.Unmarshal([]byte(jsonOf(out)), &m)
		return m
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	list := send(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	if r, ok := list["result"].(map[string]any); ok {
		for _, t := range r["tools"].([]any) {
			tm := t.(map[string]any)
			if tm["name"] == "strict_default" {
				fmt.Println("mcp-go strict default schema:", jsonOf(tm["inputSchema"]))
			}
		}
	}
	report := func(label string, m map[string]any) {
		if e, ok := m["error"].(map[string]any); ok {
			fmt.Printf("mcp-go %s: JSON-RPC error %v\n", label, e["code"])
			return
		}
		r, _ := m["result"].(map[string]any)
		fmt.Printf("mcp-go %s: isError=%v structuredContent=%s\n", label, r["isError"], jsonOf(r["structuredContent"]))
	}
	report("unknown member", send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"strict_default","arguments":{"extra":1}}}`))
	report("enum violation", send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"strict_default","arguments":{"trace_level":"verbose"}}}`))
	report("handler error", send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fails","arguments":{}}}`))
	return nil
}
