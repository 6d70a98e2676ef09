package probe_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// TestEveryProbeSaysWhy: on every target a probe either builds requests or
// says why not, in a sentence of a known kind; never both, never neither.
func TestEveryProbeSaysWhy(t *testing.T) {
	kinds := map[probe.SkipKind]bool{probe.Undeclared: true, probe.NoProbeRun: true, probe.Unmet: true, probe.NoFit: true}
	tgs := targets()
	for _, tg := range tgs {
		bare := *tg
		bare.Program, bare.Guides, bare.Entries, bare.RefusedRun, bare.Ran, bare.UnstoredRun, bare.StoredRun = nil, nil, nil, "", false, "", ""
		tgs = append(tgs, &bare)
	}
	for _, tg := range tgs {
		for _, p := range all() {
			reqs, why := p.Build(tg)
			switch {
			case len(reqs) > 0 && why != nil:
				t.Errorf("%s builds %d requests and says %q", p.Name, len(reqs), why.Reason)
			case len(reqs) == 0 && why == nil:
				t.Errorf("%s builds nothing on %+v and says not why", p.Name, tg.Language)
			case why != nil && (!kinds[why.Kind] || why.Reason == ""):
				t.Errorf("%s: skip %+v", p.Name, why)
			}
		}
	}
}

func language(caps string, edit func(*types.Language)) *probe.Target {
	var c types.CapabilityDeclaration
	if err := json.Unmarshal([]byte(caps), &c); err != nil {
		panic(err)
	}
	l := types.Language{Name: "x/1", Loop: types.Loop{Validate: "v", Execute: "e", Trace: "t"}, Execution: "immediate", Retention: "P1D"}
	if edit != nil {
		edit(&l)
	}
	return &probe.Target{Language: l, Caps: types.EffectiveCapabilities(nil, c), ValidateArg: "prog", ExecuteArg: "prog", IdempotencyKey: "k"}
}

// TestSkipReasons: each reason the coverage report repeats is the true
// one, tested once: the Language declares nothing the probe needs; only
// --probe-run could send it; no refused Run exists to fetch; no value
// fits the tool's declared schema.
func TestSkipReasons(t *testing.T) {
	full := `{"guides": true, "catalog": true, "validate": true, "execute": {"test_run": true, "idempotency": true}, "trace_fetch": true}`
	for _, tc := range []struct {
		name   string
		target *probe.Target
		probe  string
		kind   probe.SkipKind
		reason string
	}{
		{"undeclared", language(`{"validate": true, "execute": true}`, nil), "guide-index", probe.Undeclared, "the Language declares no guides"},
		{"undeclared sub-feature", language(full, nil), "catalog-unknown-baseline", probe.Undeclared, "the Language declares no catalog.changed_since"},
		{"declared, so no defect", language(`{"guides": {"topic_fetch": true}}`, nil), "guide-topic-undeclared", probe.Undeclared, "the Language declares guides.topic_fetch, so a topic fetch is no defect"},
		{"needs --probe-run", language(full, nil), "validate-program", probe.NoProbeRun, "needs --probe-run"},
		{"needs --probe-run for the unstored run", language(full, nil), "trace-unstored-run", probe.NoProbeRun, "needs --probe-run"},
		{"no refused Run", language(full, nil), "trace-refused-run", probe.Unmet, "no refused Run to fetch"},
		// The loop operations share one reading of what a probe of theirs
		// needs: the capability, the loop's tool, the program argument.
		{"undeclared validate", language(`{"execute": true}`, nil), "validate-unparsable", probe.Undeclared, "the Language declares no validate"},
		{"undeclared execute", language(`{"validate": true}`, nil), "execute-invalid-program", probe.Undeclared, "the Language declares no execute"},
		{"no validate tool", language(full, func(l *types.Language) { l.Loop.Validate = "" }), "validate-unparsable", probe.Undeclared, "the Language's loop names no validate tool"},
		{"no execute tool", language(full, func(l *types.Language) { l.Loop.Execute = "" }), "execute-invalid-program", probe.Undeclared, "the Language's loop names no execute tool"},
		{"no validate argument", func() *probe.Target {
			tg := language(full, nil)
			tg.ValidateArg = ""
			return tg
		}(), "validate-unparsable", probe.Undeclared, "the validate tool declares no program-bearing argument for the Language (Part III §5)"},
		{"no execute argument", func() *probe.Target {
			tg := language(full, nil)
			tg.ExecuteArg = ""
			return tg
		}(), "execute-invalid-program", probe.Undeclared, "the execute tool declares no program-bearing argument for the Language (Part III §5)"},
		// Part II §6.5.6: no window need outlast retention "none", so a
		// reused key may rightly start a new Run.
		{"retention none, no conflict to find", language(full, func(l *types.Language) { l.Retention = "none" }), "execute-idempotent-conflict", probe.Undeclared, `the Language declares retention "none", so its deduplication window may be no window at all (Part II §6.5.6) and a reused key need not be remembered`},
		{"never ran", func() *probe.Target {
			tg := language(full, nil)
			tg.Program = json.RawMessage(`{}`)
			return tg
		}(), "execute-test-run-none", probe.Unmet, "the --probe-run program never ran"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reqs, why := probe.ByName(tc.probe).Build(tc.target)
			if len(reqs) > 0 || why == nil || why.Kind != tc.kind || why.Reason != tc.reason {
				t.Errorf("%s: %d requests, skip %+v; want %s %q", tc.probe, len(reqs), why, tc.kind, tc.reason)
			}
		})
	}
}

