package pilotagetest

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// inProcess checks a go-sdk server the way Run does, and returns the
// report instead of running subtests.
func inProcess(t *testing.T, s *mcp.Server, opts ...Option) *Report {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	rep, err := Check(context.Background(), ct, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// failing lists the probes (and "surfaces") whose cases fail, and "(top)"
// when the server fails as a whole.
func failing(rep *Report) []string {
	var out []string
	for _, c := range rep.Cases {
		switch {
		case len(c.Failures) == 0:
		case c.Probe == "":
			out = append(out, c.Name)
		default:
			out = append(out, c.Probe)
		}
	}
	if len(rep.Failures) > 0 {
		out = append(out, "(top)")
	}
	slices.Sort(out)
	return out
}

// errsOf returns the failures of the named case.
func errsOf(rep *Report, probe string) []string {
	for _, c := range rep.Cases {
		if c.Probe == probe {
			return c.Failures
		}
	}
	return nil
}

// TestConformant: the conformant testdata server, both Languages, passes
// through the public entry point, in process.
func TestConformant(t *testing.T) {
	start := time.Now()
	Run(t, pilotserver.New(pilotserver.Config{Mode: "full"}))
	t.Logf("in-process probe and lint: %v", time.Since(start))
}

// TestConformantRuns: every applicable probe sent something, and nothing
// failed, with and without --probe-run.
func TestConformantRuns(t *testing.T) {
	for _, opts := range [][]Option{nil, {ProbeRun([]byte(`{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`))}} {
		rep := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full"}), opts...)
		if f := failing(rep); len(f) > 0 {
			t.Errorf("failing: %v", f)
		}
		var skipped []string
		for _, c := range rep.Cases {
			if c.Skipped != "" && c.Probe != "" {
				skipped = append(skipped, c.Probe)
			}
		}
		// Without a context_schema the context probes have nothing to
		// break; without a program no run probe has a Run to judge.
		want := []string{"guide-unknown-topic", "catalog-unknown-baseline", "validate-context-missing", "validate-context-rejected"}
		if len(opts) == 0 {
			want = append(want, "validate-program", "execute-test-run", "execute-test-run-summary", "execute-test-run-none", "execute-test-run-store",
				"execute-idempotent-first", "execute-idempotent-replay", "execute-idempotent-conflict",
				"trace-unstored-run", "trace-fetch-retained", "trace-fetch-summary", "trace-fetch-full", "trace-fetch-level-none", "validate-program-again")
			slices.SortStableFunc(want, func(a, b string) int { return probeIndex(a) - probeIndex(b) })
		}
		if !slices.Equal(skipped, want) {
			t.Errorf("probes not applicable: %v, want %v", skipped, want)
		}
		// toyflow/1 has no test run: only RunImmediate or Calls reach its
		// success path, and the case says so; calc/1 is test-run.
		paths := successCases(rep)
		if len(opts) == 0 {
			for _, l := range []string{"toyflow/1", "calc/1"} {
				if !strings.Contains(paths[l].Skipped, "give ProbeRun(program)") {
					t.Errorf("success-path/%s without a program: %q", l, paths[l].Skipped)
				}
			}
			if !strings.Contains(paths["toyflow/1"].Skipped, "toyflow/1 declares none, so add RunImmediate()") {
				t.Errorf("success-path/toyflow/1 does not point at RunImmediate: %q", paths["toyflow/1"].Skipped)
			}
		} else {
			if paths["calc/1"].Skipped != "" || !strings.Contains(strings.Join(paths["calc/1"].Logs, ""), "through the test run of the program of ProbeRun") {
				t.Errorf("success-path/calc/1 with a program: skipped %q, logs %q", paths["calc/1"].Skipped, paths["calc/1"].Logs)
			}
			if !strings.Contains(paths["toyflow/1"].Skipped, "declares no execute.test_run, so the program of ProbeRun is not run there; RunImmediate() runs it") {
				t.Errorf("success-path/toyflow/1 with a program: %q", paths["toyflow/1"].Skipped)
			}
		}
	}
}

// successCases returns the success-path cases by Language.
func successCases(rep *Report) map[string]*Case {
	m := map[string]*Case{}
	for _, c := range rep.Cases {
		if l, ok := strings.CutPrefix(c.Name, "success-path/"); ok {
			m[l] = c
		}
	}
	return m
}

func probeIndex(name string) int {
	return slices.IndexFunc(probe.Set, func(p *probe.Probe) bool { return p.Name == name })
}

// TestFaults: each fault fails exactly the cases of the probes that
// observe it.
func TestFaults(t *testing.T) {
	for _, fault := range pilotserver.Faults {
		want, ok := pilotserver.ObservedBy[fault]
		if !ok {
			t.Errorf("fault %s has no expected probe here", fault)
			continue
		}
		t.Run(fault, func(t *testing.T) {
			opts := []Option{FailOn(Info)}
			// Only the hang fault waits for the call timeout; a short
			// one for every fault fails correct answers that come late
			// under -race on a loaded machine.
			if fault == "hang" {
				opts = append(opts, CallTimeout(300*time.Millisecond))
			}
			if pilotserver.NeedsRun[fault] {
				opts = append(opts, ProbeRun(json.RawMessage(pilotserver.RunProgram)))
			}
			rep := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full", Fault: fault}), opts...)
			got := failing(rep)
			if !slices.Equal(got, want) {
				t.Errorf("failing cases %v, want %v", got, want)
				for _, c := range rep.Cases {
					for _, e := range c.Failures {
						t.Logf("%s: %s", c.Name, e)
					}
				}
			}
		})
	}
}

// TestNoPilotage: a server with no Pilotage at all fails (it lists no
// pilotage_manifest), not passes in silence.
func TestNoPilotage(t *testing.T) {
	s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}}, nil, nil
	})
	rep := inProcess(t, s)
	if len(failing(rep)) == 0 {
		t.Error("a server without Pilotage passes")
	}
}

