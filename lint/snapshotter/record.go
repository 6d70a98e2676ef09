package snapshotter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

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
	// abandoned is set when the recorder answered the request itself
	// (a server/discover that drew nothing in time); a late real answer
	// is then not recorded.
	abandoned bool
}

// recorder wraps a transport and keeps every request/response pair.
type recorder struct {
	mcp.Transport

	// discoverWait bounds the wait for an answer to server/discover: a
	// server of an older revision may ignore the method instead of
	// refusing it, and the SDK would then wait out the whole --timeout
	// before falling back to initialize. 0 waits as long as the session.
	discoverWait time.Duration

	mu   sync.Mutex
	byID map[any]*exchange
	log  []*exchange
	// heard is set once the server sent anything at all, so a timeout can
	// tell a slow start (a cold npx -y) from a server that stopped.
	heard bool
	// unanswered is the server/discover that drew nothing in time.
	unanswered bool
	// negotiated is the protocolVersion an initialize answer agreed on.
	negotiated string
	// lateDiscover is set when server/discover was answered with a result
	// after the recorder had given up on it: the server speaks the
	// stateless revision and was only slow to start.
	lateDiscover bool
}

// discoverCameLate reports whether server/discover drew a result after the
// discover wait.
func (r *recorder) discoverCameLate() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.lateDiscover
}

// version returns the MCP revision the initialize handshake negotiated,
// or "" before it (and on the stateless revision, whose requests carry
// their own).
func (r *recorder) version() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.negotiated
}

func newRecorder(t mcp.Transport) *recorder {
	return &recorder{Transport: t, byID: map[any]*exchange{}}
}

func (r *recorder) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &recordingConn{Connection: c, r: r, inject: make(chan jsonrpc.Message, 1)}, nil
}

// pending names the method of the latest request still waiting for an
// answer, or "".
func (r *recorder) pending() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.log) - 1; i >= 0; i-- {
		if e := r.log[i]; !e.done && !e.abandoned {
			return e.method
		}
	}
	return ""
}

// state says whether the server sent anything, and whether a
// server/discover went unanswered.
func (r *recorder) state() (heard, unanswered bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.heard, r.unanswered
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

	// Reads go through a pump so that Read can also return the answer
	// the recorder makes up for a server/discover that drew nothing.
	pumpOnce sync.Once
	msgs     chan readResult
	inject   chan jsonrpc.Message
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

func (c *recordingConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		e := &exchange{method: req.Method, params: append(json.RawMessage(nil), req.Params...)}
		c.r.mu.Lock()
		c.r.byID[req.ID.Raw()] = e
		c.r.log = append(c.r.log, e)
		c.r.mu.Unlock()
		if req.Method == "server/discover" && c.r.discoverWait > 0 {
			// Over Streamable HTTP the request is a POST that a server
			// may hold without a word, not even headers, and the SDK's
			// transport writes nothing else until it returns; so the POST
			// is bounded by the discover wait too. The transport reports a
			// cancelled POST as rejected, which fails this call (the SDK
			// then falls back to initialize) and leaves the connection
			// whole; an answer streamed within the wait still arrives.
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, c.r.discoverWait)
			time.AfterFunc(c.r.discoverWait, cancel)
			id := req.ID
			time.AfterFunc(c.r.discoverWait, func() {
				c.r.mu.Lock()
				late := !e.done
				if late {
					e.abandoned, c.r.unanswered = true, true
				}
				c.r.mu.Unlock()
				if late {
					// Any error other than an unsupported version makes
					// the SDK fall back to initialize.
					select {
					case c.inject <- &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: jsonrpc.CodeMethodNotFound,
						Message: fmt.Sprintf("pilotage-lint: no answer to server/discover within %s", c.r.discoverWait)}}:
					default:
					}
				}
			})
		}
	}
	return c.Connection.Write(ctx, msg)
}

func (c *recordingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	c.pumpOnce.Do(func() {
		c.msgs = make(chan readResult, 1)
		go func() {
			for {
				msg, err := c.Connection.Read(ctx)
				c.msgs <- readResult{msg, err}
				if err != nil {
					return
				}
			}
		}()
	})
	var rr readResult
	select {
	case m := <-c.inject:
		return m, nil
	case rr = <-c.msgs:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	msg, err := rr.msg, rr.err
	if err == nil && msg != nil {
		c.r.mu.Lock()
		c.r.heard = true
		c.r.mu.Unlock()
	}
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.r.mu.Lock()
		// An error that is not the wire's *jsonrpc.Error was made up by
		// the SDK's transport (a stream that ended without the answer):
		// the server sent nothing, so nothing is recorded, and the call
		// fails with the SDK's reason.
		var wire *jsonrpc.Error
		synthetic := resp.Error != nil && !errors.As(resp.Error, &wire)
		if e := c.r.byID[resp.ID.Raw()]; e != nil && e.abandoned && e.method == "server/discover" && resp.Error == nil && !synthetic {
			c.r.lateDiscover = true
		} else if e != nil && !e.done && !e.abandoned && !synthetic {
			e.done = true
			e.result = append(json.RawMessage(nil), resp.Result...)
			if e.method == "initialize" && resp.Error == nil {
				var ir struct {
					ProtocolVersion string `json:"protocolVersion"`
				}
				if json.Unmarshal(resp.Result, &ir) == nil {
					c.r.negotiated = ir.ProtocolVersion
				}
			}
			if resp.Error != nil {
				e.err = wire
			}
		}
		c.r.mu.Unlock()
	}
	return msg, err
}
