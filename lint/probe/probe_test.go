package probe_test

import (
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func all() []*probe.Probe {
	return append(append([]*probe.Probe(nil), probe.Set...), probe.UnknownTool, probe.ManifestResource)
}

// TestProbesAreDocumented: every probe names its deciding sentence, its
// keyword and its safety argument, and every vector it cites is one of the
// official vectors.
func TestProbesAreDocumented(t *testing.T) {
	_, vectors := official(t)
	known := map[string]bool{}
	for _, v := range vectors {
		known[v.ID] = true
	}
	seen := map[string]bool{}
	for _, p := range all() {
		if seen[p.Name] {
			t.Errorf("probe %s twice", p.Name)
		}
		seen[p.Name] = true
		if p.Spec == "" || p.Quote == "" || p.Safety == "" || p.Build == nil {
			t.Errorf("probe %s lacks a spec section, quote, safety argument or builder", p.Name)
		}
		switch p.Keyword {
		case "MUST", "MUST NOT", "REQUIRED":
		default:
			t.Errorf("probe %s: keyword %q; probe-expectation reports errors, so every probe needs a MUST-level sentence", p.Name, p.Keyword)
		}
		if p.Vector != "" && !known[p.Vector] {
			t.Errorf("probe %s cites %s, which is not an official vector", p.Name, p.Vector)
		}
		if probe.ByName(p.Name) != p {
			t.Errorf("ByName(%q) does not find it", p.Name)
		}
	}
}

// targets spans the manifests the builders branch on.
func targets() []*probe.Target {
	var out []*probe.Target
	for _, exec := range []string{"immediate", "deploy", "both"} {
		for _, retention := range []string{"none", "session"} {
			for _, testRun := range []bool{false, true} {
				for _, typ := range []string{"", "object", "string", "array"} {
					caps := types.CapabilityDeclaration{}
					raw := `{"guides": {"topic_fetch": false}, "catalog": true, "validate": true, "execute": {"idempotency": true, "test_run": ` + map[bool]string{false: "false", true: "true"}[testRun] + `}, "trace_fetch": true}`
					if err := json.Unmarshal([]byte(raw), &caps); err != nil {
						panic(err)
					}
					l := types.Language{Name: "x/1", Loop: types.Loop{Validate: "v", Execute: "e", Trace: "t"}, Execution: types.ExecutionMode(exec), Retention: types.Retention(retention)}
					out = append(out, &probe.Target{
						Language: l, Caps: types.EffectiveCapabilities(nil, caps),
						ValidateArg: "prog", ExecuteArg: "prog", ValidateType: typ, ExecuteType: typ,
						Guides: []probe.Guide{{ID: "g", Topics: []string{"t"}}}, Entries: []string{"e1"}, RefusedRun: "r1",
						Program: json.RawMessage(`{"steps": []}`), Input: json.RawMessage(`{"x": 1}`),
						Ran: true, UnstoredRun: "r2", StoredRun: "r3", CatalogVersion: "cv", IdempotencyKey: "k",
					})
				}
			}
		}
	}
	return out
}

// TestExecuteProbesAreSafe: every request to an execute tool carries a
// program that cannot parse, no runnable, or a made-up program_ref; the
// one exception is the user's --probe-run program, sent only with
// test_run: true to a Language that declares execute.test_run, under
// execution both with mode deploy (Part II §6.5.7), and with store: false
// except on the one probe that keeps a record for the fetch door.
func TestExecuteProbesAreSafe(t *testing.T) {
	for _, tg := range targets() {
		for _, p := range all() {
			reqs, _ := p.Build(tg)
			for _, req := range reqs {
				if req.Tool != tg.Language.Loop.Execute {
					continue
				}
				if ref, ok := req.Args["program_ref"]; ok && ref != probe.NoSuchRef {
					t.Errorf("%s sends program_ref %v", p.Name, ref)
				}
				prog, ok := req.Args["prog"]
				switch {
				case !ok:
				case isGarbage(prog):
				case reflect.DeepEqual(prog, tg.Program):
					if req.Args["test_run"] != true || !tg.Caps.SubFeature("execute", "test_run") {
						t.Errorf("%s sends the user's program without test_run: %v", p.Name, req.Args)
					}
					if store, ok := req.Args["store"]; tg.Language.Retention != "none" && !(ok && store == false) && p.Name != "execute-test-run-store" {
						t.Errorf("%s may leave a stored Run behind: %v", p.Name, req.Args)
					}
				default:
					t.Errorf("%s sends a program that may run: %v", p.Name, req.Args)
				}
				want := "immediate"
				if reflect.DeepEqual(prog, tg.Program) {
					want = "deploy"
				}
				if tg.Language.Execution == "both" && p.Name != "execute-mode-missing" && req.Args["mode"] != want {
					t.Errorf("%s sends mode %v under execution both, want %s: %v", p.Name, req.Args["mode"], want, req.Args)
				}
			}
		}
	}
}

// isGarbage reports whether v is the made-up program of some JSON type.
func isGarbage(v any) bool {
	for _, typ := range []string{"", "string", "object", "array"} {
		if reflect.DeepEqual(v, probe.Garbage(typ)) {
			return true
		}
	}
	return false
}

// TestGarbageCannotParse: the garbage program of every type starts with
// NUL and leaves its parentheses open.
func TestGarbageCannotParse(t *testing.T) {
	for _, typ := range []string{"", "object", "array", "string"} {
		b, _ := json.Marshal(probe.Garbage(typ))
		if !strings.Contains(string(b), `\u0000(((`) {
			t.Errorf("%s garbage %s", typ, b)
		}
	}
}

// TestReadmeTable keeps the README's table of probes complete: one row per
// probe, with its vector and defect.
func TestReadmeTable(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range all() {
		v, d := "—", "none"
		if p.Vector != "" {
			v = "`" + p.Vector + "`"
		}
		if p.Defect != "" {
			d = p.Defect
		}
		row := "| `" + p.Name + "` | " + v + " | " + d + " | " + p.Spec + " | " + p.Safety + " |\n"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README lacks the row\n%s", row)
		}
	}
}

