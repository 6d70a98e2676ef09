// Package jsonrpc2 is a stand-in for go-sdk's internal/jsonrpc2, where the
// type behind jsonrpc.Error is declared.
package jsonrpc2

type WireError struct {
	Code    int64
	Message string
}

func (e *WireError) Error() string { return e.Message }
