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
// and a failure names, at the line of the author's test that called Run,
// its vector, its probe, the rule, the spec sentence, and the request and
// response behind it, each cut around the member the finding points at.
//
// The probes alone never run the author's program: they send requests a
// correct server refuses or answers without side effects. The success
// path (a Run that succeeds, its outcome and its trace) is judged when the
// test asks for it: ProbeRun test-runs a program where the Language
// declares execute.test_run, RunImmediate runs it for real where the
// Language has no test run (the server under test is a test instance), and
// Calls records calls of the author's own, judged as `pilotage-lint
// snapshot --calls` judges them. A Language whose success path none of
// them reached is a skipped subtest, success-path/LANGUAGE, with the
// reason.
//
// Run takes a go-sdk *mcp.Server and talks to it over the SDK's in-memory
// transport; RunTransport takes any mcp.Transport and RunCommand a command
// that serves MCP on stdio, for servers written in other languages. The
// subpackage mcpgotest does the same for a mark3labs/mcp-go server.
//
// A session holds to its Timeout whatever the server does: a handler that
// blocks and ignores its context is abandoned, and the test fails naming
// the probe that waited for it. Over Run and mcpgotest a handler's panic
// is recovered, answered as a JSON-RPC internal error, and reported on
// the probe or call that triggered it, with its stack.
//
// The package is for tests: the pilotage-lint binary does not link it.
package pilotagetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
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
	immediate   bool
	calls       []Call
	snapshot    string
	callTimeout time.Duration
	timeout     time.Duration
}

// FailOn sets the least severity that fails the test; the default is
// Error, as for pilotage-lint. Findings below it are logged (go test -v).
func FailOn(s Severity) Option { return func(c *config) { c.failOn = s } }

// Disable turns rules off by ID, as --disable does, and with each rule the
// probe-expectation verdict on the probe calls where it reports: one
// defect, one switch. probe-expectation judges a probe's answer only where
// no specific rule explains it; a rule that is off still explains its
// probe (lint.Options.From), so Disable("call-store-unsupported")
// silences both findings of an ignored store flag, as --disable does.
// Disable("probe-expectation") turns off only the generic verdict.
func Disable(ids ...string) Option {
	return func(c *config) { c.sel.Disable = append(c.sel.Disable, ids...) }
}

// Regrade gives a rule another severity, as --severity ID=LEVEL does. Like
// Disable, it covers the probe-expectation verdict the rule explains: a
// defect regraded to a warning fails no probe through the generic verdict.
func Regrade(id string, s Severity) Option {
	return func(c *config) {
		if c.sel.Severity == nil {
			c.sel.Severity = map[string]Severity{}
		}
		c.sel.Severity[id] = s
	}
}

// ProbeRun is the valid program of --probe-run. It is test-run, with
// test_run: true, only on a Language that declares execute.test_run; on a
// Language without a test run it runs only with RunImmediate. It is sent
// to every Language, so a server of several Languages refuses it where it
// does not parse, and success-path/LANGUAGE says so.
func ProbeRun(program json.RawMessage) Option {
	return func(c *config) { c.program = program }
}

// RunImmediate runs ProbeRun's program for real on every Language that
// declares execute but no execute.test_run, with execution "immediate"
// (no mode) or "both" (mode "immediate"): the run probes that test-run it
// elsewhere run it for real there, so its successful Run, its outcome,
// its inline trace and, where the Language retains runs, the fetch door
// are judged. Inside go test the server is a test instance: the run may
// change it, which is why this is a choice of the test and never a
// default. It needs ProbeRun.
func RunImmediate() Option { return func(c *config) { c.immediate = true } }

// Call is one tool call of Calls: the tool's name and its arguments (a
// JSON object), an entry of the file `pilotage-lint snapshot --calls`
// reads.
type Call = snapshotter.Call

// Calls records calls of the test's own after the manifest and before the
// probes, as `pilotage-lint snapshot --calls` does, and judges the whole
// recording with every rule, as pilotage-lint judges that snapshot: a
// successful execute of the author's program, a trace fetch of its Run,
// a catalog page. Each call is a subtest, calls/N-TOOL, holding the
// findings on it.
func Calls(calls ...Call) Option {
	return func(c *config) { c.calls = append(c.calls, calls...) }
}

// WriteSnapshot writes the recording to path (creating its directory), so
// that the same snapshot can be committed, diffed and linted by
// pilotage-lint; findings then point at lines of that file.
func WriteSnapshot(path string) Option { return func(c *config) { c.snapshot = path } }

// CallTimeout bounds each probe call; a call that outlives it fails its
// probe. The default is snapshotter.DefaultProbeTimeout.
func CallTimeout(d time.Duration) Option { return func(c *config) { c.callTimeout = d } }

// Timeout bounds the whole session, whatever the server does: when it
// passes, the session is abandoned and the test fails, naming the probe
// that was waiting. The default is snapshotter.DefaultTimeout.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Run checks server over the go-sdk's in-memory transport. The server is
// connected for the check and the session closed after it, or abandoned
// when a handler still holds it. A handler's panic during the check is
// recovered and reported on the probe or call that triggered it (Run adds
// a receiving middleware to server that does so for its own sessions
// only).
func Run(t *testing.T, server *mcp.Server, opts ...Option) {
	t.Helper()
	rep, err := checkServer(context.Background(), server, opts)
	if err != nil {
		t.Fatalf("pilotagetest: %v", err)
	}
	rep.report(t)
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
	// when no probe call was recorded. Run logs it on the test that
	// called Run: go test -v shows it, and so does a failing test.
	Coverage *probe.Coverage
}

// A Case is one subtest: a probe; "surfaces" for the findings on what the
// server lists rather than answers (handshake, tools, manifest,
// resources); "calls/N-TOOL" for a call of Calls; or
// "success-path/LANGUAGE", which says what judged a Language's successful
// Run, or is skipped with the reason nothing did.
type Case struct {
	// Name is the subtest's path below the test Run was given:
	// "VECTOR/probe" for a probe an official vector covers, the probe's
	// name otherwise, "surfaces", "calls/N-TOOL" or "success-path/LANGUAGE".
	Name string
	// Vector and Probe name the vector and probe; "" for the other cases.
	Vector, Probe string
	// Call is the 1-based index in Calls of the call the case holds; 0
	// for the other cases.
	Call int
	// Skipped says why the case judged nothing: a probe that sent nothing
	// because it did not apply to any Language of the server, or a
	// Language whose success path no run reached.
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

// report runs the subtests: one per vector, in the order of its first
// probe, holding one per probe it covers; one per probe no vector covers;
// one per call of Calls; one per Language's success path; and
// "surfaces". Every function on the way is a helper, so that a failure
// names the line of the author's test that called Run.
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
			t.Helper()
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