// TestQuotesAreVerbatim: every probe's Quote is the spec's own text, so a
// finding cites what the spec says and not a gloss on it. Pieces that stand
// apart in the spec are joined by " … "; each must appear in Part II or III
// once whitespace and markdown emphasis are normalised, and the quote must
// carry the probe's keyword.
func TestQuotesAreVerbatim(t *testing.T) {
	var spec strings.Builder
	for _, part := range []string{"part-ii-abstract-model.md", "part-iii-mcp-binding.md"} {
		data, err := os.ReadFile("../../testdata/spec/" + part)
		if err != nil {
			t.Fatalf("the repository's copy of the spec: %v", err)
		}
		spec.WriteString(normalise(string(data)))
		spec.WriteString("\n")
	}
	text := spec.String()
	for _, p := range all() {
		if !strings.Contains(p.Quote, p.Keyword) {
			t.Errorf("probe %s: the quote does not carry its keyword %s", p.Name, p.Keyword)
		}
		for _, piece := range strings.Split(p.Quote, " … ") {
			if !strings.Contains(text, normalise(piece)) {
				t.Errorf("probe %s: not verbatim in Parts II/III: %q", p.Name, piece)
			}
		}
	}
}

// normalise collapses whitespace and drops markdown emphasis (** and *),
// the only differences allowed between a quote and the spec's source.
func normalise(s string) string {
	s = strings.NewReplacer("**", "", "*", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}

func TestCallOf(t *testing.T) {
	for ptr, want := range map[string]string{
		"/calls/3":                     "/calls/3",
		"/calls/12/result/isError":     "/calls/12",
		"/calls/":                      "",
		"/tools/tools/0":               "",
		"":                             "",
		"/calls/0/arguments/flow/a~1b": "/calls/0",
	} {
		if got := probe.CallOf(ptr); got != want {
			t.Errorf("CallOf(%q) = %q, want %q", ptr, got, want)
		}
	}
}

// TestContextProbes: the context probes go by the Language's
// context_schema: supplied context where none is declared, missing or
// wrongly typed context where one is, and never a second defect.
func TestContextProbes(t *testing.T) {
	caps := types.CapabilityDeclaration{}
	if err := json.Unmarshal([]byte(`{"guides": true, "validate": true}`), &caps); err != nil {
		t.Fatal(err)
	}
	build := func(schema string, name string) []probe.Request {
		l := types.Language{Name: "x/1", Loop: types.Loop{Validate: "v"}}
		if schema != "" {
			l.ContextSchema = json.RawMessage(schema)
		}
		tg := &probe.Target{Language: l, Caps: types.EffectiveCapabilities(nil, caps), ValidateArg: "prog", ValidateType: "object"}
		reqs, _ := probe.ByName(name).Build(tg)
		return reqs
	}
	for _, tc := range []struct {
		schema, probe string
		context       any // nil: no request; "absent": a request without context
	}{
		{"", "validate-context-undeclared", map[string]any{"pilotage-probe": "context this Language does not declare"}},
		{"", "validate-context-missing", nil},
		{"", "validate-context-rejected", nil},
		{`{"type": "object", "required": ["db"]}`, "validate-context-undeclared", nil},
		{`{"type": "object", "required": ["db"]}`, "validate-context-missing", "absent"},
		{`{"type": "object", "required": ["db"]}`, "validate-context-rejected", "pilotage-probe: not an object"},
		{`{"type": "string"}`, "validate-context-rejected", map[string]any{"pilotage-probe": "a value of the wrong type"}},
		// No top-level type: the first value the schema rejects.
		{`{"anyOf": [{"type": "string"}]}`, "validate-context-rejected", map[string]any{}},
		{`{"type": "object", "properties": {"db": {"type": "string"}}}`, "validate-context-rejected", "pilotage-probe: not an object"},
		// Every value fits: nothing can break the schema.
		{`{}`, "validate-context-rejected", nil},
	} {
		reqs := build(tc.schema, tc.probe)
		switch {
		case tc.context == nil:
			if len(reqs) != 0 {
				t.Errorf("%s on schema %q: %v, want no request", tc.probe, tc.schema, reqs)
			}
		case len(reqs) != 1:
			t.Errorf("%s on schema %q: %d requests, want 1", tc.probe, tc.schema, len(reqs))
		default:
			got, ok := reqs[0].Args["context"]
			if tc.context == "absent" && ok || tc.context != "absent" && !reflect.DeepEqual(got, tc.context) {
				t.Errorf("%s on schema %q: context %v", tc.probe, tc.schema, got)
			}
			if !reflect.DeepEqual(reqs[0].Args["prog"], map[string]any{}) {
				t.Errorf("%s sends a program other than the empty one: %v", tc.probe, reqs[0].Args)
			}
		}
	}
}
