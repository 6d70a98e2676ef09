package pilotagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// closeWait is how long a finished check waits for the server session to
// close before abandoning it: closing waits for every handler, and one
// that ignores its context never returns.
const closeWait = 200 * time.Millisecond

// checkServer checks a go-sdk server over the in-memory transport, with
// its handlers' panics recovered, and never waits for a stuck handler.
func checkServer(ctx context.Context, server *mcp.Server, opts []Option) (*Report, error) {
	guard(server)
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		return nil, fmt.Errorf("the server did not accept the in-memory connection: %v", err)
	}
	ours.Store(ss, true)
	rep, err := check(ctx, snapshotter.Options{Transport: ct}, opts)
	closed := make(chan struct{})
	go func() {
		_ = ss.Close()
		ours.Delete(ss)
		close(closed)
	}()
	select {
	case <-closed:
	case <-time.After(closeWait):
		if rep != nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the server session did not close within %s, because a handler is still running and ignores its context; it was abandoned", closeWait))
		}
	}
	return rep, err
}

// ours holds the server sessions of running checks: the panic guard
// recovers only their handlers, and leaves a server's other sessions as
// they were.
var ours sync.Map

// guarded holds the servers that have the panic guard.
var guarded sync.Map

// guard adds, once per server, a receiving middleware that recovers a
// handler's panic in a session of a check and answers the request with
// the JSON-RPC error of RecoveredPanic.
func guard(s *mcp.Server) {
	if _, done := guarded.LoadOrStore(s, true); done {
		return
	}
	s.AddReceivingMiddleware(recoverChecked)
}

// recoverChecked is the guard's middleware.
func recoverChecked(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (res mcp.Result, err error) {
		if ss, _ := req.GetSession().(*mcp.ServerSession); ss == nil {
			return next(ctx, method, req)
		} else if _, checked := ours.Load(ss); !checked {
			return next(ctx, method, req)
		}
		defer func() {
			if v := recover(); v != nil {
				res, err = nil, RecoveredPanic(v)
			}
		}()
		return next(ctx, method, req)
	}
}

// panics are the recovered panics, by number.
var panics struct {
	sync.Mutex
	list []recovered
}

type recovered struct {
	value string
	stack string
}

// panicPrefix opens the message of the JSON-RPC error that answers a
// request whose handler panicked; the number after it finds the panic.
const panicPrefix = "pilotagetest: the handler panicked (#"

var panicMessage = regexp.MustCompile(`^pilotagetest: the handler panicked \(#(\d+)\)`)

// RecoveredPanic records a handler's panic, recovered with recover() by
// the goroutine that ran the handler, and returns the JSON-RPC internal
// error to answer the request with. Check then reports the panic, with
// its stack, on the probe or call that drew that answer. Run and
// mcpgotest recover panics this way; a transport of one's own
// (RunTransport) can do the same.
func RecoveredPanic(v any) *jsonrpc.Error {
	stack := string(debug.Stack())
	panics.Lock()
	panics.list = append(panics.list, recovered{fmt.Sprint(v), stack})
	n := len(panics.list)
	panics.Unlock()
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: fmt.Sprintf("%s%d): %v", panicPrefix, n, v)}
}

type panicCall struct {
	call *recordedCall
	msg  string
}

// panicked finds the recorded calls answered by RecoveredPanic.
func panicked(calls []recordedCall) []panicCall {
	var out []panicCall
	for i := range calls {
		c := &calls[i]
		var e struct {
			Message string `json:"message"`
		}
		if c.Error == nil || json.Unmarshal(c.Error, &e) != nil {
			continue
		}
		m := panicMessage.FindStringSubmatch(e.Message)
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		panics.Lock()
		var r recovered
		if n >= 1 && n <= len(panics.list) {
			r = panics.list[n-1]
		}
		panics.Unlock()
		who := "tools/call " + c.Tool
		if p := probe.ByName(c.probeName()); p != nil {
			who = "probe " + p.Label()
			if c.Probe.Language != "" {
				who += " on " + c.Probe.Language
			}
			who += " (tools/call " + c.Tool + ")"
		} else if c.user > 0 {
			who = fmt.Sprintf("call %d of Calls (tools/call %s)", c.user, c.Tool)
		}
		out = append(out, panicCall{c, fmt.Sprintf("the handler panicked on %s: %s; the request was answered with a JSON-RPC internal error\n    arguments: %s\n    panic stack:\n%s",
			who, r.value, compact(c.Arguments), indent(handlerFrames(r.stack), "        "))})
	}
	return out
}

// handlerFrames keeps the frames of a panic stack from the panic to the
// SDK's dispatch: the handler's own, without the recovery machinery.
func handlerFrames(stack string) string {
	lines := strings.Split(strings.TrimRight(stack, "\n"), "\n")
	start := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "panic(") {
			start = i
			break
		}
	}
	var out []string
	for _, l := range lines[start:] {
		if strings.Contains(l, "github.com/modelcontextprotocol/go-sdk/mcp.") || strings.Contains(l, "github.com/mark3labs/mcp-go/") {
			break
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

func indent(s, by string) string {
	return by + strings.ReplaceAll(s, "\n", "\n"+by)
}

// watcher is a transport that knows which request is waiting for its
// answer, to name it when a session has to be abandoned.
type watcher struct {
	mcp.Transport
	mu      sync.Mutex
	pending map[string]string
	order   []string
}

func (w *watcher) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := w.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &watchedConn{Connection: c, w: w}, nil
}

// waiting names the latest request still waiting, as ": REQUEST was
// waiting for its answer", or "".
func (w *watcher) waiting() string {
	if w == nil {
		return ""
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.order) - 1; i >= 0; i-- {
		if d, ok := w.pending[w.order[i]]; ok {
			return ": " + d + " was waiting for its answer"
		}
	}
	return ""
}

type watchedConn struct {
	mcp.Connection
	w *watcher
}

func (c *watchedConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if req, ok := msg.(*jsonrpc.Request); ok && req.ID.IsValid() {
		d := req.Method
		if req.Method == "tools/call" {
			var p struct {
				Name      string          `json:"name"`
				Arguments json.RawMessage `json:"arguments"`
			}
			_ = json.Unmarshal(req.Params, &p)
			d = "tools/call " + p.Name + " " + compact(p.Arguments)
		}
		id := fmt.Sprint(req.ID.Raw())
		c.w.mu.Lock()
		if c.w.pending == nil {
			c.w.pending = map[string]string{}
		}
		c.w.pending[id] = d
		c.w.order = append(c.w.order, id)
		c.w.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

func (c *watchedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if resp, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.w.mu.Lock()
		delete(c.w.pending, fmt.Sprint(resp.ID.Raw()))
		c.w.mu.Unlock()
	}
	return msg, err
}
