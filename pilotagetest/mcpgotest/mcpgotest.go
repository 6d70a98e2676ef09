// Package mcpgotest is pilotagetest for a server written with
// mark3labs/mcp-go: the same probe set, rules and subtests, over mcp-go's
// in-process transport.
//
//	func TestPilotage(t *testing.T) {
//		mcpgotest.Run(t, newServer())
//	}
//
// mcp-go runs a handler in the goroutine of the in-process call, where a
// panic is recovered and reported on the probe that triggered it, as
// pilotagetest.Run does for a go-sdk server.
//
// It is a package of its own so that a go-sdk server's tests do not link
// mcp-go.
package mcpgotest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/pilotagetest"
)

// Run checks s as pilotagetest.Run checks a go-sdk server.
func Run(t *testing.T, s *server.MCPServer, opts ...pilotagetest.Option) {
	t.Helper()
	pilotagetest.RunTransport(t, Transport(s), opts...)
}

// Check returns what Run would report, as pilotagetest.Check does.
func Check(ctx context.Context, s *server.MCPServer, opts ...pilotagetest.Option) (*pilotagetest.Report, error) {
	return pilotagetest.Check(ctx, Transport(s), opts...)
}

// Transport is a go-sdk transport to s over the transport behind mcp-go's
// client.NewInProcessClient. The probe needs the messages as the server
// wrote them, which mcp-go's typed client does not keep, so the go-sdk
// client of pilotagetest drives mcp-go's in-process transport directly.
func Transport(s *server.MCPServer) mcp.Transport { return &inProcess{s: s} }

type inProcess struct{ s *server.MCPServer }

func (p *inProcess) Connect(ctx context.Context) (mcp.Connection, error) {
	tr := transport.NewInProcessTransport(p.s)
	if err := tr.Start(ctx); err != nil {
		return nil, err
	}
	return &conn{tr: tr, in: make(chan jsonrpc.Message, 16), done: make(chan struct{})}, nil
}

// conn turns the go-sdk client's writes into calls of the in-process
// transport and queues each answer for Read.
type conn struct {
	tr        *transport.InProcessTransport
	in        chan jsonrpc.Message
	done      chan struct{}
	closeOnce sync.Once
}

func (c *conn) Write(ctx context.Context, msg jsonrpc.Message) error {
	req, ok := msg.(*jsonrpc.Request)
	if !ok {
		// A response to a server-to-client request: the probe's client
		// declares no capability that draws one.
		return nil
	}
	if !req.ID.IsValid() {
		n := mcpgo.JSONRPCNotification{JSONRPC: mcpgo.JSONRPC_VERSION}
		n.Method = req.Method
		if len(req.Params) > 0 {
			if err := json.Unmarshal(req.Params, &n.Params); err != nil {
				return fmt.Errorf("notification %s: %w", req.Method, err)
			}
		}
		return c.tr.SendNotification(ctx, n)
	}
	idJSON, err := json.Marshal(req.ID.Raw())
	if err != nil {
		return err
	}
	var id mcpgo.RequestId
	if err := json.Unmarshal(idJSON, &id); err != nil {
		return err
	}
	r := transport.JSONRPCRequest{JSONRPC: mcpgo.JSONRPC_VERSION, ID: id, Method: req.Method}
	if len(req.Params) > 0 {
		r.Params = req.Params
	}
	go func() {
		out := c.call(ctx, req.ID, r)
		select {
		case c.in <- out:
		case <-c.done:
		}
	}()
	return nil
}

// call runs one request through the server, in this goroutine: the
// handler runs under the call's context, so a call the probe gives up on
// is cancelled in the server too, and a handler's panic is recovered here
// and reported by pilotagetest on the probe that triggered it.
func (c *conn) call(ctx context.Context, id jsonrpc.ID, r transport.JSONRPCRequest) (out jsonrpc.Message) {
	defer func() {
		if v := recover(); v != nil {
			out = &jsonrpc.Response{ID: id, Error: pilotagetest.RecoveredPanic(v)}
		}
	}()
	resp, err := c.tr.SendRequest(ctx, r)
	if err == nil {
		var b []byte
		if b, err = json.Marshal(resp); err == nil {
			out, err = jsonrpc.DecodeMessage(b)
		}
	}
	if err != nil {
		out = &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: err.Error()}}
	}
	return out
}

func (c *conn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-c.in:
		return m, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-c.done:
		return nil, errors.New("connection closed")
	}
}

func (c *conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.done)
		_ = c.tr.Close()
	})
	return nil
}

func (c *conn) SessionID() string { return "" }
