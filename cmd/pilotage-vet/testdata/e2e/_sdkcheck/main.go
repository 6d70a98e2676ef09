// Command sdkcheck observes, on the real SDKs, the behaviours the
// pilotage-vet messages describe, and prints one line per observation.
// The pilotage-vet end-to-end test runs it and compares the output, so a
// new SDK release that changes a behaviour shows up as a test failure.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

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
	if err := goSDKWire(ctx); err != nil {
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

// goSDKWire records, as the in-memory transport carries it, the response to
// a handler that returns a *jsonrpc.Error, wrapped or not, next to one that
// returns a plain error: what reaches the client is what the envelope
// analyzer's docs describe.
func goSDKWire(ctx context.Context) error {
	invalid := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "workflow must be an object"}
	s := mcp.NewServer(&mcp.Implementation{Name: "check", Version: "1"}, nil)
	s.AddTool(&mcp.Tool{Name: "raw_wire_error", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, invalid
	})
	s.AddTool(&mcp.Tool{Name: "raw_wrapped_wire_error", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("checking arguments: %w", invalid)
	})
	s.AddTool(&mcp.Tool{Name: "raw_plain_error", InputSchema: map[string]any{"type": "object"}}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("boom")
	})
	mcp.AddTool(s, &mcp.Tool{Name: "typed_wire_error"}, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		return nil, nil, invalid
	})
	mcp.AddTool(s, &mcp.Tool{Name: "typed_wrapped_wire_error"}, func(ctx context.Context, req *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("checking arguments: %w", invalid)
	})
	var wire syncBuffer // written by the client's reading goroutine
	ct, st := mcp.NewInMemoryTransports()
	if _, err := s.Connect(ctx, st, nil); err != nil {
		return err
	}
	// The client side logs a message as it reads it, before the call that
	// waits for it returns.
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "1"}, nil).Connect(ctx, &mcp.LoggingTransport{Transport: ct, Writer: &wire}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	for _, name := range []string{"raw_wire_error", "raw_wrapped_wire_error", "raw_plain_error", "typed_wire_error", "typed_wrapped_wire_error"} {
		_, _ = cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
		last, err := response(wire.String(), name)
		if err != nil {
			return err
		}
		var resp struct {
			Error  json.RawMessage `json:"error"`
			Result struct {
				IsError           bool            `json:"isError"`
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(last), &resp); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		if resp.Error != nil {
			fmt.Printf("go-sdk wire %s: error %s\n", name, resp.Error)
		} else {
			fmt.Printf("go-sdk wire %s: result isError=%v structuredContent=%s\n", name, resp.Result.IsError, cmp.Or(string(resp.Result.StructuredContent), "absent"))
		}
	}
	return nil
}

// response finds, in a LoggingTransport log of the client side, the
// message read in answer to the tools/call of the named tool. The log
// lines of a request and its response may come in either order.
func response(log, tool string) (string, error) {
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	var id string
	reads := map[string]string{}
	for _, line := range strings.Split(log, "\n") {
		dir, data, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		var m msg
		if json.Unmarshal([]byte(data), &m) != nil {
			continue
		}
		switch {
		case dir == "write" && m.Method == "tools/call" && m.Params.Name == tool:
			id = string(m.ID)
		case dir == "read" && m.Method == "":
			reads[string(m.ID)] = data
		}
	}
	if r, ok := reads[id]; ok && id != "" {
		return r, nil
	}
	return "", fmt.Errorf("%s: no response in the transport log", tool)
}

// syncBuffer is written by the server's connection goroutine and read here.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
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
	// Even a permissive Pilotage schema types its reserved members.
	s.AddTool(mcpgo.NewTool("permissive", mcpgo.WithString("trace_level"), mcpgo.WithSchemaAdditionalProperties(true)), handler)
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
	report("wrong JSON type, permissive schema", send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"permissive","arguments":{"trace_level":5}}}`))
	report("handler error", send(`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"fails","arguments":{}}}`))
	return nil
}
