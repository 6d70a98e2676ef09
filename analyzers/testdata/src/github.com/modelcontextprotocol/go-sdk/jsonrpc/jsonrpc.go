// Package jsonrpc is a stand-in for the go-sdk jsonrpc package.
package jsonrpc

type Error struct {
	Code    int64
	Message string
}

func (e *Error) Error() string { return e.Message }
