// Package pilotagetest checks a Pilotage server inside `go test`, the way
// testing/fstest.TestFS checks an fs.FS: one call sends the probe set of
// `pilotage-lint snapshot --probe` to the server, lints the recording with
// the full rule table of `pilotage-lint`, and reports each finding at or
// above a chosen severity through t.Errorf, in the subtest of the official
// conformance vector (or probe) behind it:
//
//	func TestPilotage(t *testing.T) {
//		pilotagetest.Run(t, newServer())
//	}
//
// `go test -run 'Pilotage/PIL-EXECUTE'` then runs the execute vectors only,
// and a failure names its vector, its probe, the rule, the spec sentence,
// and the request and response behind it.
//
// Run takes a go-sdk *mcp.Server and talks to it over the SDK's in-memory
// transport; RunTransport takes any mcp.Transport and RunCommand a command
// that serves MCP on stdio, for servers written in other languages. The
// subpackage mcpgotest does the same for a mark3labs/mcp-go server.
//
// The package is for tests: the pilotage-lint binary does not link it.
package pilotagetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// Severity grades a finding; the three are those of pilotage-lint.
type Severity = lint.Severity

// The severities, from least to most severe.
const (
	Info    = lint.Info
	Warning = lint.Warning
	Error   = lint.Error
)

// An Option changes how Run checks a server.
type Option func(*config)

type config struct {
	failOn      Severity
	sel         lint.Selection
	program     json.RawMessage
	snapshot    string
	callTimeout time.Duration
	timeout     time.Duration
}

// FailOn sets the least severity that fails the test; the default is
// Error, as for pilotage-lint. Findings below it are logged (go test -v).
func FailOn(s Severity) Option { return func(c *config) { c.failOn = s } }

// Disable turns rules off by ID, as --disable does.
func Disable(ids ...string) Option {
	return func(c *config) { c.sel.Disable = append(c.sel.Disable, ids...) }
}

// Regrade gives a rule another severity, as --severity ID=LEVEL does.
func Regrade(id string, s Severity) Option {
	return func(c *config) {
		if c.sel.Severity == nil {
			c.sel.Severity = map[string]Severity{}
		}
		c.sel.Severity[id] = s
	}
}

// ProbeRun is the valid program of --probe-run: it is test-run, with
// test_run: true, on each Language that declares execute.test_run.
func ProbeRun(program json.RawMessage) Option {
	return func(c *config) { c.program = program }
}

// WriteSnapshot writes the recording to path (creating its directory), so
// that the same snapshot can be committed, diffed and linted by
// pilotage-lint; findings then point at lines of that file.
func WriteSnapshot(path string) Option { return func(c *config) { c.snapshot = path } }

// CallTimeout bounds each probe call; a call that outlives it fails its
// probe. The default is snapshotter.DefaultProbeTimeout.
func CallTimeout(d time.Duration) Option { return func(c *config) { c.callTimeout = d } }

// Timeout bounds the whole session; the default is
// snapshotter.DefaultTimeout.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Run checks server over the go-sdk's in-memory transport. The server is
// connected for the check and the session closed after it.
func Run(t *testing.T, server *mcp.Server, opts ...Option) {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatalf("pilotagetest: the server did not accept the in-memory connection: %v", err)
	}
	defer ss.Close()
	RunTransport(t, ct, opts...)
}

// RunCommand checks a server that command (the program and its arguments)
// starts and that speaks MCP on stdio, as `pilotage-lint snapshot --probe
// -- command...` does; the process is stopped before RunCommand returns.
func RunCommand(t *testing.T, command []string, opts ...Option) {
	t.Helper()
	if len(command) == 0 {
		t.Fatal("pilotagetest: RunCommand needs a command")
	}
	run(t, snapshotter.Options{Command: command}, opts)
}

// RunTransport checks the server at the other end of transport.
func RunTransport(t *testing.T, transport mcp.Transport, opts ...Option) {
	t.Helper()
	run(t, snapshotter.Options{Transport: transport}, opts)
}

func run(t *testing.T, so snapshotter.Options, opts []Option) {
	t.Helper()
	rep, err := check(context.Background(), so, opts)
	if err != nil {
		t.Fatalf("pilotagetest: %v", err)
	}
	rep.report(t)
}

// Check probes and lints the server at the other end of transport, as Run
// does, and returns what it found instead of reporting it to a test: for
// a harness of one's own, or a TestMain that gates on the result.
func Check(ctx context.Context, transport mcp.Transport, opts ...Option) (*Report, error) {
	return check(ctx, snapshotter.Options{Transport: transport}, opts)
}

