package probe_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// TestVectorsDocFresh: docs/vectors.md is what go generate writes from
// the probe set, ServerVectors and the official vectors, which it checks
// against each other (every server vector, in their order).
func TestVectorsDocFresh(t *testing.T) {
	in, _ := official(t)
	want, err := probe.VectorsMarkdown(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/vectors.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/vectors.md is stale: run go generate ./lint/probe")
	}
}

// TestVectorClaims: every rule a vector names exists; every vector claimed
// for a probe class has a probe that exercises it, and no other class
// claims one; a setup vector says why.
func TestVectorClaims(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range rules.All() {
		ids[r.ID] = true
	}
	exercised := 0
	for _, vc := range probe.ServerVectors {
		for _, r := range vc.Rules {
			if !ids[r] {
				t.Errorf("%s names rule %s, which does not exist", vc.ID, r)
			}
		}
		for _, n := range vc.Probes {
			if probe.ByName(n) == nil {
				t.Errorf("%s names probe %s, which does not exist", vc.ID, n)
			}
		}
		probes := probe.ProbesOf(vc.ID)
		switch vc.Class {
		case probe.ByProbe, probe.ByProbeRun:
			exercised++
			if len(probes) == 0 {
				t.Errorf("%s is claimed for %s but no probe exercises it", vc.ID, vc.Class)
			}
		case probe.Offline:
			exercised++
			if len(vc.Rules) == 0 {
				t.Errorf("%s is judged offline by no rule", vc.ID)
			}
		case probe.Setup:
			if vc.Note == "" {
				t.Errorf("%s needs setup but says not why", vc.ID)
			}
		}
		if (vc.Class != probe.ByProbe && vc.Class != probe.ByProbeRun) && len(probes) > 0 {
			t.Errorf("%s is exercised by %v but classed %s", vc.ID, probes, vc.Class)
		}
	}
	if exercised < 35 {
		t.Errorf("%d of %d vectors exercised or judged, the goal is 35", exercised, len(probe.ServerVectors))
	}
}

// action is an official vector's action as vectors.json states it.
type action struct {
	Operation string         `json:"operation"`
	Arguments map[string]any `json:"arguments"`
	Repeat    any            `json:"repeat"`
}

// vector is an official vector as the tests read it.
type vector struct {
	ID     string `json:"id"`
	Action action `json:"action"`
}

// officialFile reads the repository's copy of the official vectors once
// for every test of the package.
var officialFile = sync.OnceValues(func() ([]byte, error) {
	return os.ReadFile("../../testdata/reference/vectors.json")
})

