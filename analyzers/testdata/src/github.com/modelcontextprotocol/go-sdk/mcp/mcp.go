// Package mcp is a stand-in for github.com/modelcontextprotocol/go-sdk/mcp
// v1.8.0 with the signatures the analyzers resolve.
package mcp

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
)

var _ = jsonschema.Schema{}

type Meta map[string]any

type Tool struct {
	Meta         `json:"_meta,omitempty"`
	Description  string `json:"description,omitempty"`
	InputSchema  any    `json:"inputSchema"`
	Name         string `json:"name"`
	OutputSchema any    `json:"outputSchema,omitempty"`
}

type Content interface{ isContent() }

type TextContent struct{ Text string }

func (*TextContent) isContent() {}

type CallToolParamsRaw struct {
	Meta      `json:"_meta,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

type CallToolRequest struct {
	Params *CallToolParamsRaw
}

type CallToolResult struct {
	Meta              `json:"_meta,omitempty"`
	Content           []Content `json:"content"`
	StructuredContent any       `json:"structuredContent,omitempty"`
	IsError           bool      `json:"isError,omitempty"`
}

func (r *CallToolResult) SetError(err error) {}

type ToolHandler func(context.Context, *CallToolRequest) (*CallToolResult, error)

type ToolHandlerFor[In, Out any] func(_ context.Context, request *CallToolRequest, input In) (result *CallToolResult, output Out, _ error)

type Implementation struct{ Name, Version string }

type ServerCapabilities struct {
	Extensions map[string]any `json:"extensions,omitempty"`
}

func (c *ServerCapabilities) AddExtension(name string, settings map[string]any) {}

type ClientCapabilities struct {
	Extensions map[string]any `json:"extensions,omitempty"`
}

func (c *ClientCapabilities) AddExtension(name string, settings map[string]any) {}

type ServerOptions struct {
	Capabilities *ServerCapabilities
}

type Server struct{}

func NewServer(impl *Implementation, options *ServerOptions) *Server { return &Server{} }

func (s *Server) AddTool(t *Tool, h ToolHandler) {}

func AddTool[In, Out any](s *Server, t *Tool, h ToolHandlerFor[In, Out]) {}
