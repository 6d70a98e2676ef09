package snapshotter

import (
	"context"
	"encoding/json"
	"errors"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// exchange is one request the client sent and the response it drew, in the
// bytes the server wrote. The SDK's typed results drop members it does not
// know and filter out tools it finds invalid; a snapshot must show the
// server as it is, so the recorder keeps the wire form.
type exchange struct {
	method string
	params json.RawMessage
	result json.RawMessage
	err    *jsonrpc.Error
	done   bool
}

// recorder wraps a transport and keeps every request/response pair.
type recorder struct {
	mcp.Transport

	mu   sync.Mutex
	byID map[any]*exchange
	log  []*exchange
}

func newRecorder(t mcp.Transport) *recorder {
	return &recorder{Transport: t, byID: map[any]*exchange{}}
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r}, nil
}

// mark returns the position of the next exchange, so a caller can take the
// exchanges one SDK call made.
func (r *recorder) mark() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.log)
}

// since returns the answered exchanges for method made after mark m.
func (r *recorder) since(m int, method string) []*exchange {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []*exchange
	for _, e := range r.log[m:] {
		if e.method == method && e.done {
			out = append(out, e)
		}
	}
	return out
}

type recordingConn struct {
	mcp.Connection
	r *recorder
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		e := &exchange{method: req.Method, params: append(json.RawMessage(nil), req.Params...)}
		c.r.mu.Lock()
		c.r.byID[req.ID.Raw()] = e
		c.r.log = append(c.r.log, e)
		c.r.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.r.mu.Lock()
		if e := c.r.byID[resp.ID.Raw()]; e != nil && !e.done {
			e.done = true
			e.result = append(json.RawMessage(nil), resp.Result...)
			if resp.Error != nil {
				var werr *jsonrpc.Error
				if errors.As(resp.Error, &werr) {
					e.err = werr
				} else {
					e.err = &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: resp.Error.Error()}
				}
			}
		}
		c.r.mu.Unlock()
	}
	return msg, err
}
