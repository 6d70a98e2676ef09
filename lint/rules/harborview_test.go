package rules_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// harborviewTrue lists the findings the final Harborview sessions draw that
// are true; fixtures/examples/harborview/README.md explains each. Any other
// error on a conformant server's real calls is a false error.
var harborviewTrue = map[string]bool{}

// harborviewSnapshot reduces one recorded agent session to a snapshot
// document: the tool list the agent saw and every tool call with its
// arguments and result, in order.
func harborviewSnapshot(t *testing.T, transcript string) []byte {
	t.Helper()
	f, err := os.Open(transcript)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type call struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
		Result    json.RawMessage `json:"result"`
	}
	var snap struct {
		Tools json.RawMessage `json:"tools"`
		Calls []call          `json:"calls"`
	}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Type   string          `json:"type"`
			Tools  json.RawMessage `json:"tools"`
			Tool   string          `json:"tool"`
			Args   json.RawMessage `json:"args"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		switch rec.Type {
		case "tools":
			snap.Tools = rec.Tools
		case "tool_result":
			snap.Calls = append(snap.Calls, call{rec.Tool, rec.Args, rec.Result})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// TestHarborview keeps the snapshots of the final 1.1 Harborview sessions
// (testdata/reference/transcripts) in step with the transcripts, and holds
// them to no false error: the reference server is conformant.
func TestHarborview(t *testing.T) {
	transcripts, err := filepath.Glob("../../testdata/reference/transcripts/*2026-07-26*.jsonl")
	if err != nil || len(transcripts) == 0 {
		t.Fatalf("no final Harborview transcripts: %v", err)
	}
	for _, tr := range transcripts {
		provider, _, _ := strings.Cut(filepath.Base(tr), "-")
		fixture := "fixtures/examples/harborview/good-" + provider + ".json"
		want := harborviewSnapshot(t, tr)
		if rulestest.Update() {
			if err := os.WriteFile("../../"+fixture, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile("../../" + fixture)
		if err != nil {
			t.Fatalf("missing snapshot (run go test ./lint/rules -run TestHarborview -update): %v", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not the reduction of %s (run with -update)", fixture, tr)
		}
		for _, f := range rulestest.Lint(t, fixture) {
			if f.Severity == lint.Error && !harborviewTrue[f.Rule] {
				t.Errorf("%s:%d:%d: false error %s at %s: %s", fixture, f.Line, f.Column, f.Rule, f.Pointer, f.Message)
			}
		}
	}
}

// harborviewFault is one realistic single fault injected into a real
// Harborview session, and the rule that must catch it.
type harborviewFault struct {
	name, session, rule string
	inject              func(calls []any) []any
}

// obj walks a decoded JSON value by member names and array indexes.
func obj(v any, path ...any) map[string]any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			v = v.(map[string]any)[k]
		case int:
			v = v.([]any)[k]
		}
	}
	return v.(map[string]any)
}

var harborviewFaults = []harborviewFault{
	{"a validate or execute request answered with a JSON-RPC error", "anthropic", "call-carrier-error-loop-fault", func(c []any) []any {
		call := obj(c, 15)
		delete(call, "result")
		call["error"] = map[string]any{"code": -32602, "message": "Invalid params"}
		return c
	}},
	{"an unknown trace_level run anyway", "anthropic", "call-execute-request-fault-accepted", func(c []any) []any {
		obj(c, 9, "arguments")["trace_level"] = "verbose"
		return c
	}},
	{"both runnables run anyway", "anthropic", "call-execute-request-fault-accepted", func(c []any) []any {
		obj(c, 9, "arguments")["program_ref"] = "auto_001"
		return c
	}},
	{"a stale expected_catalog_version run anyway", "anthropic", "call-stale-token-ran", func(c []any) []any {
		obj(c, 9, "arguments")["expected_catalog_version"] = "cv_0000000000000000"
		return c
	}},
	{"context sent without context_schema, answered valid", "anthropic", "call-context-without-schema-accepted", func(c []any) []any {
		obj(c, 7, "arguments")["context"] = map[string]any{"site": "north"}
		return c
	}},
	{"a store: false run fetched later", "gemini", "call-unstored-run-fetched", func(c []any) []any {
		obj(c, 8, "arguments")["store"] = false
		return c
	}},
	{"an idempotent replay that started a new run", "anthropic", "call-idempotent-replay-new-run", func(c []any) []any {
		obj(c, 9, "arguments")["idempotency_key"] = "k1"
		var replay map[string]any
		b, _ := json.Marshal(c[9])
		_ = json.Unmarshal(b, &replay)
		obj(replay, "result", "structuredContent")["run_id"] = "run_0009"
		obj(replay, "result", "structuredContent", "trace")["run_id"] = "run_0009"
		return append(c[:10], append([]any{replay}, c[10:]...)...)
	}},
	{"validate found the program invalid and execute ran it", "anthropic", "call-execute-runs-invalid-program", func(c []any) []any {
		sc := obj(c, 7, "result", "structuredContent")
		sc["valid"] = false
		sc["diagnostics"] = []any{map[string]any{"severity": "error", "code": "unknown_device", "path": "/steps/0/device", "message": "no such device"}}
		delete(sc, "plan")
		return c
	}},
	{"the guide index refused", "anthropic", "call-guide-index-refused", func(c []any) []any {
		obj(c, 1)["result"] = map[string]any{"isError": true, "structuredContent": map[string]any{"error": map[string]any{"kind": "invalid_request", "message": "id required"}}}
		return c
	}},
	{"a trace entry without calls", "anthropic", "call-trace-calls-missing", func(c []any) []any {
		delete(obj(c, 9, "result", "structuredContent", "trace", "steps", 3), "calls")
		return c
	}},
	{"a trace step listed twice", "anthropic", "call-trace-step-duplicate", func(c []any) []any {
		obj(c, 9, "result", "structuredContent", "trace", "steps", 1)["id"] = "lobby_on"
		return c
	}},
	{"a catalog entry whose input_schema is no schema", "anthropic", "call-entry-input-schema-invalid", func(c []any) []any {
		obj(c, 5, "result", "structuredContent", "items", 0, "input_schema")["type"] = "objet"
		return c
	}},
	{"content JSON that contradicts structuredContent", "anthropic", "call-content-mirror", func(c []any) []any {
		obj(c, 7, "result")["content"] = []any{map[string]any{"type": "text", "text": `{"valid": false}`}}
		return c
	}},
	{"output with ok: false", "anthropic", "call-output-on-failure", func(c []any) []any {
		o := obj(c, 10, "result", "structuredContent", "outcome")
		o["ok"], o["status"], o["error"] = false, "partial", "stopped"
		return c
	}},
	{"a fetch that returns another run", "gemini", "call-response-identity", func(c []any) []any {
		obj(c, 9, "result", "structuredContent")["run_id"] = "run_0002"
		return c
	}},
	{"a catalog entry of a kind the closed-sets guide never names", "anthropic", "call-closed-set-unlisted", func(c []any) []any {
		obj(c, 5, "result", "structuredContent", "items", 0)["kind"] = "thermostat"
		return c
	}},
	{"a trace entry that invokes another device than its plan step", "anthropic", "call-trace-calls-unplanned", func(c []any) []any {
		obj(c, 9, "result", "structuredContent", "trace", "steps", 0)["calls"] = "light.floor2_west"
		return c
	}},
	{"a plan step that invokes a device without calls", "anthropic", "call-plan-calls-missing", func(c []any) []any {
		delete(obj(c, 7, "result", "structuredContent", "plan", "steps", 0), "calls")
		return c
	}},
	{"a complete listing that lacks a device the plan calls", "anthropic", "call-plan-calls-unlisted", func(c []any) []any {
		sc := obj(c, 5, "result", "structuredContent")
		items := sc["items"].([]any)
		sc["items"] = append(items[:4:4], items[5:]...) // light.lobby
		return c
	}},
	{"a validate answer naming another catalog_version than the listings around it", "gemini", "call-validate-catalog-version-stale", func(c []any) []any {
		// The agent lists the catalog again right after validating.
		again := clone(c[6])
		obj(c, 7, "result", "structuredContent")["catalog_version"] = "cv_0000000000000000"
		return append(c[:8], append([]any{again}, c[8:]...)...)
	}},
	{"a plan that leaves out the branch its arm names", "anthropic", "result-plan-construct-missing", func(c []any) []any {
		pl := obj(c, 8, "result", "structuredContent", "plan")
		pl["steps"] = pl["steps"].([]any)[1:]
		return c
	}},
	{"a destructive lock labelled safe", "anthropic", "result-risk-safe-destructive", func(c []any) []any {
		obj(c, 5, "result", "structuredContent", "items", 5)["risk"] = "safe"
		return c
	}},
	{"a device the plan invokes listed without input_schema", "anthropic", "result-invoked-entry-input-schema-missing", func(c []any) []any {
		delete(obj(c, 5, "result", "structuredContent", "items", 4), "input_schema") // light.lobby
		return c
	}},
	{"a Run refused for drift that the fetch door returns", "gemini", "call-refused-run-fetched", func(c []any) []any {
		refused := map[string]any{"run_id": "run_0004", "outcome": map[string]any{"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}
		obj(c, 18, "arguments")["expected_catalog_version"] = "cv_0000000000000000"
		obj(c, 18, "result")["structuredContent"] = refused
		obj(c, 19, "result")["structuredContent"] = clone(refused)
		return c
	}},
	{"a trace entry outside any loop with an iteration suffix", "anthropic", "call-trace-step-id-context", func(c []any) []any {
		obj(c, 9, "result", "structuredContent", "trace", "steps", 0)["id"] = "lobby_on#1"
		return c
	}},
	{"a get of a listed device answered not_found", "anthropic", "call-listed-entry-not-found", func(c []any) []any {
		get := map[string]any{"name": "pilotage_catalog", "arguments": map[string]any{"language": "buildingflow/1", "verb": "get", "id": "light.lobby"},
			"result": map[string]any{"isError": true, "structuredContent": map[string]any{"error": map[string]any{"kind": "not_found", "message": "unknown entry"}, "catalog_version": "cv_590fefad56a7a504"}}}
		return append(c[:6], append([]any{get}, c[6:]...)...)
	}},
	{"two guides of the index with one id", "anthropic", "result-guide-id-duplicate", func(c []any) []any {
		obj(c, 1, "result", "structuredContent", "guides", 2)["id"] = "reference"
		return c
	}},
	{"two devices of a listing with one id", "anthropic", "result-catalog-id-duplicate", func(c []any) []any {
		obj(c, 5, "result", "structuredContent", "items", 1)["id"] = "hvac.zone1"
		return c
	}},
	{"a failed Run with output: null", "anthropic", "call-output-on-failure", func(c []any) []any {
		sc := obj(c, 9, "result", "structuredContent")
		sc["outcome"] = map[string]any{"ok": false, "status": "partial", "error": "lock.dock_door did not answer"}
		sc["output"] = nil
		last := obj(sc, "trace", "steps", 3)
		last["outcome"] = map[string]any{"ok": false, "status": "error", "error": "lock.dock_door did not answer"}
		delete(last, "output")
		return c
	}},
	{"a listing with a limit that ends without next_cursor", "anthropic", "call-listing-incomplete", func(c []any) []any {
		// The agent lists three devices, then the whole catalog.
		whole := clone(c[5])
		obj(c, 5, "arguments")["limit"] = 3
		sc := obj(c, 5, "result", "structuredContent")
		sc["items"] = sc["items"].([]any)[:3]
		return append(c[:6], append([]any{whole}, c[6:]...)...)
	}},
	{"a paged catalog whose pages leave out a device the plan calls", "anthropic", "call-plan-calls-unlisted", func(c []any) []any {
		pages := harborviewPages(c[5], 6)
		sc := obj(pages[0], "result", "structuredContent")
		items := sc["items"].([]any)
		sc["items"] = append(items[:4:4], items[5:]...) // light.lobby
		return append(c[:5], append(pages, c[6:]...)...)
	}},
	{"a paged catalog that ends early under the token of a get that returns the rest", "anthropic", "call-listing-incomplete", func(c []any) []any {
		// The agent pages the catalog four devices at a time, then looks
		// up the first device the server left off.
		pages := harborviewPages(c[5], 4)
		delete(obj(pages[1], "result", "structuredContent"), "next_cursor")
		entry := obj(pages[2], "result", "structuredContent", "items", 0)
		get := map[string]any{"name": "pilotage_catalog", "arguments": map[string]any{"language": "buildingflow/1", "verb": "get", "id": entry["id"]},
			"result": map[string]any{"isError": false, "structuredContent": map[string]any{"entry": entry, "catalog_version": "cv_590fefad56a7a504"}}}
		return append(c[:5], append([]any{pages[0], pages[1], get}, c[6:]...)...)
	}},
	{"a second catalog page that hands back its own cursor", "anthropic", "call-listing-cursor-repeats", func(c []any) []any {
		// The agent pages the catalog six entries at a time.
		page2 := clone(c[5]).(map[string]any)
		obj(c, 5, "arguments")["limit"] = 6
		sc := obj(c, 5, "result", "structuredContent")
		items := sc["items"].([]any)
		sc["items"], sc["next_cursor"] = items[:6], "p2"
		obj(page2, "arguments")["limit"], obj(page2, "arguments")["cursor"] = 6, "p2"
		sc2 := obj(page2, "result", "structuredContent")
		sc2["items"], sc2["next_cursor"] = items[6:], "p2"
		return append(c[:6], append([]any{page2}, c[6:]...)...)
	}},
}

// harborviewPages splits a recorded one-page listing into the chain of
// pages a server paging size entries at a time would answer: each page
// sends size as limit and the previous page's next_cursor as cursor.
func harborviewPages(list any, size int) []any {
	items := obj(list, "result", "structuredContent")["items"].([]any)
	var pages []any
	for at := 0; at < len(items); at += size {
		page := clone(list)
		args := obj(page, "arguments")
		args["limit"] = size
		if at > 0 {
			args["cursor"] = fmt.Sprint(at)
		}
		sc := obj(page, "result", "structuredContent")
		sc["items"] = clone(items[at:min(at+size, len(items))])
		if at+size < len(items) {
			sc["next_cursor"] = fmt.Sprint(at + size)
		}
		pages = append(pages, page)
	}
	return pages
}

// TestHarborviewPaged lints a real session whose catalog listing is split
// into whole chains of pages, the way a paging server answers: a complete
// listing joined from its pages must draw no error where the one-page
// listing drew none.
func TestHarborviewPaged(t *testing.T) {
	for _, size := range []int{1, 4, 6, 10} {
		doc := harborviewSession(t, "anthropic")
		c := doc["calls"].([]any)
		doc["calls"] = append(c[:5:5], append(harborviewPages(c[5], size), c[6:]...)...)
		for _, f := range rulestest.Lint(t, writeDoc(t, doc)) {
			if f.Severity == lint.Error && !harborviewTrue[f.Rule] {
				t.Errorf("pages of %d: false error %s at %s: %s", size, f.Rule, f.Pointer, f.Message)
			}
		}
	}
}

// clone deep-copies a decoded JSON value.
func clone(v any) any {
	var out any
	b, _ := json.Marshal(v)
	_ = json.Unmarshal(b, &out)
	return out
}

// harborviewDocFaults are faults that reach beyond the calls, such as a
// tool's inputSchema.
var harborviewDocFaults = []struct {
	name, session, rule string
	inject              func(doc map[string]any)
}{
	{"an execute tool that runs program_ref without declaring it", "anthropic", "call-program-ref-undeclared", func(doc map[string]any) {
		for _, t := range doc["tools"].([]any) {
			if t := t.(map[string]any); t["name"] == "run_flow" {
				delete(obj(t, "inputSchema", "properties"), "program_ref")
			}
		}
		// The server resolves the automation and refuses it as drifted.
		obj(doc, "calls", 12)["result"] = map[string]any{"isError": false, "structuredContent": map[string]any{"run_id": "run_0003", "outcome": map[string]any{"ok": false, "status": "promotion_drift", "error": "light.lobby changed since promotion"}}}
	}},
}

// TestHarborviewFaults injects one realistic fault at a time into the real
// sessions and requires the rule written for it to catch it: the rules fire
// on real exchanges, not only on the hand-made fixtures.
func TestHarborviewFaults(t *testing.T) {
	for _, f := range harborviewFaults {
		t.Run(f.name, func(t *testing.T) {
			harborviewMutant(t, f.name, f.session, f.rule, func(doc map[string]any) { doc["calls"] = f.inject(doc["calls"].([]any)) })
		})
	}
	for _, f := range harborviewDocFaults {
		t.Run(f.name, func(t *testing.T) { harborviewMutant(t, f.name, f.session, f.rule, f.inject) })
	}
}

// harborviewMutant lints session with inject's fault and requires rule
// to report it.
func harborviewMutant(t *testing.T, name, session, rule string, inject func(map[string]any)) {
	t.Helper()
	doc := harborviewSession(t, session)
	inject(doc)
	for _, got := range rulestest.Lint(t, writeDoc(t, doc)) {
		if got.Rule == rule {
			return
		}
	}
	t.Errorf("%s was not caught by %s", name, rule)
}

// harborviewSession decodes the recorded session good-<session>.json.
func harborviewSession(t *testing.T, session string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(fixtureRoot, "examples", "harborview", "good-"+session+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// writeDoc writes doc to a file of the test's own and returns its path.
func writeDoc(t *testing.T, doc map[string]any) string {
	t.Helper()
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
