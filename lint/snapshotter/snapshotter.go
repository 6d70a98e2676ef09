// Package snapshotter is the MCP client side of pilotage-lint: it connects
// to a live server (a command over stdio, or Streamable HTTP) with the official Go SDK, records the surfaces the linter reads,
// and writes them in the snapshot format of the README.
//
// The handshake is the SDK's: go-sdk v1.8.0 implements the stateless
// revision 2026-07-28 (SEP-2575), so by default it first sends
// server/discover and, when the server declines, falls back to initialize
// on 2025-11-25 with the usual version negotiation. Whichever succeeded is
// recorded ("discover" or "initialize"); Options.ProtocolVersion (the
// --protocol-version flag) offers an older revision first, which skips
// server/discover.
//
// The lint engine packages never import this package: linting stays an
// offline operation that links no network code.
package snapshotter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// DefaultTimeout bounds a whole snapshot session.
const DefaultTimeout = 30 * time.Second

// DefaultDiscoverTimeout is the wait for server/discover: an answer
// costs a round trip, so a server silent this long is not going to answer.
const DefaultDiscoverTimeout = 5 * time.Second

// maxPages stops a server whose cursors never end.
const maxPages = 1000

// Call is one tool call to record, as read from a --calls file.
type Call struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// Options say which server to snapshot and how.
type Options struct {
	// Command starts a server that speaks MCP over stdio; Command[0] is the
	// program.
	Command []string
	// Dir is the working directory of Command ("" is the current one).
	Dir string
	// URL is a Streamable HTTP endpoint, http or https, local or hosted;
	// exactly one of Command, URL and Transport is set.
	URL string
	// Transport is a connection to a server already running, such as one
	// end of mcp.NewInMemoryTransports for a server in the same process
	// (see pilotagetest); Take connects it and closes the session, and the
	// caller owns the server.
	Transport mcp.Transport
	// Headers are sent with every HTTP request (authorization, say). They
	// are never written to the snapshot or to a message.
	Headers http.Header
	// Calls are recorded after the manifest, in order.
	Calls []Call
	// Timeout bounds the whole session; 0 means DefaultTimeout.
	Timeout time.Duration
	// DiscoverTimeout bounds the wait for an answer to server/discover
	// before falling back to initialize, for servers that ignore the
	// method instead of refusing it; 0 means DefaultDiscoverTimeout, at
	// most a third of Timeout, and a negative value waits as long as the
	// session.
	DiscoverTimeout time.Duration
	// ProtocolVersion is the MCP revision offered first; "" lets the SDK
	// offer its latest (2026-07-28, through server/discover) and fall back
	// to initialize when the server declines.
	ProtocolVersion string
	// ClientVersion names pilotage-lint's version in the handshake.
	ClientVersion string
	// Probe, when set, sends the probe set after the calls (probe.go).
	Probe *Probing
	// MaxBytes bounds each HTTP response body; 0 means DefaultMaxBytes.
	// Over stdio the MCP SDK bounds each message at the same size.
	MaxBytes int64
}

// DefaultMaxBytes bounds one HTTP response body: the MCP SDK's own bound
// on one stdio message and one server-sent event.
const DefaultMaxBytes = mcp.DefaultMaxLineLength

// Result is a finished snapshot.
type Result struct {
	// JSON is the snapshot document, canonical and ending in a newline.
	JSON []byte
	// Revision is the negotiated MCP revision; Handshake is "initialize" or
	// "server/discover".
	Revision, Handshake string
	Tools, Calls        int
	// Warnings are non-fatal oddities worth telling the user, such as a
	// manifest call answered with isError: true.
	Warnings []string
	// ProbeRunNotes say, per Language, that the --probe-run program never
	// ran and why; they belong at the end of the command's output.
	ProbeRunNotes []string
	// Failures name the probe calls that drew no answer for a transport
	// reason (an answer over the size limit, a server that exited, a
	// dropped connection), and a read of the manifest resource (or the
	// second pilotage_manifest call it asked for) that drew none at all:
	// the snapshot records them, and it is not a success. FailedCalls of
	// them are probe calls, which lint fails.
	Failures    []string
	FailedCalls int
	// RanOut says, when the session's Timeout ended before the snapshot
	// was complete, what it cut short and how many probes it left unsent;
	// "" when it did not. The snapshot records what came before, the call
	// cut short tagged as such, and it is not a success either.
	RanOut string
}

