package probe_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
)

func call(name, lang, pointer string) probe.Call {
	return probe.Call{File: "s.json", Pointer: pointer, Probe: probe.ByName(name), Language: lang, Answer: json.RawMessage(`{}`), AnswerKind: "result"}
}

func skip(name, lang string, kind probe.SkipKind, reason string) probe.Skipped {
	return probe.Skipped{File: "s.json", Name: name, Language: lang, Kind: kind, Reason: reason}
}

func statusOf(cov *probe.Coverage, id string) probe.Vector {
	for _, v := range cov.Vectors {
		if v.ID == id {
			return v
		}
	}
	return probe.Vector{}
}

// TestCoverNeverOverstates: a vector is passed only when every probe it
// names was sent, answered and judged; a skipped probe, a suppressed
// failure, an unanswered call and a listing not followed to its end each
// keep it from passing, with the true reason.
func TestCoverNeverOverstates(t *testing.T) {
	const ind = "PIL-TRACE-FETCH-INDISTINGUISHABLE-B"
	var clean []probe.Mark
	mark := func(kind probe.MarkKind, rule, pointer string) []probe.Mark {
		return []probe.Mark{{File: "s.json", Pointer: pointer, Rule: rule, Kind: kind, What: "the answer to probe x, because y"}}
	}
	for _, tc := range []struct {
		name   string
		calls  []probe.Call
		skips  []probe.Skipped
		marks  []probe.Mark
		vector string
		status string
		why    string
	}{
		{"every probe sent", []probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-refused-run", "a/1", "/calls/1"), call("trace-unstored-run", "a/1", "/calls/2")}, nil, clean, ind, probe.Passed, ""},
		{"no refused Run", []probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-unstored-run", "a/1", "/calls/1")},
			[]probe.Skipped{skip("trace-refused-run", "a/1", probe.Unmet, probe.ReasonNoRefusedRun)}, clean, ind, probe.Partial, "trace-refused-run (a/1): no refused Run to fetch"},
		{"needs --probe-run for one probe", []probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-refused-run", "a/1", "/calls/1")},
			[]probe.Skipped{skip("trace-unstored-run", "a/1", probe.NoProbeRun, probe.ReasonNoProbeRun)}, clean, ind, probe.Partial, "trace-unstored-run (a/1): needs --probe-run"},
		{"a supporting probe outside every Language", []probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-refused-run", "a/1", "/calls/1")},
			[]probe.Skipped{skip("trace-unstored-run", "a/1", probe.Undeclared, "the Language retains no Run")}, clean, ind, probe.Passed, ""},
		{"only --probe-run could send it", []probe.Call{call("guide-index", "a/1", "/calls/0")},
			[]probe.Skipped{skip("execute-test-run", "a/1", probe.NoProbeRun, probe.ReasonNoProbeRun)}, clean, "PIL-EXECUTE-SUCCESS-G", probe.NeedsRun, "execute-test-run (a/1): needs --probe-run"},
		{"declared nowhere", []probe.Call{call("guide-index", "a/1", "/calls/0")},
			[]probe.Skipped{skip("catalog-unknown-baseline", "a/1", probe.Undeclared, "the Language declares no catalog.changed_since")}, clean, "PIL-LOOKUP-UNKNOWN-BASELINE-B", probe.NotApplicable, "catalog-unknown-baseline (a/1): the Language declares no catalog.changed_since"},
		{"no value fits", []probe.Call{call("guide-index", "a/1", "/calls/0")},
			[]probe.Skipped{skip("validate-unparsable-again", "a/1", probe.NoFit, probe.ReasonNoFit+" of v's inputSchema")}, clean, "PIL-VALIDATE-SIDE-EFFECT-FREE-G", probe.NotSent, "validate-unparsable-again (a/1): no value fits the declared schema of v's inputSchema"},
		{"declared on one Language, not on another", []probe.Call{call("guide-index", "a/1", "/calls/0")},
			[]probe.Skipped{skip("guide-index", "b/1", probe.Undeclared, "the Language declares no guides")}, clean, "PIL-LEARN-INDEX-G", probe.Passed, ""},
		{"suppressed", []probe.Call{call("guide-index", "a/1", "/calls/0")}, nil,
			mark(probe.MarkSuppressed, "result-guide-index-body", "/calls/0/result"), "PIL-LEARN-INDEX-G", probe.Suppressed, "guide-index (a/1): result-guide-index-body suppressed by a baseline or ignore entry"},
		{"failed", []probe.Call{call("guide-index", "a/1", "/calls/0")}, nil,
			mark(probe.MarkFailed, "result-guide-index-body", "/calls/0/result"), "PIL-LEARN-INDEX-G", probe.Failed, ""},
		{"not judged", []probe.Call{call("guide-unknown-id", "a/1", "/calls/0")}, nil,
			mark(probe.MarkUnjudged, probe.ExpectationRule, "/calls/0"), "PIL-LEARN-UNKNOWN-ID-B", probe.Partial, "guide-unknown-id (a/1): not judged: the answer to probe x, because y"},
		{"any rule on the vector's own probe", []probe.Call{call("guide-unknown-id", "a/1", "/calls/0")}, nil,
			mark(probe.MarkFailed, "result-is-error-misused", "/calls/0/result/isError"), "PIL-LEARN-UNKNOWN-ID-B", probe.Failed, ""},
		{"probe-expectation on a supporting listing", []probe.Call{call("catalog-list", "a/1", "/calls/0"), call("catalog-list-again", "a/1", "/calls/1")}, nil,
			mark(probe.MarkFailed, probe.ExpectationRule, "/calls/0/result/structuredContent/next_cursor"), "PIL-CATALOG-VERSION-STABLE-G", probe.Passed, ""},
		{"a deciding rule on a supporting probe", []probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-refused-run", "a/1", "/calls/1"), call("trace-unstored-run", "a/1", "/calls/2")}, nil,
			mark(probe.MarkFailed, "result-not-found-distinguishable", "/calls/2/result"), ind, probe.Failed, ""},
		{"an unjudged supporting answer another rule decides", []probe.Call{call("catalog-list", "a/1", "/calls/0"), call("catalog-list-again", "a/1", "/calls/1")}, nil,
			mark(probe.MarkUnjudged, probe.ExpectationRule, "/calls/0"), "PIL-CATALOG-VERSION-STABLE-G", probe.Passed, ""},
		{"no answer", []probe.Call{{File: "s.json", Pointer: "/calls/0", Probe: probe.ByName("guide-index"), Language: "a/1", AnswerKind: "timeout", Failure: "the connection to the server was closed"}}, nil, clean,
			"PIL-LEARN-INDEX-G", probe.Unanswered, "guide-index (a/1): no answer: the connection to the server was closed"},
		{"a listing that stopped", []probe.Call{call("catalog-list", "a/1", "/calls/0"), func() probe.Call {
			c := call("catalog-list-paged", "a/1", "/calls/1")
			c.Stopped = "stopped at the cap of 100 pages with next_cursor still set"
			return c
		}()}, nil, clean, "PIL-LOOKUP-PAGINATION-G", probe.Partial, "catalog-list-paged (a/1): not judged as a whole listing: stopped at the cap of 100 pages with next_cursor still set"},
		{"a stopped listing a vector compares only the first page of", []probe.Call{func() probe.Call {
			c := call("catalog-list", "a/1", "/calls/0")
			c.Stopped = "next_cursor \"at-2\" was followed from page 1 already"
			return c
		}(), call("catalog-list-again", "a/1", "/calls/1")}, nil, clean, "PIL-CATALOG-VERSION-STABLE-G", probe.Passed, ""},
		{"unrecorded", []probe.Call{call("guide-index", "a/1", "/calls/0")}, nil, clean, "PIL-LEARN-FETCH-G", probe.NotSent, "guide-fetch: not sent: the snapshot does not say why"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cov := probe.Cover(tc.calls, tc.skips, tc.marks)
			v := statusOf(cov, tc.vector)
			why := strings.Join(v.Why, "; ")
			if v.Status != tc.status || !strings.HasPrefix(why, tc.why) || (tc.why == "" && why != "") {
				t.Errorf("%s: %s (%s), want %s (%s)", tc.vector, v.Status, why, tc.status, tc.why)
			}
			sum := cov.Passed + cov.Failed + cov.Suppressed + cov.Partial + cov.Unanswered + cov.NotApplicable + cov.NeedsRun + cov.NotSent + cov.Offline + cov.Recorded + cov.Setup
			if sum != cov.Total || cov.Probed != cov.Passed+cov.Failed+cov.Suppressed+cov.Partial+cov.Unanswered {
				t.Errorf("the figures do not add up: %+v", cov)
			}
		})
	}
}

// TestCoverageText: the text line names every figure that is not zero,
// and a line per vector that was probed but neither passed nor failed.
func TestCoverageText(t *testing.T) {
	cov := probe.Cover([]probe.Call{call("trace-unknown-run", "a/1", "/calls/0"), call("trace-refused-run", "a/1", "/calls/1"), call("guide-index", "a/1", "/calls/2")},
		[]probe.Skipped{skip("trace-unstored-run", "a/1", probe.NoProbeRun, probe.ReasonNoProbeRun)},
		[]probe.Mark{{File: "s.json", Pointer: "/calls/2/result", Rule: "shape-result", Kind: probe.MarkSuppressed}})
	got := cov.String()
	for _, want := range []string{
		"probe coverage: 2 of 52 official server vectors probed (0 passed, 0 failed, 1 suppressed, 1 partly probed)",
		"; 3 probe calls, 0 failed, 1 suppressed",
		"\nprobe coverage: PIL-TRACE-FETCH-INDISTINGUISHABLE-B partly probed: trace-unstored-run (a/1): needs --probe-run",
		"\nprobe coverage: PIL-LEARN-INDEX-G suppressed",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the text lacks %q:\n%s", want, got)
		}
	}
}
