package rulekit_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// modelTools and modelManifest serve two Languages: flow/1 holds
// idempotency keys for its whole Session, short/1 for at least an hour,
// which a recording without timestamps cannot show to cover anything.
const modelTools = `
    {"name": "validate_w", "inputSchema": {"type": "object", "properties": {"w": {}, "context": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}},
    {"name": "run_w", "inputSchema": {"type": "object", "properties": {"w": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}},
    {"name": "run_s", "inputSchema": {"type": "object", "properties": {"s": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "s", "language": "short/1"}}},
    {"name": "world_status", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}},
    {"name": "world_advance", "inputSchema": {"type": "object"}}`

const modelManifest = `{"pilotage": %q, "languages": [
    {"name": "flow/1", "loop": {"validate": "validate_w", "execute": "run_w"}, "execution": "both", "trace": "full", "retention": "session"%s,
     "capabilities": {"guides": true, "catalog": true, "validate": true, "plan": true, "execute": {"idempotency": true, "test_run": true}}},
    {"name": "short/1", "loop": {"validate": "validate_w", "execute": "run_s"}, "execution": "immediate", "trace": "full", "retention": "PT1H",
     "capabilities": {"guides": true, "validate": true, "execute": {"idempotency": true}}}
  ]}`

func modelSnapshot(t *testing.T, version, langExtra, calls string) *snapshot.Snapshot {
	t.Helper()
	doc := fmt.Sprintf(`{"tools": [%s], "manifest": %s, "calls": [%s]}`, modelTools, fmt.Sprintf(modelManifest, version, langExtra), calls)
	s, err := snapshot.Build(source.Parse("model.json", []byte(doc), source.Options{}), "")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// run is an execute call of tool with a program, extra arguments and a
// result.
func run(tool, prog, args, result string) string {
	arg := "w"
	if tool == "run_s" {
		arg = "s"
	}
	if args != "" {
		args = ", " + args
	}
	return fmt.Sprintf(`{"name": %q, "arguments": {%q: %s%s}, "result": %s}`, tool, arg, prog, args, result)
}

func ran(id string) string {
	return `{"structuredContent": {"run_id": "` + id + `", "outcome": {"ok": true, "status": "success", "error": null}}}`
}

func refused(id, status string) string {
	return `{"structuredContent": {"run_id": "` + id + `", "outcome": {"ok": false, "status": "` + status + `", "error": "refused"}}}`
}

const conflict = `{"isError": true, "structuredContent": {"error": {"kind": "idempotency_conflict", "message": "key reused"}}}`

func TestModelReplays(t *testing.T) {
	calls := []string{
		/* 0 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k1"`, ran("r1")),
		// The same request under another token and store: a replay.
		/* 1 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k1", "store": false, "expected_catalog_version": "old"`, ran("r1")),
		// Another program under the held key: a conflict.
		/* 2 */ run("run_w", `{"a": 2}`, `"idempotency_key": "k1"`, conflict),
		// A refused Run is not held, so the retry is a new Run.
		/* 3 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k2"`, refused("r2", "catalog_drift")),
		/* 4 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k2"`, ran("r3")),
		// A lost answer, then the retry: a replay that may have run.
		/* 5 */ `{"name": "run_w", "arguments": {"w": {"a": 1}, "idempotency_key": "k3"}, "error": {"code": -32603, "message": "timeout"}}`,
		/* 6 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k3"`, ran("r4")),
		// Under an hour's retention the window may close between two
		// calls: a new run_id is a new Run, and another program under the
		// same key is no conflict; the Server's own run_id shows a replay.
		/* 7 */ run("run_s", `"x"`, `"idempotency_key": "k1"`, ran("s1")),
		/* 8 */ run("run_s", `"x"`, `"idempotency_key": "k1"`, ran("s2")),
		/* 9 */ run("run_s", `"x"`, `"idempotency_key": "k1"`, ran("s2")),
		/* 10 */ run("run_s", `"y"`, `"idempotency_key": "k1"`, ran("s3")),
		// input sent as null is no input.
		/* 11 */ run("run_w", `{"a": 1}`, `"idempotency_key": "k1", "input": null`, ran("r1")),
	}
	s := modelSnapshot(t, "1.1", "", join(calls))
	m := rulekit.Of(s)
	if m != rulekit.Of(s) {
		t.Fatal("Of built two models for one snapshot")
	}
	c := s.Calls
	type want struct {
		replayOf int // -1: no replay
		window   bool
		conflict int
		newRun   bool
	}
	wants := []want{
		{-1, false, -1, true},
		{0, true, -1, false},
		{-1, false, 0, false},
		{-1, false, -1, false},
		{-1, false, -1, true},
		{-1, false, -1, false},
		{5, true, -1, false},
		{-1, false, -1, true},
		{-1, false, -1, true},
		{8, false, -1, false},
		{-1, false, -1, true},
		{0, true, -1, false},
	}
	for i, w := range wants {
		got := want{-1, false, -1, m.NewRun(c[i])}
		if r := m.ReplayOf(c[i]); r != nil {
			got.replayOf, got.window = m.Index(r.Original), r.Window
			if r.Call != c[i] {
				t.Errorf("call %d: Replay.Call is another call", i)
			}
		}
		if o := m.Conflict(c[i]); o != nil {
			got.conflict = m.Index(o)
		}
		if got != w {
			t.Errorf("call %d: got %+v, want %+v", i, got, w)
		}
	}
	if n := len(m.Replays()); n != 4 {
		t.Errorf("Replays: %d, want 4", n)
	}
	if r := m.ReplayOf(c[6]); r.Known() {
		t.Error("a replay of a lost answer cannot be compared with it")
	}
}

func TestModelWrites(t *testing.T) {
	calls := []string{
		/* 0 */ `{"name": "pilotage_manifest", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 1 */ `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [], "catalog_version": "c1"}}}`,
		/* 2 */ `{"name": "validate_w", "arguments": {"w": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}}`,
		/* 3 */ run("run_w", `{}`, `"mode": "immediate"`, ran("r1")),
		/* 4 */ run("run_w", `{}`, `"mode": "deploy", "test_run": true`, ran("r2")),
		/* 5 */ run("run_w", `{}`, `"mode": "immediate"`, refused("r3", "validation_error")),
		/* 6 */ run("run_w", `{}`, ``, `{"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "mode"}}}`),
		/* 7 */ `{"name": "world_status", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 8 */ `{"name": "world_advance", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 9 */ `{"name": "run_w", "arguments": {"w": {}, "mode": "immediate"}, "error": {"code": -32603, "message": "timeout"}}`,
		/* 10 */ run("run_w", `{}`, `"mode": "deploy", "idempotency_key": "k"`, ran("r4")),
		/* 11 */ run("run_w", `{}`, `"mode": "deploy", "idempotency_key": "k"`, ran("r4")),
		/* 12 */ run("run_s", `"x"`, `"test_run": true`, ran("s1")),
		/* 13 */ `{"name": "unlisted_tool", "arguments": {}, "result": {"structuredContent": {}}}`,
	}
	s := modelSnapshot(t, "1.1", "", join(calls))
	m := rulekit.Of(s)
	// A test run of a Language without execute.test_run ran for real.
	writes := []bool{false, false, false, true, false, false, false, false, true, true, true, false, true, true}
	for i, w := range writes {
		if got := m.Writes(s.Calls[i]); got != w {
			t.Errorf("call %d (%s): Writes %t, want %t", i, s.Calls[i].Name, got, w)
		}
	}
	c := s.Calls
	for _, tc := range []struct {
		a, b  int
		reads bool
	}{
		{0, 3, true}, {2, 4, false}, {4, 2, false}, {3, 8, true}, {4, 9, false}, {10, 12, true}, {11, 13, false}, {5, 5, true}, {5, 6, true},
	} {
		if got := m.ReadsBetween(c[tc.a], c[tc.b]); got != tc.reads {
			t.Errorf("ReadsBetween(%d, %d) = %t, want %t", tc.a, tc.b, got, tc.reads)
		}
	}
}