// Error is a failed snapshot: the stage it failed at and why.
type Error struct {
	// Stage is "start", "handshake", "tools/list", "resources/list",
	// "pilotage_manifest" or "calls".
	Stage string
	Err   error
	// Stderr is the tail of the server's standard error, when it has one.
	Stderr string
	// answered is true when the server replied with a JSON-RPC error,
	// which rpc holds.
	answered bool
	rpc      *jsonrpc.Error
}

func (e *Error) Error() string {
	msg := e.Err.Error()
	if e.Stderr != "" {
		msg += "\nserver stderr (last lines):\n" + e.Stderr
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// errDiscoverLate fails a handshake whose server/discover was answered
// only after the discover wait, so that Take can ask again.
var errDiscoverLate = errors.New("server/discover was answered after the discover wait, and the fallback initialize failed")

// Take connects to the server, records its surfaces and returns the
// snapshot. The server process, when there is one, is stopped on every
// path before Take returns.
//
// A server slower to start than the discover wait (go run compiling, a
// cold npx -y) finds server/discover waiting in its pipe and answers it
// late, and then refuses the fallback initialize as a second handshake.
// It speaks the stateless revision, so Take asks once more, within what
// is left of Timeout, and waits for server/discover as long as it takes.
func Take(ctx context.Context, opt Options) (*Result, error) {
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	deadline := time.Now().Add(timeout)
	res, err := take(ctx, opt)
	if errors.Is(err, errDiscoverLate) && opt.Transport == nil && opt.DiscoverTimeout >= 0 {
		if left := time.Until(deadline); left > 0 {
			opt.Timeout, opt.DiscoverTimeout = left, -1
			res, err = take(ctx, opt)
			if res != nil {
				res.Warnings = append(res.Warnings, "the server answered server/discover only after the discover wait (a slow start?), then refused the fallback initialize; it was started again and given the whole --timeout to answer server/discover")
			}
			return res, err
		}
	}
	return res, err
}

func take(ctx context.Context, opt Options) (res *Result, err error) {
	if given(len(opt.Command) > 0, opt.URL != "", opt.Transport != nil) != 1 {
		return nil, &Error{Stage: "start", Err: errors.New("give either a command to start or --url, not both")}
	}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	var transport mcp.Transport
	var rec *recorder
	var stderr *tail
	var proc *process
	var watch *watcher
	if opt.Transport != nil {
		transport = opt.Transport
	} else if opt.URL != "" {
		if err := checkURL(opt.URL); err != nil {
			return nil, &Error{Stage: "start", Err: err}
		}
		u, _ := url.Parse(opt.URL)
		limit := opt.MaxBytes
		if limit <= 0 {
			limit = DefaultMaxBytes
		}
		watch = &watcher{base: http.DefaultTransport, headers: opt.Headers, host: u.Host, maxBody: limit}
		transport = &mcp.StreamableClientTransport{Endpoint: opt.URL, HTTPClient: &http.Client{Transport: watch}, DisableStandaloneSSE: true, MaxRetries: -1}
	} else {
		cmd := exec.Command(opt.Command[0], opt.Command[1:]...)
		cmd.Dir = opt.Dir
		stderr = &tail{max: 4096}
		cmd.Stderr = stderr
		proc = newProcess(cmd)
		transport = &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}
	}
	// Whatever happened, the child must not outlive the snapshot, nor any
	// process it started in its group.
	defer func() {
		if proc != nil {
			proc.stop()
		}
		var e *Error
		if errors.As(err, &e) && stderr != nil {
			e.Stderr = stderr.String()
		}
		if err != nil && errors.As(err, &e) && watch != nil {
			if why := watch.explain(opt.URL); why != nil {
				e.Err = why
			}
		}
		if err != nil && errors.As(err, &e) {
			switch ctx.Err() {
			case context.DeadlineExceeded:
				e.Err = fmt.Errorf("timed out after %s during %s: %w%s", timeout, step(e.Stage, rec), e.Err, timeoutHint(rec, opt.URL == ""))
			case context.Canceled:
				e.Err = fmt.Errorf("interrupted during %s; the server was stopped", e.Stage)
			}
		}
	}()

	rec = newRecorder(transport)
	if watch != nil {
		watch.version = rec.version
	}
	switch rec.discoverWait = opt.DiscoverTimeout; {
	case rec.discoverWait == 0:
		rec.discoverWait = min(DefaultDiscoverTimeout, (timeout / 3).Truncate(time.Millisecond))
	case rec.discoverWait < 0:
		rec.discoverWait = 0
	}
	caps := &mcp.ClientCapabilities{}
	// Part III §1.2: a Client implementing Pilotage declares the extension.
	caps.AddExtension(types.ExtensionID, map[string]any{})
	version := opt.ClientVersion
	if version == "" {
		version = "devel"
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "pilotage-lint", Version: version}, &mcp.ClientOptions{Capabilities: caps})
	cs, cerr := client.Connect(ctx, rec, &mcp.ClientSessionOptions{ProtocolVersion: opt.ProtocolVersion})
	if cerr != nil && rec.discoverCameLate() {
		return nil, &Error{Stage: "handshake", Err: fmt.Errorf("%w: %w", errDiscoverLate, cerr)}
	}
	if cerr != nil {
		hint := ""
		if len(opt.Command) > 0 && ctx.Err() == nil {
			hint = " (did the command start an MCP server on stdio, and did it stay up?)"
		}
		return nil, &Error{Stage: "handshake", Err: fmt.Errorf("the MCP handshake failed%s: %w", hint, cerr)}
	}
	defer cs.Close()

	per := DefaultProbeTimeout
	if opt.Probe != nil && opt.Probe.CallTimeout > 0 {
		per = opt.Probe.CallTimeout
	}
	s := &session{ctx: ctx, cs: cs, rec: rec, stdio: len(opt.Command) > 0, stderr: stderr, watch: watch, per: per}
	res = &Result{}
	doc := objectValue{}

	// The handshake that succeeded is the one recorded: server/discover on
	// the stateless revision, initialize otherwise.
	ir := cs.InitializeResult()
	if ir != nil {
		res.Revision = ir.ProtocolVersion
	}
	if ex := rec.last(0, "initialize"); ex != nil && ex.err == nil {
		res.Handshake = "initialize"
		doc = append(doc, member{"initialize", rawValue(ex.result)})
	} else if ex := rec.last(0, "server/discover"); ex != nil && ex.err == nil {
		res.Handshake = "server/discover"
		doc = append(doc, member{"discover", rawValue(ex.result)})
	}

	tools, err := s.list("tools/list", "tools", func(cursor string) error {
		_, err := cs.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor})
		return err
	})
	var le *Error
	switch {
	case errors.As(err, &le) && le.answered:
		// The server is up and said no: the handshake it answered is
		// still worth linting, and the refusal is recorded where the list
		// belongs, so that lint fails the snapshot (snapshot-list-failed)
		// instead of passing a file that merely has no tools.
		res.Warnings = append(res.Warnings, le.Err.Error()+"; the snapshot records the error instead of tools, and lint fails it")
		doc = append(doc, member{"tools", objectValue{{"error", rawValue(mustJSON(le.rpc))}}})
	case err != nil:
		return nil, err
	default:
		res.Tools = len(tools)
		doc = append(doc, member{"tools", objectValue{{"tools", sortedBy(tools, "name")}}})
	}

	// pilotage_manifest is called only when listed: most MCP servers are
	// not Pilotage servers, and calling a tool a server does not offer
	// records nothing but the server's complaint about it.
	var calls arrayValue
	// manifestResult is what the probe reads the Languages from.
	var manifestResult json.RawMessage
	for _, t := range tools {
		if name, _ := t.Str("name"); name != types.ToolManifest {
			continue
		}
		mex, err := s.call(types.ToolManifest, nil, 0)
		switch {
		case err != nil:
			res.Warnings = append(res.Warnings, err.Error()+"; the snapshot has no manifest")
		case mex.err == nil && manifestLike(mex.result):
			doc = append(doc, member{"manifest", rawValue(mex.result)})
			manifestResult = mex.result
		default:
			// An error, an isError result or a result without
			// structuredContent (plain text where the manifest belongs)
			// is kept as the call it was, for the rules to judge; it is
			// never taken for the manifest.
			calls = append(calls, recordedCall(types.ToolManifest, nil, mex))
			res.Warnings = append(res.Warnings, "pilotage_manifest "+describe(mex)+"; recorded under calls, and the snapshot has no manifest")
		}
		break
	}

	var resources []*source.Node
	if ir != nil && ir.Capabilities != nil && ir.Capabilities.Resources != nil {
		var err error
		resources, err = s.list("resources/list", "resources", func(cursor string) error {
			_, err := cs.ListResources(ctx, &mcp.ListResourcesParams{Cursor: cursor})
			return err
		})
		if err != nil {
			var e *Error
			if errors.As(err, &e) && e.answered {
				res.Warnings = append(res.Warnings, e.Err.Error()+"; the snapshot records the error instead of resources, and lint fails it")
				doc = append(doc, member{"resources", objectValue{{"error", rawValue(mustJSON(e.rpc))}}})
			} else if errors.As(err, &e) && ctx.Err() == nil {
				res.Warnings = append(res.Warnings, "resources/list failed, so the snapshot has no resources: "+e.Err.Error())
			} else {
				return nil, err
			}
		} else {
			doc = append(doc, member{"resources", objectValue{{"resources", sortedBy(resources, "uri")}}})
		}
	}

	// A manifest resource the server advertises is read, so that its
	// contents are judged against the manifest tool's (Part III §8.3).
	if uri := manifestURI(rec, resources); uri != "" && manifestResult != nil {
		doc = append(doc, member{"manifest_resource", s.readManifest(uri, manifestResult, res)})
	}

	for i, c := range opt.Calls {
		ex, err := s.call(c.Name, c.Arguments, 0)
		if err != nil {
			// No answer came back (the server died or hung): there is
			// nothing to record, but what was recorded still stands.
			res.Warnings = append(res.Warnings, fmt.Sprintf("call %d (%s) drew no response, so it is not in the snapshot: %v", i+1, c.Name, err))
			continue
		}
		calls = append(calls, recordedCall(c.Name, c.Arguments, ex))
	}
	if len(calls) > 0 {
		res.Calls = len(calls)
		doc = append(doc, member{"calls", calls})
	}

	if opt.Probe != nil {
		// Probes ask Pilotage questions; a server that shows no sign of
		// Pilotage has nothing to answer, and its "unknown tool" replies
		// would only be misread as defects.
		if manifestResult == nil && !pilotageSignal(ir, tools) {
			res.Warnings = append(res.Warnings, "--probe sent no probe: the server shows no Pilotage signal (tools/list lists no pilotage_manifest, pilotage_get_guide or pilotage_catalog tool and the handshake declares no "+types.ExtensionID+" extension), so it is an ordinary MCP server, which the probes do not judge")
		} else {
			doc = s.probeRun(doc, manifestResult, tools, opt.Probe, res)
		}
	}

	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		res.RanOut = s.ranOut(timeout)
	}

	var b bytes.Buffer
	doc.write(&b, 0)
	b.WriteByte('\n')
	res.JSON = b.Bytes()
	return res, nil
}

