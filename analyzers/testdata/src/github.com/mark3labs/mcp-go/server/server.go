// Package server is a stand-in for github.com/mark3labs/mcp-go/server v1.2.1.
package server

import (
	"context"

	"github.com/mark3labs/mcp-go/mcp"
)

type ToolHandlerFunc func(ctx context.Context, request mcp.CallToolRequest) (*mcp.CallToolResult, error)

type ServerTool struct {
	Tool    mcp.Tool
	Handler ToolHandlerFunc
}

type ServerOption func(*MCPServer)

type MCPServer struct{}

func NewMCPServer(name, version string, opts ...ServerOption) *MCPServer { return &MCPServer{} }

func WithExtensions(extensions map[string]any) ServerOption { return nil }
func WithStrictInputSchemaDefault() ServerOption            { return nil }
func WithInputSchemaValidation() ServerOption               { return nil }

func (s *MCPServer) AddTool(tool mcp.Tool, handler ToolHandlerFunc) {}
func (s *MCPServer) AddTools(tools ...ServerTool)                   {}
