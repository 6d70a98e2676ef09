package pilotagetest

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/pilotagetest/internal/flowserver"
)

// rulesOf lists the rule IDs of a case's failures, sorted, one per
// finding.
func rulesOf(c *Case) []string {
	var out []string
	for _, f := range c.Failures {
		if m := regexp.MustCompile(`^(?:error|warning|info) (\S+):`).FindStringSubmatch(f); m != nil {
			out = append(out, m[1])
		}
	}
	slices.Sort(out)
	return out
}

func caseNamed(rep *Report, name string) *Case {
	for _, c := range rep.Cases {
		if c.Name == name || c.Probe == name {
			return c
		}
	}
	return nil
}

var (
	flowProgram = json.RawMessage(flowserver.Program)
	flowRun     = Call{Name: "run_flow", Arguments: json.RawMessage(flowserver.Run)}
)

// TestRunImmediate: on a Language without a test run, RunImmediate runs
// the program for real, the run probes judge those Runs, and a
// conformant server passes.
func TestRunImmediate(t *testing.T) {
	rep := inProcess(t, flowserver.New(), ProbeRun(flowProgram), RunImmediate())
	if f := failing(rep); len(f) > 0 {
		t.Fatalf("the conformant toyflow/1 server fails a real run: %v\n%s", f, strings.Join(caseNamed(rep, f[0]).Failures, "\n"))
	}
	for _, p := range []string{"validate-program", "execute-test-run", "execute-test-run-summary", "execute-test-run-none", "validate-program-again"} {
		if c := caseNamed(rep, p); c == nil || c.Skipped != "" {
			t.Errorf("probe %s did not run: %+v", p, c)
		}
	}
	path := successCases(rep)["toyflow/1"]
	if path == nil || path.Skipped != "" || !strings.Contains(strings.Join(path.Logs, ""), "real run (RunImmediate)") {
		t.Errorf("success-path/toyflow/1: %+v", path)
	}
}

// TestBrokenSuccessPath: a server whose successful Runs are broken (status
// "done", error "" on success, no step input at trace level full) passes
// the probes alone, as issue 33 found, with its success path skipped and
// the reason given; RunImmediate and Calls each turn it red with the
// findings of the broken members.
func TestBrokenSuccessPath(t *testing.T) {
	alone := inProcess(t, flowserver.BrokenRuns())
	if f := failing(alone); len(f) > 0 {
		t.Fatalf("the probes alone fail it: %v", f)
	}
	if s := successCases(alone)["toyflow/1"].Skipped; !strings.Contains(s, "no successful Run of toyflow/1 was judged") {
		t.Errorf("success-path/toyflow/1 is not skipped with its reason: %q", s)
	}

	// "done" is also a status the Language's closed-sets guide does not list.
	full := []string{"call-closed-set-unlisted", "call-success-status", "result-outcome-error", "shape-result", "shape-result"}
	noInput := []string{"call-success-status", "result-outcome-error"}
	real := inProcess(t, flowserver.BrokenRuns(), ProbeRun(flowProgram), RunImmediate())
	want := map[string][]string{"execute-test-run": full, "execute-test-run-summary": noInput, "execute-test-run-none": noInput}
	if f := failing(real); !slices.Equal(f, []string{"execute-test-run", "execute-test-run-none", "execute-test-run-summary"}) {
		t.Errorf("with RunImmediate, failing %v", f)
	}
	for p, rules := range want {
		if got := rulesOf(caseNamed(real, p)); !slices.Equal(got, rules) {
			t.Errorf("with RunImmediate, %s: rules %v, want %v", p, got, rules)
		}
	}
	// The finding names the real run, and points at the broken member.
	msg := strings.Join(caseNamed(real, "execute-test-run").Failures, "\n")
	for _, s := range []string{"run for real (RunImmediate)", "/result/structuredContent/outcome/status", "/result/structuredContent/outcome/error", "/result/structuredContent/trace/steps/0"} {
		if !strings.Contains(msg, s) {
			t.Errorf("the execute-test-run failures lack %q:\n%s", s, msg)
		}
	}

	calls := inProcess(t, flowserver.BrokenRuns(), Calls(flowRun))
	if f := failing(calls); !slices.Equal(f, []string{"calls/1-run_flow"}) {
		t.Errorf("with Calls, failing %v", f)
	}
	c := caseNamed(calls, "calls/1-run_flow")
	if got := rulesOf(c); !slices.Equal(got, full) || c.Call != 1 {
		t.Errorf("with Calls, calls/1-run_flow: call %d, rules %v, want %v", c.Call, got, full)
	}
	if !strings.Contains(strings.Join(c.Failures, ""), "    call: 1 of Calls\n") {
		t.Errorf("the call's failures do not name it:\n%s", strings.Join(c.Failures, "\n"))
	}
	if s := successCases(calls)["toyflow/1"]; s.Skipped != "" || !strings.Contains(strings.Join(s.Logs, ""), "call 1 of Calls") {
		t.Errorf("success-path/toyflow/1 with Calls: %+v", s)
	}
	// The conformant server passes the same call.
	if f := failing(inProcess(t, flowserver.New(), Calls(flowRun))); len(f) > 0 {
		t.Errorf("the conformant server fails the call: %v", f)
	}
}

