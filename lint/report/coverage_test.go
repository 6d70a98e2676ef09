package report_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// coverageDoc is the JSON report's coverage, as far as these tests read it.
type coverageDoc struct {
	Coverage *struct {
		Calls         int `json:"calls"`
		FailedCalls   int `json:"failed_calls"`
		Passed        int `json:"vectors_passed"`
		Failed        int `json:"vectors_failed"`
		Partial       int `json:"vectors_partly_probed"`
		Suppressed    int `json:"vectors_suppressed"`
		NotSent       int `json:"vectors_not_sent"`
		NotApplicable int `json:"vectors_not_applicable"`
		Vectors       []struct {
			ID     string   `json:"id"`
			Status string   `json:"status"`
			Why    []string `json:"why"`
		} `json:"vectors"`
	} `json:"coverage"`
}

func coverageOf(t *testing.T, run *report.Run) coverageDoc {
	t.Helper()
	var doc coverageDoc
	if err := json.Unmarshal(render(t, "json", run), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Coverage == nil {
		t.Fatalf("the JSON report has no coverage")
	}
	return doc
}

// vector returns the status of vector id, and its reasons joined.
func (d coverageDoc) vector(id string) (string, string) {
	for _, v := range d.Coverage.Vectors {
		if v.ID == id {
			return v.Status, strings.Join(v.Why, "; ")
		}
	}
	return "", ""
}

// fixtureRun lints fixtures of the probe family with every rule.
func fixtureRun(t *testing.T, names ...string) *report.Run {
	t.Helper()
	var ins []lint.Input
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "probe", "probe-expectation", name))
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, lint.Input{Name: name, Data: data, Explicit: true})
	}
	rs := rules.All()
	res, err := lint.Run(context.Background(), ins, &lint.Options{Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Rules: rs, Probes: report.ProbesOf(res)}
}

// TestCoverageUnjudged (review A 1.3, B 1c): a probe call whose answer
// probe-expectation could not judge (a request its tool's inputSchema
// rejects; a JSON-RPC answer where that schema cannot be judged offline)
// leaves its vector partly probed with that reason, on every surface.
// Before, the summary named the check among those not run and the
// coverage still counted the vector passed.
func TestCoverageUnjudged(t *testing.T) {
	for _, tc := range []struct{ fixture, vector, why string }{
		{"good-structural-fault.json", "PIL-VALIDATE-CONSTRAINT-FALLBACK-B", "validate-unparsable (calc/1): not judged: the answer to probe validate-unparsable, because its request does not fit the inputSchema of check_calc"},
		{"good-opaque-schema.json", "PIL-LEARN-UNKNOWN-ID-B", "guide-unknown-id (calc/1): not judged: the answer to probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B), because the inputSchema of pilotage_get_guide cannot be judged offline"},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			run := fixtureRun(t, tc.fixture)
			doc := coverageOf(t, run)
			status, why := doc.vector(tc.vector)
			if status != probe.Partial || !strings.Contains(why, tc.why) {
				t.Errorf("%s is %q (%s), want %q (%s)", tc.vector, status, why, probe.Partial, tc.why)
			}
			if doc.Coverage.Passed != 0 || doc.Coverage.Partial != 1 {
				t.Errorf("%d passed, %d partly probed; want 0 and 1", doc.Coverage.Passed, doc.Coverage.Partial)
			}
			text := string(render(t, "text", run))
			if !strings.Contains(text, "(0 passed, 0 failed, 1 partly probed)") || !strings.Contains(text, "1 probe calls, 0 failed, 1 not judged") ||
				!strings.Contains(text, "probe coverage: "+tc.vector+" partly probed: "+tc.why) {
				t.Errorf("the text does not say the answer was not judged:\n%s", text)
			}
			page := string(render(t, "html", run))
			if strings.Contains(page, "passing probe call(s)") || !strings.Contains(page, `data-verdict="not judged"`) || !strings.Contains(page, `<span class="unjudged">not judged</span>`) ||
				!strings.Contains(page, `<p class="unjudged">not judged: the answer to probe `) {
				t.Errorf("the page shows the unjudged call as passing")
			}
		})
	}
}