// ranOut says what the session's deadline left undone.
func (s *session) ranOut(timeout time.Duration) string {
	msg := fmt.Sprintf("the session ran out of its --timeout of %s before the snapshot was complete", timeout)
	var done []string
	if s.cut != "" {
		done = append(done, "it cut short "+s.cut)
	}
	switch {
	case s.unsent == 1:
		done = append(done, "1 probe was not sent")
	case s.unsent > 1:
		done = append(done, fmt.Sprintf("%d probes were not sent", s.unsent))
	}
	if len(done) > 0 {
		msg += ": " + strings.Join(done, ", and ")
	}
	return msg + "; the snapshot records what came before, and what was cut short is not judged: raise --timeout"
}

// cutShort keeps the first request the session's deadline cut short.
func (s *session) cutShort(what string) {
	if s.cut == "" {
		s.cut = what
	}
}

// pilotageSignal reports whether the live server shows Pilotage: one of
// the exact fixed tool names of Part III §4 in its listing (a French fleet
// server's pilotage_flotte is none), or the extension declared in the
// handshake's capabilities; the lint signal is the same (issue 30 §4).
func pilotageSignal(ir *mcp.InitializeResult, tools []*source.Node) bool {
	for _, t := range tools {
		if n, _ := t.Str("name"); slices.Contains(types.FixedTools, n) {
			return true
		}
	}
	if ir == nil || ir.Capabilities == nil {
		return false
	}
	b, err := json.Marshal(ir.Capabilities)
	return err == nil && (bytes.Contains(b, []byte(`"`+types.ExtensionID+`"`)) || bytes.Contains(b, []byte(`"`+types.LegacyExtensionID+`"`)))
}