// TestOptions: Disable and Regrade move a failing finding out of the
// failure, one switch per defect, and WriteSnapshot keeps the recording.
func TestOptions(t *testing.T) {
	srv := func() *mcp.Server { return pilotserver.New(pilotserver.Config{Mode: "full", Fault: "store-ignored"}) }
	rep := inProcess(t, srv())
	// The specific rule that sees the fault; probe-expectation would
	// judge the same answer where no rule explained it.
	const rule = "call-store-unsupported"
	errs := strings.Join(errsOf(rep, "execute-store-unsupported"), "\n")
	if f := failing(rep); !slices.Equal(f, []string{"execute-store-unsupported"}) || !strings.Contains(errs, rule) || strings.Contains(errs, "probe-expectation") {
		t.Fatalf("store-ignored: failing %v, want execute-store-unsupported by %s alone:\n%s", f, rule, errs)
	}
	// One defect, one switch: the rule that is off still explains its
	// probe, so probe-expectation does not report in its place.
	if f := failing(inProcess(t, srv(), Disable(rule))); len(f) > 0 {
		t.Errorf("with %s disabled, failing: %v", rule, f)
	}
	if f := failing(inProcess(t, srv(), Regrade(rule, Warning))); len(f) > 0 {
		t.Errorf("with %s a warning, failing: %v", rule, f)
	}
	if f := failing(inProcess(t, srv(), Regrade(rule, Warning), FailOn(Warning))); !slices.Equal(f, []string{"execute-store-unsupported"}) {
		t.Errorf("with %s a warning and FailOn(Warning), failing: %v", rule, f)
	}
	// The generic verdict alone off leaves the specific rule on.
	if f := failing(inProcess(t, srv(), Disable("probe-expectation"))); !slices.Equal(f, []string{"execute-store-unsupported"}) {
		t.Errorf("with probe-expectation disabled, failing: %v", f)
	}
	// Where no specific rule explains an answer, probe-expectation does,
	// and disabling an unrelated rule changes nothing.
	hang := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full", Fault: "guide-kind"}), Disable(rule))
	if e := strings.Join(errsOf(hang, "guide-unknown-id"), "\n"); !strings.Contains(e, "probe-expectation") {
		t.Errorf("guide-kind with %s disabled: %q", rule, e)
	}
	path := t.TempDir() + "/snap/server.snapshot.json"
	inProcess(t, srv(), WriteSnapshot(path))
	b, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(b), `"name": "execute-store-unsupported"`) {
		t.Errorf("the written snapshot lacks the probe (%v)", err)
	}
	if _, err := check(context.Background(), snapshotter.Options{Command: []string{"true"}}, []Option{Disable("no-such-rule")}); err == nil || !strings.Contains(err.Error(), "no-such-rule") {
		t.Errorf("an unknown rule to disable is no error: %v", err)
	}
}