// A Report is what one check found, case by case.
type Report struct {
	// Notes are what the recording warned about, such as a probe that
	// could not run; they fail nothing.
	Notes []string
	// Failures fail the server as a whole.
	Failures []string
	// Cases are the subtests Run runs, in order.
	Cases []*Case
	// Coverage is the probe coverage against the official vectors, from
	// the function behind pilotage-lint's text, JSON and HTML reports
	// (report.Coverage), so every surface shows the same figures; nil
	// when no probe call was recorded.
	Coverage *probe.Coverage
}

// A Case is one subtest: a probe, or "surfaces" for the findings on what
// the server lists rather than answers (handshake, tools, manifest,
// resources).
type Case struct {
	// Name is the subtest's path below the test Run was given:
	// "VECTOR/probe" for a probe an official vector covers, the probe's
	// name otherwise, or "surfaces".
	Name string
	// Vector and Probe name the vector and probe; "" for surfaces.
	Vector, Probe string
	// Skipped says why the probe sent nothing to any Language of the
	// server, per Language, as the recording gives it (Coverage.NotSentWhy).
	Skipped string
	// Failures are the findings at or above the FailOn severity, Logs
	// the others.
	Failures, Logs []string
}

// Failed returns the names of the failing cases, with "" first when the
// server fails as a whole.
func (r *Report) Failed() []string {
	var out []string
	if len(r.Failures) > 0 {
		out = append(out, "")
	}
	for _, c := range r.Cases {
		if len(c.Failures) > 0 {
			out = append(out, c.Name)
		}
	}
	return out
}

// surfaces names the case of findings outside the probe calls.
const surfaces = "surfaces"

