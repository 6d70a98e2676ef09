// Package mcp is a stand-in for github.com/mark3labs/mcp-go/mcp v1.2.1 with
// the signatures the analyzers resolve.
package mcp

import (
	"context"
	"encoding/json"
	"fmt"
)

type Meta struct {
	ProgressToken    any
	AdditionalFields map[string]any
}

func NewMetaFromMap(m map[string]any) *Meta { return &Meta{AdditionalFields: m} }

type Result struct {
	Meta *Meta `json:"_meta,omitempty"`
}

type Content interface{}

type TextContent struct {
	Type string
	Text string
}

type CallToolResult struct {
	Result
	Content              []Content       `json:"content"`
	StructuredContent    any             `json:"structuredContent,omitempty"`
	RawStructuredContent json.RawMessage `json:"-"`
	IsError              bool            `json:"isError,omitempty"`
}

type CallToolRequest struct{}

type ToolInputSchema struct {
	Type                 string
	Properties           map[string]any
	Required             []string
	AdditionalProperties any
}

type Tool struct {
	Meta           *Meta           `json:"_meta,omitempty"`
	Name           string          `json:"name"`
	Description    string          `json:"description,omitempty"`
	InputSchema    ToolInputSchema `json:"inputSchema"`
	RawInputSchema json.RawMessage `json:"-"`
}

type ToolOption func(*Tool)

type PropertyOption func(map[string]any)

func NewTool(name string, opts ...ToolOption) Tool { return Tool{Name: name} }

// NewToolWithRawSchema is mcp-go v1.2.1's: the schema becomes RawInputSchema.
func NewToolWithRawSchema(name, description string, schema json.RawMessage) Tool {
	return Tool{Name: name, Description: description, RawInputSchema: schema}
}

func WithDescription(description string) ToolOption              { return nil }
func WithInputSchema[T any]() ToolOption                         { return nil }
func WithRawInputSchema(schema json.RawMessage) ToolOption       { return nil }
func WithSchemaAdditionalProperties(schema any) ToolOption       { return nil }
func WithString(name string, opts ...PropertyOption) ToolOption  { return nil }
func WithBoolean(name string, opts ...PropertyOption) ToolOption { return nil }
func WithObject(name string, opts ...PropertyOption) ToolOption  { return nil }
func WithAny(name string, opts ...PropertyOption) ToolOption     { return nil }
func WithNumber(name string, opts ...PropertyOption) ToolOption  { return nil }
func Description(desc string) PropertyOption                     { return nil }
func Required() PropertyOption                                   { return nil }
func Enum(values ...string) PropertyOption                       { return nil }
func Pattern(pattern string) PropertyOption                      { return nil }
func MaxLength(max int) PropertyOption                           { return nil }
func AdditionalProperties(schema any) PropertyOption             { return nil }

func NewToolResultText(text string) *CallToolResult  { return nil }
func NewToolResultError(text string) *CallToolResult { return nil }
func NewToolResultErrorf(format string, a ...any) *CallToolResult {
	return NewToolResultError(fmt.Sprintf(format, a...))
}
func NewToolResultStructured(structured any, fallbackText string) *CallToolResult { return nil }
func NewToolResultStructuredOnly(structured any) *CallToolResult                  { return nil }

type TypedToolHandlerFunc[T any] func(ctx context.Context, request CallToolRequest, args T) (*CallToolResult, error)

func NewTypedToolHandler[T any](handler TypedToolHandlerFunc[T]) func(ctx context.Context, request CallToolRequest) (*CallToolResult, error) {
	return nil
}

type ServerCapabilities struct {
	Extensions map[string]any `json:"extensions,omitempty"`
}