// coverRun is a probed run of one snapshot with the given calls (probe
// name at /calls/i), findings and suppressed findings.
func coverRun(names []string, findings, suppressed []lint.Finding, skips string) *report.Run {
	var calls []probe.Call
	for i, n := range names {
		calls = append(calls, probe.Call{File: "s.json", Pointer: "/calls/" + itoa(i), Probe: probe.ByName(n), Language: "calc/1", Tool: "t",
			Arguments: json.RawMessage(`{}`), Answer: json.RawMessage(`{"structuredContent":{"catalog_version":"cv-1","next_cursor":"c"},"isError":false}`), AnswerKind: "result"})
	}
	res := &lint.Result{Files: []lint.FileInfo{{Path: "s.json", Kind: "snapshot", ProbeSkips: []byte(skips)}}, Findings: findings, Suppressed: suppressed}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Probes: calls}
}

func finding(rule string, sev lint.Severity, pointer string) lint.Finding {
	return lint.Finding{Rule: rule, Severity: sev, File: "s.json", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Pointer: pointer, Message: "m", Spec: "Part II §6"}
}

// TestCoverageFailsOnlyItsVectors (review B 1d): a finding fails a vector
// when it sits on a call of the probe sent for that vector, whatever its
// rule (a specific rule may replace probe-expectation there), or on a call
// of a probe the vector also names when the rule is one that decides the
// vector (probe-expectation judges a probe against its own vector's
// expectation only). Before, any error on a call failed every vector that
// named its probe: a cursor that repeats in the unlimited listing failed
// PIL-CATALOG-VERSION-STABLE-G, which only compares catalog_versions.
func TestCoverageFailsOnlyItsVectors(t *testing.T) {
	names := []string{"catalog-list", "catalog-list-again", "catalog-list-paged", "trace-unknown-run", "trace-refused-run", "trace-unstored-run", "execute-test-run", "guide-unknown-id"}
	run := coverRun(names, []lint.Finding{
		finding("probe-expectation", lint.Error, "/calls/0/result/structuredContent/next_cursor"),
		finding("result-not-found-distinguishable", lint.Error, "/calls/5/result"),
		finding("result-is-error-misused", lint.Error, "/calls/7/result/isError"),
	}, nil, "")
	doc := coverageOf(t, run)
	for id, want := range map[string]string{
		"PIL-LOOKUP-LIST-G":                   probe.Failed, // catalog-list is its probe
		"PIL-CATALOG-VERSION-STABLE-G":        probe.Passed, // decided by call-catalog-token-changed-needlessly alone
		"PIL-LOOKUP-PAGINATION-G":             probe.Passed, // its own listing, catalog-list-paged, is clean
		"PIL-EXECUTE-STORE-FALSE-G":           probe.Failed, // trace-unstored-run is its probe
		"PIL-TRACE-FETCH-INDISTINGUISHABLE-B": probe.Failed, // result-not-found-distinguishable decides it
		"PIL-EXECUTE-SUCCESS-G":               probe.Passed, // execute-test-run is clean
		"PIL-LEARN-UNKNOWN-ID-B":              probe.Failed, // any error on its own probe's call
	} {
		if got, why := doc.vector(id); got != want {
			t.Errorf("%s is %q (%s), want %q", id, got, why, want)
		}
	}
	if doc.Coverage.FailedCalls != 3 {
		t.Errorf("%d failed calls, want 3", doc.Coverage.FailedCalls)
	}
	// The failed vector's row links to the call that failed it, also when
	// that call's probe was sent for another vector.
	page := string(render(t, "html", run))
	row := regexp.MustCompile(`<code>PIL-TRACE-FETCH-INDISTINGUISHABLE-B</code></td><td[^>]*><a href="#(call-\d+)">failed</a>`).FindStringSubmatch(page)
	if row == nil || !strings.Contains(page, `id="`+row[1]+`" data-failed="true" data-verdict="fail"><td>trace-unstored-run</td>`) {
		t.Errorf("PIL-TRACE-FETCH-INDISTINGUISHABLE-B does not link to the failed trace-unstored-run call")
	}
}