func TestModelVersion(t *testing.T) {
	calls := join([]string{
		run("run_w", `{}`, `"mode": "immediate"`, ran("r1")),
		run("run_s", `"x"`, ``, ran("s1")),
		run("run_s", `"x"`, `"priority": 2`, ran("s2")),
		`{"name": "validate_w", "arguments": {"s": "x", "context_ref": "c"}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}}`,
	})
	for _, tc := range []struct {
		version, extra string
		later          bool
		extended       []bool
	}{
		{"1.1", `, "context_ref": "c"`, false, []bool{false, false, false, false}},
		{"1.2", ``, true, []bool{false, false, true, true}},
		{"1.2", `, "context_ref": "c"`, true, []bool{true, false, true, true}},
		{"1.2", `, "capabilities_note": 1`, true, []bool{true, false, true, true}},
	} {
		s := modelSnapshot(t, tc.version, tc.extra, calls)
		m := rulekit.Of(s)
		if m.LaterMinor() != tc.later {
			t.Errorf("%s %s: LaterMinor %t", tc.version, tc.extra, m.LaterMinor())
		}
		for i, want := range tc.extended {
			if got := m.Extended(s.Calls[i]); got != want {
				t.Errorf("%s %s: call %d Extended %t, want %t", tc.version, tc.extra, i, got, want)
			}
		}
	}
	// An unknown sub-feature under a later minor extends the Language.
	s := modelSnapshot(t, "1.2", ``, join([]string{run("run_w", `{}`, `"mode": "immediate"`, ran("r1")), run("run_s", `"x"`, ``, ran("s1"))}))
	s.Languages[1].Caps.Lang = parse(t, `{"execute": {"priority": true}}`)
	if m := rulekit.Of(s); !m.Extended(s.Calls[1]) || m.Extended(s.Calls[0]) {
		t.Error("an unknown sub-feature of short/1 extends its calls only")
	}
}