// TestUserSeesFault runs a go test of a faulty server, as a user would,
// in a child process of this test binary, and checks that exactly the
// subtest of the probe that observes the fault fails.
func TestUserSeesFault(t *testing.T) {
	if fault := os.Getenv("PILOTAGETEST_FAULT"); fault != "" {
		Run(t, pilotserver.New(pilotserver.Config{Mode: "full", Fault: fault}))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestUserSeesFault$", "-test.v")
	cmd.Env = append(os.Environ(), "PILOTAGETEST_FAULT=guard-iserror")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the faulty server passes:\n%s", out)
	}
	fails := regexp.MustCompile(`--- FAIL: (\S+)`).FindAllStringSubmatch(string(out), -1)
	var got []string
	for _, m := range fails {
		got = append(got, m[1])
	}
	want := []string{"TestUserSeesFault", "TestUserSeesFault/PIL-EXECUTE-GUARD-B", "TestUserSeesFault/PIL-EXECUTE-GUARD-B/execute-invalid-program"}
	if !slices.Equal(got, want) {
		t.Errorf("failed tests %v, want %v\n%s", got, want, out)
	}
	for _, s := range []string{"error result-is-error-misused:", "probe: execute-invalid-program (PIL-EXECUTE-GUARD-B), Language calc/1 (Part II §6.5.2)", "request: tools/call run_calc", `"isError":true`, "spec: Part III §6, §7.1"} {
		if !strings.Contains(string(out), s) {
			t.Errorf("the output lacks %q:\n%s", s, out)
		}
	}
	// The coverage summary, as the README and the package doc promise,
	// with the one vector the fault fails.
	if !regexp.MustCompile(`\n +pilotagetest_test\.go:\d+: probe coverage: \d+ of 52 official server vectors probed \(\d+ passed, 1 failed`).Match(out) {
		t.Errorf("the output lacks the coverage summary:\n%s", out)
	}
}

// TestCommand checks the testdata server as a program over stdio, as a
// server in another language would be checked.
func TestCommand(t *testing.T) {
	bin := pilotservertest.Build(t)
	start := time.Now()
	RunCommand(t, []string{bin, "-mode", "full"})
	t.Logf("probe and lint over stdio: %v", time.Since(start))
	rep, err := check(context.Background(), snapshotter.Options{Command: []string{bin, "-mode", "full", "-fault", "both-runnables"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := failing(rep); !slices.Equal(got, []string{"execute-both-runnables"}) {
		t.Errorf("failing %v, want [execute-both-runnables]", got)
	}
}

// TestSessionTimeout: a session that runs out before the probe finishes
// fails the server as a whole, instead of passing on what was sent.
func TestSessionTimeout(t *testing.T) {
	rep := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full", Fault: "hang"}), Timeout(300*time.Millisecond))
	if len(rep.Failures) == 0 || !strings.Contains(rep.Failures[0], "ran out of its 300ms") {
		t.Errorf("failures %q", rep.Failures)
	}
}