// TestOptionErrors: RunImmediate without a program, and a call that is
// not one, are errors of the test, not verdicts on the server.
func TestOptionErrors(t *testing.T) {
	for _, c := range []struct {
		opts []Option
		want string
	}{
		{[]Option{RunImmediate()}, "RunImmediate runs the program of ProbeRun"},
		{[]Option{Calls(Call{Arguments: json.RawMessage(`{}`)})}, "call 1 has no name"},
		{[]Option{Calls(flowRun, Call{Name: "run_flow", Arguments: json.RawMessage(`[1]`)})}, "the arguments of call 2 (run_flow) are not a JSON object"},
	} {
		ct, _ := mcp.NewInMemoryTransports()
		if _, err := Check(context.Background(), ct, c.opts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
}

// withGuide is the full testdata server with its pilotage_get_guide
// handler replaced by h around the original one.
func withGuide(h func(next mcp.ToolHandler) mcp.ToolHandler) *mcp.Server {
	cfg := pilotserver.Config{Mode: "full"}
	s := pilotserver.New(cfg)
	for _, tl := range pilotserver.Tools(cfg) {
		if tl.Tool.Name == "pilotage_get_guide" {
			s.AddTool(tl.Tool, h(tl.Handler))
		}
	}
	return s
}

// unknownGuide reports whether req is the guide-unknown-id probe's.
func unknownGuide(req *mcp.CallToolRequest) bool {
	var a struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(req.Params.Arguments, &a)
	return a.ID == probe.NoSuchGuide
}

// blocked is a server whose guide handler blocks on the guide-unknown-id
// probe and ignores its context, until release is closed.
func blocked(release chan struct{}) *mcp.Server {
	return withGuide(func(next mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if unknownGuide(req) {
				<-release
			}
			return next(ctx, req)
		}
	})
}

// TestBlockedHandler: a handler that blocks and ignores its context
// cannot hold the check past its Timeout: the session is abandoned, and
// the failure names the probe that was waiting.
func TestBlockedHandler(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	const timeout = 2 * time.Second
	start := time.Now()
	rep, err := checkServer(context.Background(), blocked(release), []Option{Timeout(timeout)})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a check with Timeout(%s) and a blocked handler ended after %s", timeout, took.Round(time.Millisecond))
	if took > timeout+time.Second {
		t.Errorf("the check took %s, more than its Timeout %s plus 1s", took, timeout)
	}
	if len(rep.Failures) == 0 || !strings.Contains(rep.Failures[0], "while probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on toyflow/1 was waiting for its answer (tools/call pilotage_get_guide)") {
		t.Errorf("failures %q", rep.Failures)
	}
	if e := strings.Join(errsOf(rep, "guide-unknown-id"), "\n"); !strings.Contains(e, "got no answer") {
		t.Errorf("the waiting probe's case: %q", e)
	}
}

// TestPanickingHandler: a handler's panic is recovered, and the case of
// the probe that triggered it fails with the panic and its stack; the
// other probes go on.
func TestPanickingHandler(t *testing.T) {
	s := withGuide(func(next mcp.ToolHandler) mcp.ToolHandler {
		return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if unknownGuide(req) {
				panic("no such guide, no such luck")
			}
			return next(ctx, req)
		}
	})
	rep, err := checkServer(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := failing(rep); !slices.Equal(f, []string{"guide-unknown-id"}) {
		t.Errorf("failing %v, want [guide-unknown-id]", f)
	}
	e := strings.Join(errsOf(rep, "guide-unknown-id"), "\n")
	for _, want := range []string{
		"the handler panicked on probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on toyflow/1 (tools/call pilotage_get_guide): no such guide, no such luck",
		"the handler panicked on probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on calc/1",
		"panic stack:", "pilotagetest.TestPanickingHandler",
	} {
		if !strings.Contains(e, want) {
			t.Errorf("the case lacks %q:\n%s", want, e)
		}
	}
	// A panic in a session that is not a check's is the server's own.
	defer func() {
		if recover() == nil {
			t.Error("a panic outside a check was recovered")
		}
	}()
	h := recoverChecked(func(context.Context, string, mcp.Request) (mcp.Result, error) { panic("outside") })
	_, _ = h(context.Background(), "tools/call", &mcp.CallToolRequest{Session: new(mcp.ServerSession)})
}

// childRun, set in the environment, makes a test below run a check as a
// user's test would, in a child process of this test binary.
const childRun = "PILOTAGETEST_CHILD"

// runChild runs test in a child process with childRun=mode and returns
// its output; the child is expected to fail.
func runChild(t *testing.T, test, mode string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), childRun+"="+mode)
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the child passes:\n%s", out)
	}
	return string(out)
}