func TestModelPlanOf(t *testing.T) {
	validate := func(prog, cv string) string {
		return `{"name": "validate_w", "arguments": {"w": ` + prog + `}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "` + cv + `", "plan": {"steps": []}}}}`
	}
	calls := []string{
		/* 0 */ validate(`{"a": 1}`, "c1"),
		/* 1 */ run("run_w", `{"a": 1}`, `"mode": "immediate", "expected_catalog_version": "c1"`, ran("r1")),
		// A write between them, but the Run started under the plan's token.
		/* 2 */ `{"name": "world_advance", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 3 */ run("run_w", `{"a": 1}`, `"mode": "immediate", "expected_catalog_version": "c1", "idempotency_key": "k"`, ran("r2")),
		// Without a token, a write between pairs nothing; nor does a
		// replay, a deploy Run, or another token.
		/* 4 */ run("run_w", `{"a": 1}`, `"mode": "immediate"`, ran("r3")),
		/* 5 */ run("run_w", `{"a": 1}`, `"mode": "immediate", "expected_catalog_version": "c1", "idempotency_key": "k"`, ran("r2")),
		/* 6 */ run("run_w", `{"a": 1}`, `"mode": "deploy", "expected_catalog_version": "c1"`, ran("r4")),
		/* 7 */ run("run_w", `{"a": 1}`, `"mode": "immediate", "expected_catalog_version": "c2"`, ran("r5")),
		// Only reads between: paired without a token; a test run of a
		// deploy is the body's own trace.
		/* 8 */ validate(`{"a": 2}`, "c1"),
		/* 9 */ `{"name": "world_status", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 10 */ run("run_w", `{"a": 2}`, `"mode": "deploy", "test_run": true`, ran("r6")),
	}
	s := modelSnapshot(t, "1.1", "", join(calls))
	m := rulekit.Of(s)
	want := map[int]int{1: 0, 3: 0, 4: -1, 5: -1, 6: -1, 7: -1, 10: 8}
	for x, v := range want {
		got := -1
		if vc, plan := m.PlanOf(s.Calls[x]); vc != nil {
			got = m.Index(vc)
			if plan != vc.StructuredContent.Get("plan") {
				t.Errorf("PlanOf(%d) returned another plan than its validate's", x)
			}
		}
		if got != v {
			t.Errorf("PlanOf(%d) = %d, want %d", x, got, v)
		}
	}
}

func TestTraceScope(t *testing.T) {
	steps := parse(t, `[{"id": "a"}, {"id": "call#2/b#1"}, {"id": "c#3"}, {"id": 7}, {"id": "call/x/y"}, {"id": ""}]`).Kids()
	var got []string
	for _, e := range rulekit.Unprefixed(steps) {
		id, _ := e.Str("id")
		got = append(got, id)
	}
	if fmt.Sprint(got) != "[a c#3]" {
		t.Errorf("Unprefixed = %v", got)
	}
	for id, want := range map[string]string{"a": "", "call#2/b#1": "call#2", "call/x/y": "call/x", "/x": ""} {
		p, ok := rulekit.TracePrefix(id)
		if p != want || ok != strings.Contains(id, "/") {
			t.Errorf("TracePrefix(%q) = %q, %t, want %q", id, p, ok, want)
		}
	}
}

func join(calls []string) string {
	out := ""
	for i, c := range calls {
		if i > 0 {
			out += ",\n"
		}
		out += c
	}
	return out
}

// TestModelRetentionNone: under retention "none" the deduplication window
// "MUST be at least as long as the declared retention period" (Part II
// §6.5.6) has no minimum, so not even two probe calls sent back to back
// are certainly inside it: a new run_id is a new Run, another program
// under the same key no conflict. The Server's own run_id still shows a
// replay, and a retry after a lost answer may be one.
func TestModelRetentionNone(t *testing.T) {
	probe := func(call, name string) string {
		return call[:len(call)-1] + `, "probe": {"name": "` + name + `"}}`
	}
	calls := join([]string{
		/* 0 */ probe(run("run_w", `{"a": 1}`, `"idempotency_key": "k1"`, ran("r1")), "execute-idempotent-first"),
		/* 1 */ probe(run("run_w", `{"a": 1}`, `"idempotency_key": "k1"`, ran("r2")), "execute-idempotent-replay"),
		/* 2 */ probe(run("run_w", `{"a": 1}`, `"idempotency_key": "k1"`, ran("r2")), "execute-idempotent-replay"),
		/* 3 */ probe(run("run_w", `{"a": 1}`, `"idempotency_key": "k2"`, ran("r3")), "execute-idempotent-first"),
		/* 4 */ probe(run("run_w", `{"a": 2}`, `"idempotency_key": "k2"`, conflict), "execute-idempotent-conflict"),
	})
	for _, tc := range []struct {
		retention string
		replayOf  []int // per call, -1 for none
		window    []bool
		conflict  []int
	}{
		{"none", []int{-1, -1, 1, -1, -1}, []bool{false, false, false, false, false}, []int{-1, -1, -1, -1, -1}},
		// The same calls under an hour: adjacent probes are inside the
		// window, so call 1 is a replay and call 4 a conflict.
		{"PT1H", []int{-1, 0, -1, -1, -1}, []bool{false, true, false, false, false}, []int{-1, -1, -1, -1, 3}},
	} {
		doc := fmt.Sprintf(`{"tools": [%s], "manifest": {"pilotage": "1.1", "languages": [
		    {"name": "flow/1", "loop": {"validate": "validate_w", "execute": "run_w"}, "execution": "immediate", "trace": "full", "retention": %q,
		     "capabilities": {"guides": true, "validate": true, "execute": {"idempotency": true}}}]}, "calls": [%s]}`, modelTools, tc.retention, calls)
		s, err := snapshot.Build(source.Parse("model.json", []byte(doc), source.Options{}), "")
		if err != nil {
			t.Fatal(err)
		}
		m := rulekit.Of(s)
		for i, c := range s.Calls {
			replayOf, window, conflict := -1, false, -1
			if r := m.ReplayOf(c); r != nil {
				replayOf, window = m.Index(r.Original), r.Window
			}
			if o := m.Conflict(c); o != nil {
				conflict = m.Index(o)
			}
			if replayOf != tc.replayOf[i] || window != tc.window[i] || conflict != tc.conflict[i] {
				t.Errorf("retention %s, call %d: replay of %d (window %t), conflict with %d; want %d (%t), %d", tc.retention, i, replayOf, window, conflict, tc.replayOf[i], tc.window[i], tc.conflict[i])
			}
		}
	}
}

// TestRetainsFor: the one reading of a retention that the stored-Run rule
// (an hour's probe run) and the deduplication window (a whole recording,
// a day) both ask, each with its own span.
func TestRetainsFor(t *testing.T) {
	s := modelSnapshot(t, "1.1", "", "")
	m := rulekit.Of(s)
	flow, short := s.Languages[0], s.Languages[1]
	for _, tc := range []struct {
		l    *snapshot.Language
		span time.Duration
		want bool
	}{
		{flow, rulekit.RecordingSpan, true}, // session
		{flow, rulekit.ProbeRunSpan, true},
		{short, rulekit.ProbeRunSpan, true}, // PT1H
		{short, rulekit.RecordingSpan, false},
		{nil, time.Second, false},
	} {
		if got := m.RetainsFor(tc.l, tc.span); got != tc.want {
			t.Errorf("RetainsFor(%v, %s) = %t, want %t", tc.l, tc.span, got, tc.want)
		}
	}
	for v, want := range map[string]bool{"none": false, "P1D": true, "PT23H": false, "soon": false} {
		s.Languages[1].Node = parse(t, `{"retention": "`+v+`"}`)
		if got := m.RetainsFor(s.Languages[1], rulekit.RecordingSpan); got != want {
			t.Errorf("retention %q: RetainsFor a day = %t, want %t", v, got, want)
		}
	}
}

// TestModelEntryAt: the catalog entry a call is judged against is the
// latest showing before it, when that showing speaks for the catalog the
// call saw: the same catalog_version, or only reads between.
func TestModelEntryAt(t *testing.T) {
	list := func(cv, item string) string {
		return `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [` + item + `], "catalog_version": "` + cv + `"}}}`
	}
	get := func(cv, entry string) string {
		return `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "x"}, "result": {"structuredContent": {"entry": ` + entry + `, "catalog_version": "` + cv + `"}}}`
	}
	validate := func(cv string) string {
		return `{"name": "validate_w", "arguments": {"w": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "` + cv + `"}}}`
	}
	calls := []string{
		/* 0 */ list("c1", `{"id": "x", "kind": "device", "risk_hints": {"readOnly": true}}`),
		/* 1 */ get("c1", `{"id": "x", "kind": "device"}`),
		/* 2 */ validate("c1"),
		/* 3 */ `{"name": "world_advance", "arguments": {}, "result": {"structuredContent": {}}}`,
		/* 4 */ validate("c2"),
		/* 5 */ validate("c1"),
		/* 6 */ validate(""),
	}
	s := modelSnapshot(t, "1.1", "", join(calls))
	m := rulekit.Of(s)
	flow := s.Languages[0]
	for _, tc := range []struct {
		call         int
		id, cv, with string
		want         int // the showing's call, -1 for none
	}{
		{2, "x", "c1", "", 1},
		{2, "x", "c1", "risk_hints", 0}, // the latest showing that carries risk_hints
		{2, "x", "", "", 1},             // only reads between
		{2, "y", "c1", "", -1},          // never shown
		{0, "x", "c1", "", -1},          // nothing shown before it
		{4, "x", "c2", "", -1},          // a write between, another token
		{5, "x", "c1", "", 1},           // a write between, but the same token
		{6, "x", "", "", -1},            // a write between and no token
	} {
		got := -1
		if e, ok := m.EntryAt(flow, tc.id, s.Calls[tc.call], tc.cv, tc.with); ok {
			got = m.Index(e.Call)
			if id, _ := e.Node.Str("id"); id != tc.id || e.CatalogVersion != "c1" {
				t.Errorf("EntryAt(%d, %q): entry %q at %q", tc.call, tc.id, id, e.CatalogVersion)
			}
		}
		if got != tc.want {
			t.Errorf("EntryAt(call %d, %q, cv %q, with %q) = %d, want %d", tc.call, tc.id, tc.cv, tc.with, got, tc.want)
		}
	}
	if _, ok := m.EntryAt(s.Languages[1], "x", s.Calls[2], "c1", ""); ok {
		t.Error("an entry of flow/1 answered for short/1")
	}
}
