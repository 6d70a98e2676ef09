// Package jsonrpc is a stand-in for the go-sdk jsonrpc package, whose Error
// is an alias of the internal WireError.
package jsonrpc

import "github.com/modelcontextprotocol/go-sdk/internal/jsonrpc2"

type Error = jsonrpc2.WireError

const (
	CodeInvalidParams = -32602
	CodeInternalError = -32603
)