// step names the step a timeout struck: the stage, and within the
// handshake the request still waiting.
func step(stage string, rec *recorder) string {
	if rec == nil || stage != "handshake" {
		return stage
	}
	p := rec.pending()
	_, unanswered := rec.state()
	switch {
	case p == "initialize" && unanswered:
		return fmt.Sprintf("the handshake (initialize, tried after server/discover drew no answer within %s)", rec.discoverWait)
	case p != "":
		return "the handshake (" + p + ")"
	}
	return stage
}

// timeoutHint adds advice when the server never said anything: a command
// still starting (npx -y downloads its package on a cold cache) needs a
// longer --timeout, not a fix.
func timeoutHint(rec *recorder, command bool) string {
	if rec == nil {
		return ""
	}
	if heard, _ := rec.state(); heard {
		return ""
	}
	if command {
		return "; the server has not sent anything yet: if it is still starting (a cold npx -y or uvx downloads its package first), raise --timeout"
	}
	return "; the server has not answered anything yet: raise --timeout if it is slow to wake"
}

type session struct {
	ctx context.Context
	cs  *mcp.ClientSession
	rec *recorder
	// stdio and watch say how the server is reached, for the reasons a
	// call fails.
	stdio  bool
	stderr *tail
	watch  *watcher
	// failures name the probe calls that failed for a transport reason;
	// lost is set once the connection is gone, and no probe is sent
	// after it.
	failures     []string
	lost         string
	failedInARow int
	// per bounds each probe call and the read of the manifest resource.
	per time.Duration
	// cut names the request the session's deadline cut short, and unsent
	// counts the probes it left unsent.
	cut    string
	unsent int
}