// official returns the official vectors file and its vectors.
func official(t *testing.T) ([]byte, []vector) {
	t.Helper()
	data, err := officialFile()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Vectors []vector `json:"vectors"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	return data, doc.Vectors
}

func officialActions(t *testing.T) map[string]action {
	t.Helper()
	_, vectors := official(t)
	out := map[string]action{}
	for _, v := range vectors {
		out[v.ID] = v.Action
	}
	return out
}

// actionTargets are Languages that between them let every probe build:
// the first on which a probe builds is the one its requests are compared
// on.
func actionTargets() []*probe.Target {
	mk := func(caps string, exec, retention, ctxSchema string) *probe.Target {
		var c types.CapabilityDeclaration
		if err := json.Unmarshal([]byte(caps), &c); err != nil {
			panic(err)
		}
		l := types.Language{Name: "x/1", Loop: types.Loop{Validate: "v", Execute: "e", Trace: "t"}, Execution: types.ExecutionMode(exec), Retention: types.Retention(retention)}
		if ctxSchema != "" {
			l.ContextSchema = json.RawMessage(ctxSchema)
		}
		return &probe.Target{
			Language: l, Caps: types.EffectiveCapabilities(nil, c), ValidateArg: "prog", ExecuteArg: "prog", ValidateType: "string", ExecuteType: "string",
			Guides: []probe.Guide{{ID: "g", Topics: []string{"t"}}}, Entries: []string{"e1"}, RefusedRun: "r1",
			Program: json.RawMessage(`{"steps": []}`), Input: json.RawMessage(`{"x": 1}`), Context: json.RawMessage(`{"c": 1}`),
			Ran: true, UnstoredRun: "r2", StoredRun: "r3", CatalogVersion: "cv", IdempotencyKey: "k",
		}
	}
	return []*probe.Target{
		mk(`{"guides": true, "catalog": true, "validate": true, "execute": {"test_run": true, "idempotency": true}, "trace_fetch": true}`, "both", "P1D", ""),
		mk(`{"guides": true, "catalog": true, "validate": true, "execute": {"test_run": true, "idempotency": true}, "trace_fetch": true}`, "both", "P1D", `{"type": "object", "required": ["db"]}`),
		mk(`{"guides": {"topic_fetch": true}, "catalog": {"changed_since": true}, "validate": true, "execute": true}`, "immediate", "none", ""),
	}
}

// operation names the Pilotage operation a request performs, as the
// vectors do.
func operation(tg *probe.Target, r probe.Request) string {
	switch r.Tool {
	case types.ToolGetGuide:
		return "learn"
	case types.ToolCatalog:
		return "lookup"
	case tg.Language.Loop.Validate:
		return "validate"
	case tg.Language.Loop.Execute:
		return "execute"
	case tg.Language.Loop.Trace:
		return "trace_fetch"
	case probe.NoSuchTool:
		return "raw_tools_call"
	}
	return "?"
}

// programKind classes a program: the vectors' placeholders by their
// words, the probe's values by what they are.
func programKind(tg *probe.Target, v any) string {
	if s, ok := v.(string); ok && strings.HasPrefix(s, "<") {
		switch {
		case strings.Contains(s, "invalid") || strings.Contains(s, "unclassifiable") || strings.Contains(s, "pathological"):
			return "invalid"
		case strings.Contains(s, "any-program"):
			return "any"
		}
		return "valid"
	}
	var got, user bytes.Buffer
	if b, err := json.Marshal(v); err == nil && json.Compact(&got, b) == nil && json.Compact(&user, tg.Program) == nil && got.String() == user.String() {
		return "valid"
	}
	if isGarbage(v) {
		return "invalid"
	}
	return "empty"
}

// actionDiffs computes how the requests of probe p differ from vector
// id's action: its operation, argument names and program, and, for a
// vector that repeats its action, how many times the probes of the
// vector send it.
func actionDiffs(t *testing.T, acts map[string]action, p *probe.Probe, id string) []string {
	set := map[string]bool{}
	built := false
	// With --probe-run and without: a probe may send other values then.
	for _, run := range []bool{true, false} {
		for _, c := range actionTargets() {
			if !run {
				c.Program, c.Input, c.Context, c.Ran, c.UnstoredRun, c.StoredRun, c.CatalogVersion = nil, nil, nil, false, "", "", ""
			}
			if r, why := p.Build(c); why == nil {
				built = true
				diffRequests(acts[id], p, id, c, r, set)
				break
			}
		}
	}
	if !built {
		t.Fatalf("%s builds on no test Language", p.Name)
	}
	var out []string
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// diffRequests adds to set how reqs, which p built for tg, differ from
// act.
func diffRequests(act action, p *probe.Probe, id string, tg *probe.Target, reqs []probe.Request, set map[string]bool) {
	for _, r := range reqs {
		// A probe that supports a vector with another operation (the
		// fetch after a store) has no arguments of the action to match.
		if op := operation(tg, r); op != act.Operation {
			set["operation "+op] = true
			continue
		}
		args := map[string]any{}
		for k, v := range r.Args {
			if k == tg.ValidateArg && op(tg, r) == "validate" || k == tg.ExecuteArg && op(tg, r) == "execute" {
				k = "program"
			}
			args[k] = v
		}
		if operation(tg, r) == "raw_tools_call" {
			args = map[string]any{"name": r.Tool}
		}
		for k := range args {
			if _, ok := act.Arguments[k]; !ok {
				set["+"+k] = true
			}
		}
		for k := range act.Arguments {
			if _, ok := args[k]; !ok {
				set["-"+k] = true
			}
		}
		if want, ok := act.Arguments["program"]; ok {
			if got, ok := args["program"]; ok {
				w, g := programKind(tg, want), programKind(tg, got)
				if w != "any" && w != g {
					set["program: "+g+" for "+w] = true
				}
			}
		}
	}
	if n, ok := act.Repeat.(float64); ok && p.Vector == id {
		sent := 0
		for _, name := range probe.ProbesOf(id) {
			if r, why := probe.ByName(name).Build(tg); why == nil {
				sent += len(r)
			}
		}
		if sent != int(n) {
			set[fmt.Sprintf("repeat %d for %d", sent, int(n))] = true
		}
	}
	if act.Repeat == nil && len(reqs) > 1 {
		set[fmt.Sprintf("%d requests for 1", len(reqs))] = true
	}
}

func op(tg *probe.Target, r probe.Request) string { return operation(tg, r) }

// TestProbeActions: for every vector the probe table claims, each probe's
// request is compared with the vector's action in vectors.json (operation,
// argument names, program, repeat), and every difference is one
// probe.Differences lists with its reason; every listed difference occurs.
func TestProbeActions(t *testing.T) {
	acts := officialActions(t)
	used := map[int]bool{}
	for _, vc := range probe.ServerVectors {
		for _, name := range probe.ProbesOf(vc.ID) {
			p := probe.ByName(name)
			for _, d := range actionDiffs(t, acts, p, vc.ID) {
				i := slices.IndexFunc(probe.Differences, func(x probe.Difference) bool {
					return (x.Probe == name || x.Probe == "*") && (x.Vector == vc.ID || x.Vector == "*") && x.What == d
				})
				if i < 0 {
					t.Errorf("%s on %s: %s, which probe.Differences does not list", name, vc.ID, d)
					continue
				}
				used[i] = true
			}
		}
	}
	for i, d := range probe.Differences {
		if !used[i] {
			t.Errorf("probe.Differences lists %s on %s: %s, which no longer occurs", d.Probe, d.Vector, d.What)
		}
		if d.Why == "" {
			t.Errorf("%s on %s: %s gives no reason", d.Probe, d.Vector, d.What)
		}
	}
}