// TestCoverageFailOn (review B 1g): the coverage fails what the run's
// threshold fails. Before, only error findings failed a call, so
// --fail-on warning exited 1 on a warning at catalog-list-again while the
// coverage said every vector passed.
func TestCoverageFailOn(t *testing.T) {
	fs := []lint.Finding{finding("call-catalog-token-changed-needlessly", lint.Warning, "/calls/1/result/structuredContent/catalog_version")}
	run := coverRun([]string{"catalog-list", "catalog-list-again"}, fs, nil, "")
	if got, _ := coverageOf(t, run).vector("PIL-CATALOG-VERSION-STABLE-G"); got != probe.Passed {
		t.Errorf("at the default threshold, a warning failed the vector: %q", got)
	}
	run = coverRun([]string{"catalog-list", "catalog-list-again"}, fs, nil, "")
	run.FailOn = lint.Warning
	doc := coverageOf(t, run)
	if got, _ := doc.vector("PIL-CATALOG-VERSION-STABLE-G"); got != probe.Failed || doc.Coverage.FailedCalls != 1 {
		t.Errorf("--fail-on warning: PIL-CATALOG-VERSION-STABLE-G is %q with %d failed calls, want failed with 1", got, doc.Coverage.FailedCalls)
	}
	if text := string(render(t, "text", run)); !strings.Contains(text, "(1 passed, 1 failed") {
		t.Errorf("text:\n%s", text)
	}
	if page := string(render(t, "html", run)); !strings.Contains(page, `data-verdict="fail"><td>catalog-list-again</td>`) {
		t.Error("the page does not show catalog-list-again as failed")
	}
	// pilotagetest's figures come from the same function, with its FailOn.
	if cov := report.Coverage(run.Result, run.Probes, lint.Warning); cov.Failed != 1 {
		t.Errorf("report.Coverage with FailOn(Warning): %d failed vectors", cov.Failed)
	}
}

