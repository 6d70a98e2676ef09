// Package mcpgoserver serves the testdata Pilotage server of
// internal/pilotserver with mark3labs/mcp-go instead of the go-sdk: the
// same tools and answers, behind mcp-go's handshake, listing, dispatch,
// error mapping and result encoding. It lets the tests of
// pilotagetest/mcpgotest show that an mcp-go server passes and fails the
// way a go-sdk server does.
package mcpgoserver

import (
	"context"
	"encoding/json"
	"errors"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
)

// New returns an mcp-go server with cfg's behaviour.
func New(cfg pilotserver.Config) *server.MCPServer {
	s := server.NewMCPServer("pilotserver-mcpgo", "0.1.0",
		server.WithToolCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithInstructions(pilotserver.Instructions),
		server.WithExtensions(map[string]any{"io.github.jafarsa0/pilotage": map[string]any{"version": "1.1"}}),
	)
	if cfg.PageSize > 0 {
		server.WithPaginationLimit(cfg.PageSize)(s)
	}
	s.AddResource(mcpgo.NewResource(cfg.ResourceURI(), "pilotage-manifest", mcpgo.WithMIMEType("application/json")),
		func(_ context.Context, req mcpgo.ReadResourceRequest) ([]mcpgo.ResourceContents, error) {
			return []mcpgo.ResourceContents{mcpgo.TextResourceContents{URI: req.Params.URI, MIMEType: "application/json", Text: string(cfg.ResourceManifest())}}, nil
		})
	for _, t := range pilotserver.Tools(cfg) {
		s.AddTool(tool(t.Tool), handler(t.Tool.Name, t.Handler))
	}
	return s
}

// tool is the go-sdk tool as mcp-go declares it: the schemas as they are,
// the annotations and _meta member for member.
func tool(t *mcp.Tool) mcpgo.Tool {
	mt := mcpgo.Tool{Name: t.Name, Description: t.Description}
	mt.RawInputSchema, _ = json.Marshal(t.InputSchema)
	if t.OutputSchema != nil {
		mt.RawOutputSchema, _ = json.Marshal(t.OutputSchema)
	}
	if a := t.Annotations; a != nil {
		if a.ReadOnlyHint {
			mt.Annotations.ReadOnlyHint = &a.ReadOnlyHint
		}
		mt.Annotations.DestructiveHint = a.DestructiveHint
		mt.Annotations.OpenWorldHint = a.OpenWorldHint
	}
	if len(t.Meta) > 0 {
		mt.Meta = &mcpgo.Meta{AdditionalFields: map[string]any(t.Meta)}
	}
	return mt
}

// handler calls the go-sdk handler with the arguments as sent and returns
// its result as mcp-go's; a JSON-RPC error stays an error, which mcp-go
// answers as it answers any handler error.
func handler(name string, h mcp.ToolHandler) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		args := req.Params.RawArguments
		if len(args) == 0 {
			args, _ = json.Marshal(req.GetArguments())
		}
		res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: name, Arguments: args}})
		if err != nil {
			return nil, err
		}
		if res == nil {
			return nil, errors.New("no result")
		}
		out := &mcpgo.CallToolResult{StructuredContent: res.StructuredContent, IsError: res.IsError}
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				out.Content = append(out.Content, mcpgo.NewTextContent(tc.Text))
			}
		}
		return out, nil
	}
}