// runAt prints where the next line of the caller is, for the parent to
// find in the child's output.
func runAt(t *testing.T) {
	_, file, line, _ := runtime.Caller(1)
	t.Logf("RUN-AT %s:%d", file[strings.LastIndexByte(file, '/')+1:], line+1)
}

// longAnswer is the server of the guard-iserror fault with a long text
// before the decisive member of every run_calc answer, so that the
// member a finding points at lies thousands of bytes into the answer.
func longAnswer() *mcp.Server {
	s := pilotserver.New(pilotserver.Config{Mode: "full", Fault: "guard-iserror"})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && method == "tools/call" && r.IsError {
				r.Content = append([]mcp.Content{&mcp.TextContent{Text: strings.Repeat("The program could not run. ", 150)}}, r.Content...)
			}
			return res, err
		}
	})
	return s
}

// TestFailureNamesCaller re-runs this test binary on a failing check and
// reads the failure as a user sees it: it is reported at the line of the
// test that called Run, not inside pilotagetest, and its response excerpt
// holds the member the finding points at, although that member lies past
// the first 2,000 bytes of the answer.
func TestFailureNamesCaller(t *testing.T) {
	if os.Getenv(childRun) == "long" {
		runAt(t)
		Run(t, longAnswer())
		return
	}
	out := runChild(t, "TestFailureNamesCaller", "long")
	at := regexp.MustCompile(`RUN-AT (\S+)`).FindStringSubmatch(out)
	if at == nil {
		t.Fatalf("the child did not say where it called Run:\n%s", out)
	}
	fail := regexp.MustCompile(`(?m)^\s+(\S+): error result-is-error-misused:`).FindAllStringSubmatch(out, -1)
	if len(fail) == 0 {
		t.Fatalf("no result-is-error-misused failure:\n%s", out)
	}
	for _, f := range fail {
		if f[1] != at[1] {
			t.Errorf("the failure is reported at %s, want the caller's line %s", f[1], at[1])
		}
	}
	if strings.Contains(out, "pilotagetest.go:") || strings.Contains(out, "check.go:") {
		t.Errorf("a line inside pilotagetest is named:\n%s", out)
	}
	// The excerpt of the answer: cut before, and holding the decisive
	// member at the finding's pointer, /calls/N/result/isError.
	m := regexp.MustCompile(`(?m)error result-is-error-misused:[^\n]*\n(?:\s+\S[^\n]*\n)*?\s+response \(result\): ([^\n]*)\n\s+at: \S+ (/calls/\d+/result/isError)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no response excerpt with a pointer at isError:\n%s", out)
	}
	if !strings.HasPrefix(m[1], "… (") || !strings.Contains(m[1], `"isError":true`) {
		t.Errorf("the excerpt does not hold the member at %s:\n%s", m[2], m[1])
	}
	before, _ := strconv.Atoi(regexp.MustCompile(`^… \((\d+) bytes before\)`).FindStringSubmatch(m[1])[1])
	if before < 2000 {
		t.Errorf("the decisive member is only %d bytes in: the test proves nothing about a fixed cut", before)
	}
}

// TestBlockedHandlerUserSees: the same blocked handler under Run, in a
// child test binary as a user runs it; the child's test ends within its
// Timeout plus one second, and its failure names the waiting probe. The
// bound is wall time, which a machine running other test binaries on both
// cores can stretch by a second (seen in CI's go test ./...), so the child
// runs up to three times and one run must meet both assertions; a handler
// that holds the session until go test's own timeout fails all three.
func TestBlockedHandlerUserSees(t *testing.T) {
	const timeout = 2 * time.Second
	if os.Getenv(childRun) == "blocked" {
		release := make(chan struct{})
		defer close(release)
		Run(t, blocked(release), Timeout(timeout))
		return
	}
	var problems []string
	for attempt := 1; attempt <= 3; attempt++ {
		out := runChild(t, "TestBlockedHandlerUserSees", "blocked")
		d := regexp.MustCompile(`(?m)^--- FAIL: TestBlockedHandlerUserSees \(([0-9.]+)s\)`).FindStringSubmatch(out)
		if d == nil {
			t.Fatalf("no FAIL line:\n%s", out)
		}
		secs, _ := strconv.ParseFloat(d[1], 64)
		t.Logf("run %d: the child's test with Timeout(%s) and a blocked handler took %.2fs", attempt, timeout, secs)
		problems = problems[:0]
		if secs > (timeout + time.Second).Seconds() {
			problems = append(problems, fmt.Sprintf("the child's test took %.2fs, more than its Timeout %s plus 1s", secs, timeout))
		}
		if !strings.Contains(out, "while probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on toyflow/1 was waiting for its answer") {
			problems = append(problems, "the failure does not name the waiting probe:\n"+out)
		}
		if len(problems) == 0 {
			return
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestBrokenSuccessPathUserSees: go test of the broken server, as a user
// runs it with RunImmediate, goes red in exactly the subtests of the
// run probes, with the findings of the broken members.
func TestBrokenSuccessPathUserSees(t *testing.T) {
	if os.Getenv(childRun) == "broken" {
		Run(t, flowserver.BrokenRuns(), ProbeRun(flowProgram), RunImmediate())
		return
	}
	out := runChild(t, "TestBrokenSuccessPathUserSees", "broken")
	var got []string
	for _, m := range regexp.MustCompile(`--- FAIL: (\S+)`).FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	const top = "TestBrokenSuccessPathUserSees"
	want := []string{top + "/PIL-EXECUTE-SUCCESS-G/execute-test-run", top + "/PIL-EXECUTE-SUCCESS-G", top + "/execute-test-run-summary",
		top + "/PIL-EXECUTE-TRACE-NONE-G/execute-test-run-none", top + "/PIL-EXECUTE-TRACE-NONE-G", top}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("failed tests %v, want %v\n%s", got, want, out)
	}
	for _, s := range []string{
		`error call-success-status: the Run outcome has ok: true but status "done"`,
		`error result-outcome-error: ok is true, so error must be null, not ""`,
		`error shape-result: run_flow result: missing required member "input"`,
		"--- SKIP: " + top + "/PIL-EXECUTE-STORE-RETAIN-G/execute-test-run-store",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the output lacks %q", s)
		}
	}
}

// TestRealRunNamedByRequest: whether a run probe ran the program for real
// is read from the request's own test_run member, not from its text: a
// program that emits the word test_run is still run for real.
func TestRealRunNamedByRequest(t *testing.T) {
	program := json.RawMessage(`{"steps": [{"id": "a", "emit": "test_run"}]}`)
	rep := inProcess(t, flowserver.New(), ProbeRun(program), RunImmediate())
	if f := failing(rep); len(f) > 0 {
		t.Fatalf("failing: %v", f)
	}
	path := successCases(rep)["toyflow/1"]
	if path == nil || !strings.Contains(strings.Join(path.Logs, ""), "through the real run (RunImmediate) of the program") {
		t.Errorf("success-path/toyflow/1: %+v", path)
	}
	// And a finding on that run says so.
	c := caseNamed(inProcess(t, flowserver.BrokenRuns(), ProbeRun(program), RunImmediate()), "execute-test-run")
	if c == nil || len(c.Failures) == 0 || !strings.Contains(c.Failures[0], "    probe: execute-test-run (PIL-EXECUTE-SUCCESS-G), Language toyflow/1, run for real (RunImmediate) (") {
		t.Errorf("execute-test-run on the broken server: %+v", c)
	}
}

// TestUnjudgedProbeIsNoPass: a guide tool whose inputSchema leans on a
// schema outside the document cannot be judged offline, so its answer of
// JSON-RPC -32602 to guide-unknown-id is judged by no rule: the probe's
// case is skipped, saying so, and never passes.
func TestUnjudgedProbeIsNoPass(t *testing.T) {
	cfg := pilotserver.Config{Mode: "full"}
	s := pilotserver.New(cfg)
	for _, tl := range pilotserver.Tools(cfg) {
		if tl.Tool.Name != "pilotage_get_guide" {
			continue
		}
		tool := *tl.Tool
		tool.InputSchema = map[string]any{"type": "object", "allOf": []any{map[string]any{"$ref": "https://schemas.example/guide-args.json"}},
			"properties": map[string]any{"language": map[string]any{"type": "string"}, "id": map[string]any{"type": "string"}, "topic": map[string]any{"type": "string"}}, "required": []any{"language"}}
		next := tl.Handler
		s.AddTool(&tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if unknownGuide(req) {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such guide"}
			}
			return next(ctx, req)
		})
	}
	rep, err := checkServer(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Cases {
		if c.Probe == "guide-unknown-id" {
			if len(c.Failures) > 0 || !strings.HasPrefix(c.Skipped, "not judged: ") {
				t.Errorf("guide-unknown-id: failures %q, skipped %q; want skipped as not judged", c.Failures, c.Skipped)
			}
			return
		}
	}
	t.Fatal("no guide-unknown-id case")
}