func check(ctx context.Context, so snapshotter.Options, opts []Option) (*Report, error) {
	c := config{failOn: Error}
	for _, o := range opts {
		o(&c)
	}
	ruleSet, err := lint.Select(rules.Lint(), c.sel)
	if err != nil {
		return nil, err
	}
	timeout := c.timeout
	if timeout <= 0 {
		timeout = snapshotter.DefaultTimeout
	}
	so.Probe = &snapshotter.Probing{Run: c.program, CallTimeout: c.callTimeout}
	so.Timeout = timeout
	so.ClientVersion = "pilotagetest"
	// The session's own deadline, seen from here: when it passes, the
	// probes after that point were never sent, and a pass would vouch for
	// what was not checked.
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	res, err := snapshotter.Take(sctx, so)
	if err != nil {
		return nil, fmt.Errorf("recording the server failed: %w", err)
	}
	sessionOver := sctx.Err() != nil
	name := "pilotage.snapshot.json"
	if c.snapshot != "" {
		name = c.snapshot
		if err := os.MkdirAll(filepath.Dir(c.snapshot), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(c.snapshot, res.JSON, 0o644); err != nil {
			return nil, err
		}
	}
	lr, err := lint.Run(ctx, []lint.Input{{Name: name, Data: res.JSON, Explicit: true}}, &lint.Options{Rules: ruleSet})
	if err != nil {
		return nil, err
	}
	rep := &Report{}
	for _, w := range res.Warnings {
		rep.Notes = append(rep.Notes, "snapshot: "+w)
	}
	if sessionOver {
		rep.Failures = append(rep.Failures, fmt.Sprintf("the session ran out of its %s before the probe finished, so the probes after that point were not sent; raise it with Timeout, or find the call that hung", timeout))
	}
	byID := map[string]*lint.Rule{}
	for _, r := range ruleSet {
		byID[r.ID] = r
	}
	var calls []lint.ProbeCall
	for _, fi := range lr.Files {
		if fi.NoPilotage {
			// Fail closed: a Pilotage test of a server that shows no
			// Pilotage at all must not pass in silence.
			rep.Failures = append(rep.Failures, "the server shows no Pilotage signal, so no rule judged it")
		}
		calls = append(calls, fi.Probes...)
	}

	rep.Coverage = report.Coverage(lr, report.ProbesOf(lr))
	cases := map[string]*Case{surfaces: {Name: surfaces}}
	rep.Cases = append(rep.Cases, cases[surfaces])
	for _, p := range append(slices.Clone(probe.Set), probe.UnknownTool) {
		pc := &Case{Name: p.Name, Vector: p.Vector, Probe: p.Name, Skipped: "not sent, for no reason the recording gives"}
		if rep.Coverage != nil {
			if why := rep.Coverage.NotSentWhy(p.Name); why != "" {
				pc.Skipped = "not sent: " + why
			}
		}
		if p.Vector != "" {
			pc.Name = p.Vector + "/" + p.Name
		}
		rep.Cases = append(rep.Cases, pc)
		cases[p.Name] = pc
	}
	for _, pc := range calls {
		if c := cases[pc.Name]; c != nil {
			c.Skipped = ""
		}
	}

	for _, f := range lr.Findings {
		call := callAt(calls, f.Pointer)
		pc := cases[surfaces]
		if call != nil && cases[call.Name] != nil {
			pc = cases[call.Name]
		}
		msg := describe(f, byID[f.Rule], call)
		if c.snapshot == "" {
			msg += " (in memory; WriteSnapshot keeps the recording)"
		}
		if f.Severity >= c.failOn {
			pc.Failures = append(pc.Failures, msg)
		} else {
			pc.Logs = append(pc.Logs, msg)
		}
	}
	return rep, nil
}

// callAt returns the probe call that holds pointer, or nil.
func callAt(calls []lint.ProbeCall, pointer string) *lint.ProbeCall {
	at := probe.CallOf(pointer)
	for i := range calls {
		if at != "" && calls[i].Pointer == at {
			return &calls[i]
		}
	}
	return nil
}

// maxShown caps the request and response bytes a message shows; the
// snapshot (WriteSnapshot) holds them whole.
const maxShown = 2000

// describe says what a finding found, on which probe and Language, which
// spec sentence decides it, and the exchange behind it.
func describe(f lint.Finding, r *lint.Rule, call *lint.ProbeCall) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s\n", f.Severity, f.Rule, f.Message)
	quote := ""
	if r != nil {
		quote = r.Quote
	}
	var p *probe.Probe
	if call != nil {
		p = probe.ByName(call.Name)
	}
	// The probe's sentence is the one that decides its answer; the rule's
	// own is the general one behind every probe.
	if p != nil && (quote == "" || f.Rule == "probe-expectation") {
		fmt.Fprintf(&b, "    spec: %s: %q\n", p.Spec, p.Quote)
	} else if quote != "" {
		fmt.Fprintf(&b, "    spec: %s: %q\n", f.Spec, quote)
	} else if f.Spec != "" {
		fmt.Fprintf(&b, "    spec: %s\n", f.Spec)
	}
	if call != nil {
		probeLine := call.Name
		if p != nil {
			probeLine = p.Label()
		}
		if call.Language != "" {
			probeLine += ", Language " + call.Language
		}
		if p != nil {
			probeLine += " (" + p.Spec + ")"
		}
		fmt.Fprintf(&b, "    probe: %s\n", probeLine)
		fmt.Fprintf(&b, "    request: tools/call %s %s\n", call.Tool, shown(call.Arguments))
		if call.AnswerKind == "timeout" {
			b.WriteString("    response: none before the call timeout\n")
		} else {
			fmt.Fprintf(&b, "    response (%s): %s\n", call.AnswerKind, shown(call.Answer))
		}
	}
	fmt.Fprintf(&b, "    at: %s:%d:%d %s", f.File, f.Line, f.Column, f.Pointer)
	return b.String()
}

// shown is raw JSON on one line, cut at maxShown bytes.
func shown(raw []byte) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		b.Reset()
		b.Write(raw)
	}
	s := b.String()
	if len(s) > maxShown {
		s = fmt.Sprintf("%s… (%d bytes in all)", s[:maxShown], len(s))
	}
	return s
}

// report runs the subtests: one per vector, in the order of its first
// probe, holding one per probe it covers; one per probe no vector covers;
// and "surfaces".
func (rep *Report) report(t *testing.T) {
	t.Helper()
	for _, l := range rep.Notes {
		t.Log(l)
	}
	if rep.Coverage != nil {
		t.Log(rep.Coverage)
	}
	for _, e := range rep.Failures {
		t.Error(e)
	}
	done := map[string]bool{}
	for _, c := range rep.Cases {
		if c.Vector == "" {
			t.Run(c.Name, c.report)
			continue
		}
		if done[c.Vector] {
			continue
		}
		done[c.Vector] = true
		t.Run(c.Vector, func(t *testing.T) {
			for _, pc := range rep.Cases {
				if pc.Vector == c.Vector {
					t.Run(pc.Probe, pc.report)
				}
			}
		})
	}
}

func (c *Case) report(t *testing.T) {
	t.Helper()
	for _, l := range c.Logs {
		t.Log(l)
	}
	for _, e := range c.Failures {
		t.Error(e)
	}
	if c.Skipped != "" && len(c.Failures) == 0 {
		t.Skip(c.Skipped)
	}
}