// TestHTMLSuppressedCall (review B 1e): a call whose only failing finding
// a baseline or ignore entry suppressed has its own badge and list, not
// "pass", and the text's reason for its vector names what was suppressed.
func TestHTMLSuppressedCall(t *testing.T) {
	run := coverRun([]string{"trace-unknown-run", "trace-refused-run"}, nil,
		[]lint.Finding{finding("result-not-found-distinguishable", lint.Error, "/calls/1/result")},
		`[{"name": "trace-unstored-run", "language": "calc/1", "kind": "needs-probe-run", "reason": "needs --probe-run"}]`)
	page := string(render(t, "html", run))
	for _, want := range []string{
		`data-verdict="suppressed"><td>trace-refused-run</td>`,
		`<span class="suppressed">suppressed</span>`,
		`<summary>1 suppressed probe call(s)</summary>`,
		`<summary>1 passing probe call(s)</summary>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	text := string(render(t, "text", run))
	if want := "probe coverage: PIL-TRACE-FETCH-INDISTINGUISHABLE-B suppressed: trace-refused-run (calc/1): result-not-found-distinguishable suppressed by a baseline or ignore entry; trace-unstored-run (calc/1): needs --probe-run"; !strings.Contains(text, want) {
		t.Errorf("the text lacks %q:\n%s", want, text)
	}
}

// unsentSkips are probe_skips of a session that ended before any probe:
// every probe the table has, on one Language.
func unsentSkips(reason string, kind probe.SkipKind) string {
	var out []probe.Skipped
	for _, p := range append(append([]*probe.Probe(nil), probe.Set...), probe.UnknownTool) {
		out = append(out, probe.Skipped{Name: p.Name, Language: "calc/1", Kind: kind, Reason: reason})
	}
	b, _ := json.Marshal(out)
	return string(b)
}

// TestCoverageFromSkipsAlone (review B 1b): a probed snapshot whose
// session ended before the first probe call still has a coverage, which
// says that nothing was sent and why. Before, Cover returned nil without
// calls: no coverage line, no coverage member.
func TestCoverageFromSkipsAlone(t *testing.T) {
	run := coverRun(nil, nil, nil, unsentSkips("not sent: the session ran out of its --timeout first", probe.Unsent))
	doc := coverageOf(t, run)
	if c := doc.Coverage; c.Calls != 0 || c.Passed != 0 || c.NotSent != 34 {
		t.Errorf("coverage %+v", c)
	}
	text := string(render(t, "text", run))
	for _, want := range []string{
		"probe coverage: 0 of 52 official server vectors probed (0 passed, 0 failed), 0 not applicable, 34 not sent,",
		"\nprobe coverage: not sent: the session ran out of its --timeout first: PIL-CARRIER-UNKNOWN-TOOL-B, ",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text lacks %q:\n%s", want, text)
		}
	}
}

// TestCoverageGroupsBySkipKind (review B 2g): vectors share one line when
// their probes were not sent because the session ended (Skip kind
// unsent), whatever the reason's words; skips of another kind are never
// grouped, even when their reason starts with "not sent". Before, the
// grouping read the text's prefix.
func TestCoverageGroupsBySkipKind(t *testing.T) {
	text := string(render(t, "text", coverRun(nil, nil, nil, unsentSkips("the connection to the server was lost", probe.Unsent))))
	if !strings.Contains(text, "\nprobe coverage: not sent: the connection to the server was lost: PIL-CARRIER-UNKNOWN-TOOL-B, ") {
		t.Errorf("session-ended skips are not grouped:\n%s", text)
	}
	text = string(render(t, "text", coverRun(nil, nil, nil, unsentSkips("not sent: no value fits the declared schema", probe.NoFit))))
	if strings.Contains(text, ": PIL-CARRIER-UNKNOWN-TOOL-B, ") || !strings.Contains(text, "\nprobe coverage: PIL-CARRIER-UNKNOWN-TOOL-B not sent: unknown-tool (calc/1): not sent: no value fits the declared schema\n") {
		t.Errorf("skips of a Language's schema were grouped as if the session had ended:\n%s", text)
	}
}

// TestSkippedHint (review B 3d): "lint a snapshot, or pass --manifest" is
// said only where it helps: not for a snapshot, and not "pass --manifest"
// when one was given.
func TestSkippedHint(t *testing.T) {
	run := &report.Run{Result: &lint.Result{
		Files:   []lint.FileInfo{{Path: "s.json", Kind: "snapshot"}},
		Skipped: []lint.Skipped{{File: "s.json", Checks: []string{"the answer to probe x, because y"}}},
	}}
	if text := string(render(t, "text", run)); text != "s.json: cross-checks not run: the answer to probe x, because y\n0 errors, 0 warnings, 0 infos in 1 file\n" {
		t.Errorf("snapshot: %q", text)
	}
	// A tools/list linted with a --manifest cut short: the manifest joins
	// no input, so its cross-checks do not run, and passing --manifest is
	// what the user did.
	tools := `{"tools": [{"name": "pilotage_catalog", "inputSchema": {"type": "object"}}]}`
	res, err := lint.Run(context.Background(), []lint.Input{{Name: "tools.json", Data: []byte(tools), Explicit: true}},
		&lint.Options{Rules: rules.All(), Manifest: &lint.Input{Name: "m.json", Data: []byte(`{"pilotage": "1.1", "languages": [`)}})
	if err != nil {
		t.Fatal(err)
	}
	text := string(render(t, "text", &report.Run{Result: res}))
	if !strings.Contains(text, "tools.json: cross-checks not run because the input lacks what they compare: ") || strings.Contains(text, "pass --manifest") || !strings.Contains(text, "(lint a snapshot)\n") {
		t.Errorf("with --manifest:\n%s", text)
	}
}