// list pages through a list method and returns the elements of every page
// as the server sent them.
func (s *session) list(method, member string, fetch func(cursor string) error) ([]*source.Node, error) {
	var all []*source.Node
	seen := map[string]bool{}
	cursor := ""
	for page := 0; ; page++ {
		if page >= maxPages {
			return nil, &Error{Stage: method, Err: fmt.Errorf("%s returned more than %d pages; the server's nextCursor never ends", method, maxPages)}
		}
		m := s.rec.mark()
		ferr := fetch(cursor)
		ex := s.rec.last(m, method)
		if ex == nil {
			if ferr == nil {
				ferr = errors.New("no response recorded")
			}
			return nil, &Error{Stage: method, Err: fmt.Errorf("%s failed: %w", method, ferr)}
		}
		if ex.err != nil {
			return nil, &Error{Stage: method, answered: true, rpc: ex.err, Err: fmt.Errorf("%s failed with JSON-RPC error %d %q", method, ex.err.Code, ex.err.Message)}
		}
		n := source.ParseValue(ex.result)
		if arr := n.Get(member); arr.IsArray() {
			all = append(all, arr.Kids()...)
		}
		next, _ := n.Str("nextCursor")
		if next == "" {
			return all, nil
		}
		if seen[next] {
			return nil, &Error{Stage: method, Err: fmt.Errorf("%s repeated nextCursor %q; stopping instead of looping", method, next)}
		}
		seen[next] = true
		cursor = next
	}
}

