package snapshotter_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// pilotserver builds the testdata server once per test binary.
func pilotserver(t *testing.T) string { return pilotservertest.Build(t) }

// probeFindings probes a server and lints the snapshot with every rule,
// returning "probe-name rule severity" lines for the findings on probe
// calls and the other findings as they are.
func probeFindings(t *testing.T, opt snapshotter.Options) (string, []byte) {
	t.Helper()
	if opt.Probe == nil {
		opt.Probe = &snapshotter.Probing{CallTimeout: 2 * time.Second}
	}
	res, err := snapshotter.Take(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, f := range lr.Findings {
		lines = append(lines, fmt.Sprintf("%s %s %s", f.Severity, f.Rule, f.Pointer))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n"), res.JSON
}

// TestProbeConformant: the conformant server, both Languages, over stdio,
// draws no finding at all.
func TestProbeConformant(t *testing.T) {
	bin := pilotserver(t)
	got, snap := probeFindings(t, snapshotter.Options{Command: []string{bin, "-mode", "full"}})
	if got != "" {
		t.Errorf("the conformant server's probe draws findings:\n%s", got)
	}
	for _, want := range []string{`"name": "execute-store-unsupported"`, `"name": "catalog-list"`, `"name": "trace-refused-run"`, `"name": "unknown-tool"`, `"vector": "PIL-LEARN-UNKNOWN-ID-B"`} {
		if !strings.Contains(string(snap), want) {
			t.Errorf("the snapshot lacks %s", want)
		}
	}
	if strings.Contains(string(snap), "timeout_ms") {
		t.Error("a probe of the conformant server timed out")
	}
}

// TestProbeRun: with --probe-run the user's program is test-run on calc/1,
// which declares execute.test_run, and on no other Language.
func TestProbeRun(t *testing.T) {
	bin := pilotserver(t)
	prog := []byte(`{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`)
	got, snap := probeFindings(t, snapshotter.Options{Command: []string{bin, "-mode", "full"}, Probe: &snapshotter.Probing{Run: prog, CallTimeout: 2 * time.Second}})
	if got != "" {
		t.Errorf("findings:\n%s", got)
	}
	if n := sent(t, snap)["execute-test-run"]; n != 1 {
		t.Fatalf("%d execute-test-run calls, want 1 (calc/1 only)", n)
	}
	var doc struct {
		Calls []struct {
			Name      string         `json:"name"`
			Arguments map[string]any `json:"arguments"`
			Result    struct {
				StructuredContent struct {
					Outcome struct{ Status string } `json:"outcome"`
				} `json:"structuredContent"`
			} `json:"result"`
			Probe struct{ Name string } `json:"probe"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(snap, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Calls {
		if c.Probe.Name == "execute-test-run" && (c.Name != "run_calc" || c.Arguments["test_run"] != true || c.Result.StructuredContent.Outcome.Status != "success") {
			t.Errorf("the test run is not a successful run_calc call with test_run: true: %+v", c)
		}
	}
}

// TestProbeHTTP probes the conformant server over Streamable HTTP on a
// port of 127.0.0.1 the server picks.
func TestProbeHTTP(t *testing.T) {
	url := pilotservertest.StartHTTP(t, "-mode", "full")
	got, snap := probeFindings(t, snapshotter.Options{URL: url})
	if got != "" {
		t.Errorf("the conformant server's probe over HTTP draws findings:\n%s", got)
	}
	if sent(t, snap)["trace-unknown-run"] == 0 {
		t.Error("the HTTP probe did not reach the trace probes")
	}
}

// TestProbeFaults: each fault mode draws an error finding, and every
// finding (an info from a rule that also sees the fault included) sits on
// a call of the probes that observe that fault (a fault that
// both Languages share shows on each Language's call). The finding may come
// from a specific result rule, which replaces probe-expectation there.
func TestProbeFaults(t *testing.T) {
	bin := pilotserver(t)
	prog := []byte(`{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`)
	for _, tc := range []struct {
		fault, probe string
		// run: the fault shows only on a --probe-run probe.
		run bool
	}{
		// validate-iserror also hits validate-empty, the repeat and the
		// context probe: their programs are invalid in both Languages.
		{"guide-kind", "guide-unknown-id", false},
		{"topic-ignored", "guide-topic-undeclared", false},
		{"catalog-no-version", "catalog-get-unknown", false},
		{"cursor-repeat", "catalog-list,catalog-list-paged", false},
		// The paging faults show under a limit: the listing without one
		// still shows every entry, so the pages with one are compared with
		// it, or their cursor repeats.
		{"paging-ends-early", "catalog-list-paged", false},
		{"paging-loops", "catalog-list-paged", false},
		{"paging-skips", "catalog-list-paged", false},
		{"changed-since", "catalog-changed-since-undeclared", false},
		{"validate-iserror", "validate-unparsable,validate-empty,validate-unparsable-again,validate-context-undeclared", false},
		{"trace-level-rpc", "execute-unknown-trace-level", false},
		{"store-ignored", "execute-store-unsupported", false},
		{"mode-optional", "execute-mode-missing", false},
		{"test-run-ignored", "execute-test-run-undeclared", false},
		{"both-runnables", "execute-both-runnables", false},
		{"guard-iserror", "execute-invalid-program", false},
		{"run-distinguishable", "trace-refused-run", false},
		{"hang", "execute-no-runnable", false},
		{"drift-late", "execute-drift-invalid", false},
		// An empty program is invalid anyway; the user's valid one shows
		// the context was ignored.
		{"context-ignored", "validate-context-undeclared", true},
		{"unstored-kept", "trace-unstored-run", true},
		{"stored-dropped", "trace-fetch-retained,trace-fetch-summary,trace-fetch-full", true},
		{"fetch-none", "trace-fetch-level-none", true},
		{"fetch-level-ignored", "trace-fetch-summary", true},
		{"replay-new-run", "execute-idempotent-replay", true},
		{"conflict-ignored", "execute-idempotent-conflict", true},
		{"trace-none-ignored", "execute-test-run-none,execute-test-run-store", true},
		{"summary-input", "execute-test-run-summary", true},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			opt := snapshotter.Options{Command: []string{bin, "-mode", "full", "-fault", tc.fault}}
			opt.Probe = &snapshotter.Probing{CallTimeout: time.Second}
			if tc.run {
				opt.Probe.Run = prog
			}
			got, snap := probeFindings(t, opt)
			if got == "" {
				t.Fatal("no finding")
			}
			if !strings.HasPrefix(got, "error ") && !strings.Contains(got, "\nerror ") {
				t.Errorf("no error finding:\n%s", got)
			}
			onProbes(t, got, snap, tc.probe)
		})
	}
}

// sent counts the recorded calls of each probe in a snapshot.
func sent(t *testing.T, snap []byte) map[string]int {
	t.Helper()
	var doc struct {
		Calls []struct {
			Probe struct{ Name string } `json:"probe"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(snap, &doc); err != nil {
		t.Fatal(err)
	}
	n := map[string]int{}
	for _, c := range doc.Calls {
		n[c.Probe.Name]++
	}
	return n
}

// callOf returns the text of the recorded call that pointer points into.
func callOf(t *testing.T, snap []byte, pointer string) string {
	t.Helper()
	parts := strings.Split(pointer, "/")
	if len(parts) < 3 || parts[1] != "calls" {
		t.Fatalf("finding at %s is not on a call", pointer)
	}
	var n int
	fmt.Sscan(parts[2], &n)
	// The snapshot's calls are written one member per line; find the n-th
	// element of the calls array by its indentation.
	text := string(snap)
	i := strings.Index(text, "\n  \"calls\": [\n")
	if i < 0 {
		t.Fatal("no calls")
	}
	elems := strings.Split(text[i:], "\n    {\n")
	if n+1 >= len(elems) {
		t.Fatalf("no call %d", n)
	}
	return elems[n+1]
}

// TestProbeRunRefused: a --probe-run program the server refuses is said
// to have never run, with the server's reason, in the result's notes and
// in the call's tag; the run probes that need a started Run are not sent,
// and the input and context given beside the program go with it.
func TestProbeRunRefused(t *testing.T) {
	bin := pilotserver(t)
	prog := []byte(`{"steps": [{"id": "a", "op": "no-such-op", "args": [1]}]}`)
	opt := snapshotter.Options{Command: []string{bin, "-mode", "full"}, Probe: &snapshotter.Probing{Run: prog, Input: []byte(`{"n": 1}`), Context: []byte(`{}`), CallTimeout: 2 * time.Second}}
	res, err := snapshotter.Take(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ProbeRunNotes) != 1 || !strings.Contains(res.ProbeRunNotes[0], "never ran on calc/1: the server refused the Run with status validation_error") || !strings.Contains(res.ProbeRunNotes[0], `unknown_op "no catalog operation has this id"`) {
		t.Errorf("notes: %q", res.ProbeRunNotes)
	}
	snap := string(res.JSON)
	if !strings.Contains(snap, `"not_run": "the server refused the Run with status validation_error`) {
		t.Error("the tag does not record not_run")
	}
	for _, absent := range []string{"execute-test-run-summary", "execute-test-run-store", "trace-fetch-retained", "execute-idempotent-first"} {
		if sent(t, res.JSON)[absent] > 0 {
			t.Errorf("%s was sent after the program never ran", absent)
		}
	}
	var doc struct {
		Calls []struct {
			Arguments map[string]any `json:"arguments"`
			Probe     struct{ Name string }
		} `json:"calls"`
	}
	if err := json.Unmarshal(res.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Calls {
		switch c.Probe.Name {
		case "execute-test-run":
			if fmt.Sprint(c.Arguments["input"]) != "map[n:1]" || fmt.Sprint(c.Arguments["context"]) != "map[]" || c.Arguments["mode"] != "deploy" || c.Arguments["store"] != false || c.Arguments["expected_catalog_version"] != "cv-1" {
				t.Errorf("the test run is not the standard loop's request: %v", c.Arguments)
			}
		case "validate-program":
			if fmt.Sprint(c.Arguments["context"]) != "map[]" {
				t.Errorf("validate lacks the context: %v", c.Arguments)
			}
		}
	}
	lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range lr.Findings {
		t.Errorf("finding on a refused program: %s %s %s", f.Rule, f.Pointer, f.Message)
	}
}

// TestProbeContextSchema: with a context_schema on calc/1, the conformant
// server draws nothing when the user's context goes with the program, and
// a server that ignores context is caught on the two probes that leave it
// out or break its schema.
func TestProbeContextSchema(t *testing.T) {
	bin := pilotserver(t)
	prog := []byte(`{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`)
	for _, tc := range []struct{ fault, want string }{
		{"", ""},
		{"context-ignored", "validate-context-missing,validate-context-rejected"},
	} {
		args := []string{bin, "-mode", "full", "-context"}
		if tc.fault != "" {
			args = append(args, "-fault", tc.fault)
		}
		got, snap := probeFindings(t, snapshotter.Options{Command: args, Probe: &snapshotter.Probing{Run: prog, Context: []byte(`{"unit": "m"}`), CallTimeout: 2 * time.Second}})
		if tc.want == "" {
			if got != "" {
				t.Errorf("the conformant server with context_schema draws findings:\n%s", got)
			}
			for _, p := range []string{"validate-context-missing", "validate-context-rejected", "trace-fetch-retained"} {
				if sent(t, snap)[p] == 0 {
					t.Errorf("%s was not sent", p)
				}
			}
			continue
		}
		if !strings.Contains(got, "error call-context-binding-accepted") {
			t.Errorf("%s: no context finding:\n%s", tc.fault, got)
		}
		onProbes(t, got, snap, tc.want)
	}
}

// TestProbeFaultRules: the faults whose probe has a rule of its own are
// caught by that rule, on the probe call that observes the fault, and
// every other finding sits on that probe's calls too.
func TestProbeFaultRules(t *testing.T) {
	bin := pilotserver(t)
	prog := []byte(`{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`)
	for _, tc := range []struct {
		fault, want, probe string
		run                bool
	}{
		{"validate-unstable", "info call-validate-diagnostics-unstable", "validate-unparsable-again", false},
		{"validate-flaky", "warning call-validate-validity-unstable", "validate-unparsable-again", false},
		{"token-churn", "warning call-catalog-token-changed-needlessly", "catalog-list-again", false},
		{"drift-late", "error probe-expectation", "execute-drift-invalid", false},
		{"stored-dropped", "error call-stored-run-missing", "trace-fetch-retained,trace-fetch-summary,trace-fetch-full", true},
		{"replay-new-run", "error call-idempotent-replay-new-run", "execute-idempotent-replay", true},
		{"replay-changed", "warning call-idempotent-replay-different-result", "execute-idempotent-replay", true},
		// The closed-set rule reports a value once per Language, on the
		// first call that carries it.
		{"closed-set-code", "error call-closed-set-unlisted", "validate-unparsable", false},
		{"refused-run-stored", "error call-refused-run-fetched", "trace-refused-run", false},
		{"output-null-refused", "error call-output-on-failure", "execute-invalid-program", false},
		// probe-expectation grades the channel (error); the listing rule
		// says why.
		{"get-listed-not-found", "warning call-listed-entry-not-found", "catalog-get", false},
		// Only the paging probe reads the last page.
		{"duplicate-entry", "warning result-catalog-id-duplicate", "catalog-list,catalog-list-paged", false},
		{"duplicate-guide", "warning result-guide-id-duplicate", "guide-index", false},
		{"safe-destructive", "error result-risk-safe-destructive", "catalog-list,catalog-list-paged", false},
		// The catalog comes on one page, so both listings are complete.
		{"listing-drops", "error call-listing-incomplete", "catalog-list-again", false},
		// catalog-list-again follows the validate probes, so each validate
		// answer has the catalog's token just before and just after it.
		{"validate-stale-token", "error call-validate-catalog-version-stale", "validate-unparsable,validate-empty,validate-unparsable-again,validate-context-undeclared", false},
		// Every test run pairs with the plan of validate-program; the
		// replay returns the first answer, fault and all.
		{"trace-calls-other", "error call-trace-calls-unplanned", "execute-test-run,execute-test-run-summary,execute-idempotent-first,execute-idempotent-replay", true},
		{"trace-id-suffix", "warning call-trace-step-id-context", "execute-test-run,execute-test-run-summary,execute-idempotent-first,execute-idempotent-replay", true},
		{"plan-no-calls", "error call-plan-calls-missing", "validate-program", true},
		{"plan-loop-missing", "error result-plan-construct-missing", "validate-program,validate-program-again", true},
		{"plan-ids-unstable", "error call-validate-step-ids-unstable", "validate-program-again", true},
		// The catalog comes on one page, so the listing is complete.
		{"plan-unlisted", "error call-plan-calls-unlisted", "validate-program,validate-program-again", true},
		// Without a plan or trace that invokes it, nothing shows the entry
		// callable.
		{"invoked-no-schema", "warning result-invoked-entry-input-schema-missing", "catalog-list,catalog-list-paged,catalog-list-again,catalog-get", true},
		// The listing with a limit ends early: the one without shows the
		// entries it lacks.
		{"paging-ends-early", "error call-listing-incomplete", "catalog-list-paged", false},
		{"paging-skips", "error call-listing-incomplete", "catalog-list-paged", false},
		{"paging-loops", "error probe-expectation", "catalog-list-paged", false},
	} {
		t.Run(tc.fault, func(t *testing.T) {
			t.Parallel()
			opt := snapshotter.Options{Command: []string{bin, "-mode", "full", "-fault", tc.fault}}
			opt.Probe = &snapshotter.Probing{CallTimeout: 2 * time.Second}
			if tc.run {
				opt.Probe.Run = prog
			}
			got, snap := probeFindings(t, opt)
			if !strings.Contains(got+"\n", tc.want+" ") {
				t.Fatalf("no %s finding:\n%s", tc.want, got)
			}
			onProbes(t, got, snap, tc.probe)
		})
	}
}

// onProbes requires every finding line of got to sit on a call of one of
// the comma-separated probes.
func onProbes(t *testing.T, got string, snap []byte, probes string) {
	t.Helper()
	for _, l := range strings.Split(got, "\n") {
		call := callOf(t, snap, strings.Fields(l)[2])
		ok := false
		for _, p := range strings.Split(probes, ",") {
			ok = ok || strings.Contains(call, `"name": "`+p+`"`)
		}
		if !ok {
			t.Errorf("the finding %s is not on probe %s:\n%s", l, probes, call)
		}
	}
}