// TestConflictProbeWithRetention: with a retention period the conflict
// probe is built (the run's first test run has started).
func TestConflictProbeWithRetention(t *testing.T) {
	tg := language(`{"validate": true, "execute": {"test_run": true, "idempotency": true}}`, nil)
	tg.Program, tg.Ran = json.RawMessage(`{}`), true
	reqs, why := probe.ByName("execute-idempotent-conflict").Build(tg)
	if why != nil || len(reqs) != 1 {
		t.Fatalf("retention P1D: %d requests, skip %+v; want the conflicting request", len(reqs), why)
	}
}

// TestFit: requests are checked against the tool's declared inputSchema
// with the schema library. The program goes in the first JSON type the
// schema accepts, whether the schema says so directly, through a nullable
// anyOf, or behind a $ref into $defs as Pydantic writes it; where no
// value fits, the probe is skipped with that reason.
func TestFit(t *testing.T) {
	pydantic := `{"type": "object", "title": "validate_programArguments", "$defs": {"Program": {"type": "object", "title": "Program", "properties": {"steps": {"type": "array", "title": "Steps"}}}},
		"properties": {"prog": {"anyOf": [{"$ref": "#/$defs/Program"}, {"type": "null"}], "default": null, "title": "Prog"}, "context": {"anyOf": [{"type": "object"}, {"type": "null"}], "default": null, "title": "Context"}}}`
	for _, tc := range []struct {
		name, schema string
		// want is the program validate-unparsable sends; nil: skipped.
		want any
	}{
		{"no schema", ``, probe.Garbage("")},
		{"any value", `{"type": "object", "properties": {"prog": {}}}`, probe.Garbage("")},
		{"string", `{"type": "object", "properties": {"prog": {"type": "string"}}}`, probe.Garbage("string")},
		{"object", `{"type": "object", "properties": {"prog": {"type": "object"}}}`, probe.Garbage("object")},
		{"array", `{"type": "object", "properties": {"prog": {"type": "array"}}}`, probe.Garbage("array")},
		{"nullable object", `{"type": "object", "properties": {"prog": {"anyOf": [{"type": "object"}, {"type": "null"}]}}}`, probe.Garbage("object")},
		{"pydantic", pydantic, probe.Garbage("object")},
		// A value constraint on a loop tool breaks Part III §4.6; the probe
		// still asks the Language.
		{"value constraint", `{"type": "object", "properties": {"prog": {"type": "string", "maxLength": 3}}}`, probe.Garbage("string")},
		{"number", `{"type": "object", "properties": {"prog": {"type": "number"}}}`, nil},
		{"required member", `{"type": "object", "properties": {"prog": {}, "db": {"type": "string"}}, "required": ["prog", "db"]}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tg := language(`{"validate": true}`, nil)
			if tc.schema != "" {
				tg.InputSchemas = map[string]*source.Node{"v": source.ParseValue([]byte(tc.schema))}
			}
			reqs, why := probe.ByName("validate-unparsable").Build(tg)
			if why == nil {
				reqs, why = tg.Fit(reqs)
			}
			switch {
			case tc.want == nil:
				if why == nil || why.Kind != probe.NoFit || !strings.HasPrefix(why.Reason, probe.ReasonNoFit) {
					t.Errorf("sent %v, want skipped for no fit; skip %+v", reqs, why)
				}
			case why != nil:
				t.Errorf("skipped: %+v", why)
			case !reflect.DeepEqual(reqs[0].Args["prog"], tc.want):
				t.Errorf("program %#v, want %#v", reqs[0].Args["prog"], tc.want)
			}
		})
	}
}

// TestFitAccessTools: on the fixed access tools any violation of the
// schema is carrier-level (Part III §7.1), so a verb the schema does not
// enumerate skips the probe that needs it.
func TestFitAccessTools(t *testing.T) {
	tg := language(`{"catalog": true}`, nil)
	tg.InputSchemas = map[string]*source.Node{types.ToolCatalog: source.ParseValue([]byte(`{"type": "object", "properties": {"language": {"type": "string"}, "verb": {"type": "string", "enum": ["list", "get"]}}, "required": ["language", "verb"]}`))}
	reqs, why := probe.ByName("catalog-changed-since-undeclared").Build(tg)
	if why != nil {
		t.Fatal(why)
	}
	if _, why := tg.Fit(reqs); why == nil || why.Kind != probe.NoFit {
		t.Errorf("a verb outside the enum was sent: %+v", why)
	}
	reqs, _ = probe.ByName("catalog-list").Build(tg)
	if got, why := tg.Fit(reqs); why != nil || len(got) != 1 {
		t.Errorf("a list the schema accepts was not sent: %+v", why)
	}
}