// call makes one tools/call, bounded by within when it is not 0, and
// returns the recorded exchange. A JSON-RPC error from the server is a
// recorded exchange, not an error here; an error means nothing came back,
// and says why (see unanswered).
func (s *session) call(name string, args json.RawMessage, within time.Duration) (*exchange, error) {
	var arguments any = map[string]any{}
	if len(bytes.TrimSpace(args)) > 0 && string(bytes.TrimSpace(args)) != "null" {
		arguments = args
	}
	ctx, cancel := s.ctx, context.CancelFunc(func() {})
	if within > 0 {
		ctx, cancel = context.WithTimeout(s.ctx, within)
	}
	defer cancel()
	m := s.rec.mark()
	_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: arguments})
	ex := s.rec.last(m, "tools/call")
	if ex == nil {
		return nil, fmt.Errorf("tools/call %s failed: %w", name, s.unanswered(ctx, within, "tools/call "+name, err))
	}
	return ex, nil
}

// errSessionOver is why a request the session's --timeout cut short drew
// no answer.
var errSessionOver = errors.New("the session ran out of its --timeout first")

// unanswered says why a request bounded by ctx (a child of the session's,
// with its own bound within, or 0) drew no answer, err being what the SDK
// returned: the session's --timeout (errSessionOver; what is noted as cut
// short), the request's own bound, or a transport failure. A lost
// connection ends the probe.
func (s *session) unanswered(ctx context.Context, within time.Duration, what string, err error) error {
	switch {
	case s.ctx.Err() != nil:
		if errors.Is(s.ctx.Err(), context.DeadlineExceeded) {
			s.cutShort(what)
		}
		return errSessionOver
	case within > 0 && ctx.Err() != nil:
		return fmt.Errorf("no answer within %d ms", within.Milliseconds())
	}
	why, lost := s.transportFailure(err)
	if lost && s.lost == "" {
		s.lost = "the connection to the server was lost (" + why + ")"
	}
	return errors.New(why)
}

// recordedCall is one calls entry: the call and what it drew, a JSON-RPC
// error or a result, as the server sent it.
func recordedCall(name string, arguments json.RawMessage, ex *exchange) objectValue {
	args := rawValue(arguments)
	if len(bytes.TrimSpace(arguments)) == 0 {
		args = rawValue("{}")
	}
	call := objectValue{{"name", rawValue(mustJSON(name))}, {"arguments", args}}
	if ex.err != nil {
		return append(call, member{"error", rawValue(mustJSON(ex.err))})
	}
	return append(call, member{"result", rawValue(ex.result)})
}

// manifestLike reports whether a pilotage_manifest result carries a
// manifest: structured content, not an error.
func manifestLike(result json.RawMessage) bool {
	n := source.ParseValue(result)
	isErr := n.Get("isError")
	return n.Get("structuredContent").IsObject() && !(isErr.IsBool() && isErr.Truth())
}

// describe says in a few words what a call drew that is not a manifest.
func describe(ex *exchange) string {
	if ex.err != nil {
		return fmt.Sprintf("drew JSON-RPC error %d %q", ex.err.Code, ex.err.Message)
	}
	n := source.ParseValue(ex.result)
	if isErr := n.Get("isError"); isErr.IsBool() && isErr.Truth() {
		return "returned isError: true"
	}
	return "returned no structuredContent (only text content)"
}

// last returns the last answered exchange for method after mark m.
func (r *recorder) last(m int, method string) *exchange {
	ex := r.since(m, method)
	if len(ex) == 0 {
		return nil
	}
	return ex[len(ex)-1]
}

func mustJSON(v any) json.RawMessage {
	if e, ok := v.(*jsonrpc.Error); ok {
		// The wire form, with data only when the server sent some.
		type wire struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data,omitempty"`
		}
		v = wire{e.Code, e.Message, e.Data}
	}
	b, _ := json.Marshal(v)
	return b
}

// tail keeps the last max bytes written to it.
type tail struct {
	mu  sync.Mutex
	max int
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > t.max {
		t.buf = t.buf[len(t.buf)-t.max:]
	}
	return len(p), nil
}

// settled returns the text once it has stopped growing for a moment, or
// after d: the child's last words reach the tail through exec's copying
// goroutine, which may lag the EOF on its standard output, so a failure
// read at once could miss why the server exited. Called only on the path
// that ends a probe, so the wait is paid once.
func (t *tail) settled(d time.Duration) string {
	deadline := time.Now().Add(d)
	prev := t.String()
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		cur := t.String()
		if cur != "" && cur == prev {
			return cur
		}
		prev = cur
	}
	return prev
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimRight(string(t.buf), "\n")
}
