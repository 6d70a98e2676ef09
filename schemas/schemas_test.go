package schemas

import (
	"bytes"
	"encoding/json"

	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pilotagekit/pilotagekit/pkg/types"
	"github.com/pilotagekit/pilotagekit/schemas/internal/generate"
)

type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("external reference %s refused", url)
}

var (
	compiled   = map[string]*jsonschema.Schema{}
	compileMu  sync.Mutex
	examplesAt = "../fixtures/spec-examples"
)

// compile compiles one file on its own, as the linter will.
func compile(t *testing.T, name string) *jsonschema.Schema {
	t.Helper()
	compileMu.Lock()
	defer compileMu.Unlock()
	if s, ok := compiled[name]; ok {
		return s
	}
	b, ok := Get(name)
	if !ok {
		t.Fatalf("no schema %s", name)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if err := c.AddResource(ID(name), doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(ID(name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	compiled[name] = s
	return s
}

func instance(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatalf("bad instance %s: %v", s, err)
	}
	return v
}

func TestCompileAll(t *testing.T) {
	names := Names()
	if len(names) != len(generate.Names()) {
		t.Errorf("embedded %d files, generator makes %d", len(names), len(generate.Names()))
	}
	for _, n := range names {
		compile(t, n)
		b, _ := Get(n)
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		if doc["$schema"] != "https://json-schema.org/draft/2020-12/schema" || doc["$id"] != ID(n) {
			t.Errorf("%s: $schema %v $id %v", n, doc["$schema"], doc["$id"])
		}
		walk(doc, func(k string, v any) {
			switch k {
			case "$ref":
				if s, _ := v.(string); !strings.HasPrefix(s, "#/$defs/") {
					t.Errorf("%s: $ref %v leaves the file", n, v)
				}
			case "additionalProperties":
				if v == false {
					t.Errorf("%s: additionalProperties false", n)
				}
			case "pattern":
				checkPortable(t, n, v.(string))
			}
		})
	}
}

func walk(v any, f func(string, any)) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			f(k, c)
			walk(c, f)
		}
	case []any:
		for _, c := range x {
			walk(c, f)
		}
	}
}

// checkPortable rejects regular-expression syntax that RE2 and ECMAScript
// do not share: look-around, back-references, named groups, inline flags,
// POSIX classes, \A \z \Z, possessive and atomic forms.
func checkPortable(t *testing.T, file, p string) {
	if _, err := regexp.Compile(p); err != nil {
		t.Errorf("%s: pattern %q does not compile in RE2: %v", file, p, err)
	}
	for _, bad := range []string{"(?=", "(?!", "(?<", "(?P", "(?i", "(?s", "(?m", "(?>", "[[:", `\A`, `\z`, `\Z`, `\1`, `\p`, "*+", "++", "?+"} {
		if strings.Contains(p, bad) {
			t.Errorf("%s: pattern %q uses non-portable %q", file, p, bad)
		}
	}
}

func TestFresh(t *testing.T) {
	files, err := generate.Files()
	if err != nil {
		t.Fatal(err)
	}
	var gen []string
	for n, b := range files {
		gen = append(gen, n)
		have, ok := Get(n)
		if !ok {
			t.Errorf("%s is generated but not committed; run go generate ./schemas", n)
			continue
		}
		if !bytes.Equal(have, b) {
			t.Errorf("%s is stale; run go generate ./schemas", n)
		}
	}
	again, err := generate.Files()
	if err != nil || !reflect.DeepEqual(files, again) {
		t.Error("generation is not deterministic")
	}
	sort.Strings(gen)
	if !reflect.DeepEqual(gen, Names()) {
		t.Errorf("committed %v, generated %v", Names(), gen)
	}
	if !reflect.DeepEqual(gen, generate.Names()) {
		t.Errorf("generate.Names out of step: %v", generate.Names())
	}
}

type specExample struct {
	File          string
	Pointer       string
	Schema        string
	SchemaInvalid string
}

func TestSpecExamplesValidate(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(examplesAt, "index.json"))
	if err != nil {
		t.Fatal(err)
	}
	var idx struct{ Examples []specExample }
	if err := json.Unmarshal(b, &idx); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range idx.Examples {
		if e.Schema == "" {
			continue
		}
		n++
		t.Run(e.File+e.Pointer+"@"+e.Schema, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(examplesAt, e.File))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			v := resolve(t, doc, e.Pointer)
			err = compile(t, e.Schema).Validate(v)
			if e.SchemaInvalid == "" {
				if err != nil {
					t.Errorf("spec example rejected: %v", err)
				}
				return
			}
			// The example is known to lack one required member: it must
			// fail, and supplying that member must fix it.
			if err == nil {
				t.Fatalf("expected rejection for missing %s", e.SchemaInvalid)
			}
			i := strings.LastIndex(e.SchemaInvalid, "/")
			parent := resolve(t, v, e.SchemaInvalid[:i]).(map[string]any)
			parent[e.SchemaInvalid[i+1:]] = "filled in"
			if err := compile(t, e.Schema).Validate(v); err != nil {
				t.Errorf("still rejected after adding %s: %v", e.SchemaInvalid, err)
			}
		})
	}
	if n < 15 {
		t.Errorf("only %d examples checked", n)
	}
}

func resolve(t *testing.T, v any, ptr string) any {
	t.Helper()
	if ptr == "" {
		return v
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.NewReplacer("~1", "/", "~0", "~").Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			v = x[tok]
		case []any:
			var i int
			fmt.Sscan(tok, &i)
			v = x[i]
		default:
			t.Fatalf("cannot resolve %s", ptr)
		}
	}
	return v
}

var shapeFile = map[string]string{}

func init() {
	for _, s := range generate.Shapes {
		shapeFile[s.Def] = s.File
	}
}

func TestExamples(t *testing.T) {
	if _, ok := Examples("nope"); ok {
		t.Error("unknown tool")
	}
	for _, tool := range Tools() {
		ex, ok := Examples(tool)
		if !ok || len(ex) < 2 {
			t.Fatalf("%s: %v", tool, ex)
		}
		union, ok := OutputSchemaFor(tool)
		if !ok {
			t.Fatalf("no union for %s", tool)
		}
		for shape, raw := range ex {
			v := instance(t, string(raw))
			if err := compile(t, union).Validate(v); err != nil {
				t.Errorf("%s/%s rejected by %s: %v", tool, shape, union, err)
			}
			if err := compile(t, shapeFile[shape]).Validate(v); err != nil {
				t.Errorf("%s/%s rejected by %s: %v", tool, shape, shapeFile[shape], err)
			}
			if err := compile(t, Bundle).Validate(v); err != nil {
				t.Errorf("bundle root accepts anything: %v", err)
			}
			// Minimality: every member is required.
			for _, p := range memberPaths(v, "") {
				mut := instance(t, string(raw))
				del(t, mut, p)
				if compile(t, shapeFile[shape]).Validate(mut) == nil {
					t.Errorf("%s/%s: still valid without %s", tool, shape, p)
				}
			}
		}
		// Every union rejects a non-object and an unrelated object.
		for _, bad := range []string{`[]`, `"x"`, `{"unrelated":1}`} {
			if compile(t, union).Validate(instance(t, bad)) == nil {
				t.Errorf("%s accepts %s", union, bad)
			}
		}
	}
}

func memberPaths(v any, at string) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			p := at + "/" + strings.NewReplacer("~", "~0", "/", "~1").Replace(k)
			out = append(out, p)
			out = append(out, memberPaths(c, p)...)
		}
	case []any:
		for i, c := range x {
			out = append(out, memberPaths(c, fmt.Sprintf("%s/%d", at, i))...)
		}
	}
	sort.Strings(out)
	return out
}

func del(t *testing.T, v any, p string) {
	i := strings.LastIndex(p, "/")
	parent := resolve(t, v, p[:i])
	delete(parent.(map[string]any), strings.NewReplacer("~1", "/", "~0", "~").Replace(p[i+1:]))
}

func set(t *testing.T, v any, p string, val any) {
	i := strings.LastIndex(p, "/")
	parent := resolve(t, v, p[:i])
	parent.(map[string]any)[p[i+1:]] = val
}

func base(t *testing.T, tool, shape string) string {
	ex, _ := Examples(tool)
	return string(ex[shape])
}

// TestClosedSets checks both polarities of every closed set: each member
// is accepted and an outsider is rejected.
func TestClosedSets(t *testing.T) {
	manifest := base(t, "pilotage_manifest", "Manifest")
	executeFull := `{"pilotage":"1.1","languages":[{"name":"example/1","title":"Example","guides":"pilotage_get_guide","loop":{"validate":"v","execute":"x","trace":"t"},"capabilities":{"guides":true,"validate":true,"execute":true,"trace_fetch":true},"locator":"json-pointer","execution":"both","trace":"full","retention":"PT1H"}]}`
	guide := base(t, "pilotage_get_guide", "GuideFetchResult")
	diag := `{"severity":"error","code":"c","path":"","message":"m"}`
	cases := []struct {
		file, inst, ptr string
		good            []any
		bad             any
	}{
		{Manifest, manifest, "/languages/0/locator", strs(types.Locators), "xpath"},
		{Manifest, executeFull, "/languages/0/execution", strs(types.ExecutionModes), "later"},
		{Manifest, executeFull, "/languages/0/trace", strs(types.TraceLevels), "none"},
		{Manifest, executeFull, "/languages/0/trace_subprogram", strs(types.TraceSubprograms), "inline"},
		{Manifest, executeFull, "/languages/0/promotion_authority", strs(types.PromotionAuthorities), "owner"},
		{Manifest, executeFull, "/languages/0/retention", []any{"session", "PT1H", "P1D", "P2W", "P1Y2M3DT4H5M6S", "PT0.5S"}, "PT"},
		{"guide-fetch-result.schema.json", guide, "/guide/level", strs(types.GuideLevels), "intro"},
		{Diagnostic, diag, "/severity", strs(types.Severities), "info"},
		{"catalog-changed-since-result.schema.json", `{"catalog_version":"c","changes":[{"id":"e","change":"added"}]}`, "/changes/0/change", strs(types.ChangeKinds), "renamed"},
		{"catalog-request.schema.json", `{"language":"a/1","verb":"list"}`, "/verb", strs(types.CatalogVerbs), "search"},
		{RequestError, requestErrorExample, "/error/kind", strs(types.ErrorKinds), "timeout"},
		{"execute-request.schema.json", `{"program":{}}`, "/trace_level", strs(types.RequestTraceLevels), "verbose"},
		{"execute-request.schema.json", `{"program":{}}`, "/mode", strs(types.RunModes), "both"},
		{"trace-fetch-request.schema.json", `{"run_id":"r"}`, "/trace_level", strs(types.TraceLevels), "none"},
		{Trace, `{"run_id":"r","level":"summary","steps":[]}`, "/level", strs(types.TraceLevels), "none"},
	}
	for _, c := range cases {
		for _, g := range append(c.good, c.bad) {
			v := instance(t, c.inst)
			set(t, v, c.ptr, g)
			err := compile(t, c.file).Validate(v)
			if g == c.bad && err == nil {
				t.Errorf("%s %s=%v accepted", c.file, c.ptr, g)
			}
			if g != c.bad && err != nil {
				t.Errorf("%s %s=%v rejected: %v", c.file, c.ptr, g, err)
			}
		}
	}
}

func strs[T ~string](v []T) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return out
}

// TestRules checks the conditional rules, each with an instance that must
// pass and one that must fail.
func TestRules(t *testing.T) {
	lang := func(extra string) string {
		return `{"name":"example/1","title":"E","guides":"pilotage_get_guide"` + extra + `}`
	}
	man := func(root string, langs ...string) string {
		return `{"pilotage":"1.1"` + root + `,"languages":[` + strings.Join(langs, ",") + `]}`
	}
	floor := `,"capabilities":{"guides":true,"validate":true}`
	cases := []struct {
		name, file, inst string
		valid            bool
	}{
		// Manifest, Part II §4.2/§4.3 across levels.
		{"server-level only", Manifest, man(floor, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), true},
		{"no declaration anywhere", Manifest, man("", lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), false},
		{"floor missing validate", Manifest, man("", lang(`,"loop":{"validate":"v"},"capabilities":{"guides":true},"locator":"text-range"`)), false},
		{"language false overrides server", Manifest, man(floor, lang(`,"loop":{"validate":"v"},"capabilities":{"validate":false},"locator":"text-range"`)), false},
		{"empty languages", Manifest, man(floor), false},
		{"bad version", Manifest, strings.Replace(man(floor, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), `"1.1"`, `"1.1.0"`, 1), false},
		{"bad language id", Manifest, strings.Replace(man(floor, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), `example/1`, `example`, 1), false},
		{"locator missing", Manifest, man(floor, lang(`,"loop":{"validate":"v"}`)), false},
		{"catalog declared at server, reference missing", Manifest, man(`,"capabilities":{"guides":true,"validate":true,"catalog":{"search":true}}`, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), false},
		{"catalog declared at server, reference present", Manifest, man(`,"capabilities":{"guides":true,"validate":true,"catalog":{"search":true}}`, lang(`,"catalog":"pilotage_catalog","loop":{"validate":"v"},"locator":"text-range"`)), true},
		{"catalog undeclared, reference present", Manifest, man(floor, lang(`,"catalog":"pilotage_catalog","loop":{"validate":"v"},"locator":"text-range"`)), false},
		{"catalog false at language masks server", Manifest, man(`,"capabilities":{"guides":true,"validate":true,"catalog":true}`, lang(`,"loop":{"validate":"v"},"capabilities":{"catalog":false},"locator":"text-range"`)), true},
		{"execute without execution members", Manifest, man(floor, lang(`,"loop":{"validate":"v","execute":"x"},"capabilities":{"execute":true},"locator":"text-range"`)), false},
		{"execute complete", Manifest, man(floor, lang(`,"loop":{"validate":"v","execute":"x"},"capabilities":{"execute":true},"locator":"text-range","execution":"immediate","trace":"summary","retention":"none"`)), true},
		{"loop.execute without execute", Manifest, man(floor, lang(`,"loop":{"validate":"v","execute":"x"},"locator":"text-range"`)), false},
		{"trace_fetch without execute", Manifest, man(floor, lang(`,"loop":{"validate":"v","trace":"t"},"capabilities":{"trace_fetch":true},"locator":"text-range"`)), false},
		{"trace_fetch with retention none", Manifest, man(floor, lang(`,"loop":{"validate":"v","execute":"x","trace":"t"},"capabilities":{"execute":true,"trace_fetch":true},"locator":"text-range","execution":"immediate","trace":"summary","retention":"none"`)), false},
		{"trace_fetch without loop.trace", Manifest, man(floor, lang(`,"loop":{"validate":"v","execute":"x"},"capabilities":{"execute":true,"trace_fetch":{"narrate":true}},"locator":"text-range","execution":"immediate","trace":"summary","retention":"session"`)), false},
		{"capability value not bool/object", Manifest, man(`,"capabilities":{"guides":true,"validate":"yes"}`, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), false},
		{"sub-feature not boolean", Manifest, man(`,"capabilities":{"guides":{"topic_fetch":1},"validate":true}`, lang(`,"loop":{"validate":"v"},"locator":"text-range"`)), false},
		{"unknown capability and members", Manifest, man(`,"capabilities":{"guides":true,"validate":true,"future":{"x":true}},"extra":1`, lang(`,"loop":{"validate":"v","x":1},"locator":"text-range","x":1`)), true},
		{"retention P", Manifest, man(floor, lang(`,"loop":{"validate":"v"},"locator":"text-range","retention":"P"`)), false},
		// Outcome, Part II §5.7.
		{"ok true error null", Outcome, `{"ok":true,"status":"success","error":null}`, true},
		{"ok true error string", Outcome, `{"ok":true,"status":"success","error":"x"}`, false},
		{"ok false error null", Outcome, `{"ok":false,"status":"error","error":null}`, false},
		{"error absent", Outcome, `{"ok":true,"status":"success"}`, false},
		{"success with ok false", Outcome, `{"ok":false,"status":"success","error":"x"}`, false},
		{"catalog_drift with ok true", Outcome, `{"ok":true,"status":"catalog_drift","error":null}`, false},
		{"engine status", Outcome, `{"ok":false,"status":"timeout","error":"slow"}`, true},
		// Validate response, Part II §5.5.
		{"valid with error diagnostic", "validate-response.schema.json", `{"valid":true,"diagnostics":[{"severity":"error","code":"c","path":"","message":"m"}]}`, false},
		{"valid with warning", "validate-response.schema.json", `{"valid":true,"diagnostics":[{"severity":"warning","code":"c","path":"","message":"m"}]}`, true},
		{"invalid without error", "validate-response.schema.json", `{"valid":false,"diagnostics":[]}`, false},
		{"diagnostics absent", "validate-response.schema.json", `{"valid":true}`, false},
		// Diagnostic paths.
		{"text-range path", Diagnostic, `{"severity":"error","code":"c","path":{"start":{"line":1,"column":1},"end":{"line":1,"column":8}},"message":"m"}`, true},
		{"text-range path with range", Diagnostic, `{"severity":"error","code":"c","path":{"start":{"line":1,"column":1},"end":{"line":1,"column":8}},"range":{"start":{"line":1,"column":1},"end":{"line":1,"column":2}},"message":"m"}`, false},
		{"pointer path with range", Diagnostic, `{"severity":"error","code":"c","path":"/a","range":{"start":{"line":1,"column":1},"end":{"line":1,"column":2}},"message":"m"}`, true},
		{"bad pointer", Diagnostic, `{"severity":"error","code":"c","path":"a/b","message":"m"}`, false},
		{"zero column", Diagnostic, `{"severity":"error","code":"c","path":{"start":{"line":1,"column":0},"end":{"line":1,"column":8}},"message":"m"}`, false},
		// Execute response, Part II §6.5.
		{"validation_error without diagnostics", "execute-response.schema.json", `{"run_id":"r","outcome":{"ok":false,"status":"validation_error","error":"bad"}}`, false},
		{"validation_error with diagnostics", "execute-response.schema.json", `{"run_id":"r","outcome":{"ok":false,"status":"validation_error","error":"bad"},"diagnostics":[]}`, true},
		{"output on failure", "execute-response.schema.json", `{"run_id":"r","outcome":{"ok":false,"status":"partial","error":"x"},"output":1}`, false},
		{"trace on refusal", "execute-response.schema.json", `{"run_id":"r","outcome":{"ok":false,"status":"catalog_drift","error":"catalog version mismatch"},"trace":{"run_id":"r","level":"summary","steps":[]}}`, false},
		{"run_id missing", "execute-response.schema.json", `{"outcome":{"ok":true,"status":"success","error":null}}`, false},
		// Trace, Part II §5.8.
		{"full step without input", Trace, `{"run_id":"r","level":"full","steps":[{"id":"a","output":1,"outcome":{"ok":true,"status":"success","error":null}}]}`, false},
		{"full step with null input", Trace, `{"run_id":"r","level":"full","steps":[{"id":"a","input":null,"output":null,"outcome":{"ok":true,"status":"success","error":null}}]}`, true},
		{"full control-flow step", Trace, `{"run_id":"r","level":"full","steps":[{"id":"b","outcome":{"ok":true,"status":"success","error":null},"decisions":[{"at":"b","took":"exit","because":"n=0"}]}]}`, true},
		{"control-flow step with output", Trace, `{"run_id":"r","level":"summary","steps":[{"id":"b","output":1,"outcome":{"ok":true,"status":"success","error":null},"decisions":[]}]}`, false},
		{"summary step with input", Trace, `{"run_id":"r","level":"summary","steps":[{"id":"a","input":1,"outcome":{"ok":true,"status":"success","error":null}}]}`, false},
		{"summary step with output", Trace, `{"run_id":"r","level":"summary","steps":[{"id":"a","output":"trunc…","outcome":{"ok":true,"status":"success","error":null}}]}`, true},
		{"decision without because", "decision.schema.json", `{"at":"a","took":"exit"}`, false},
		// Guides, Part III §4.1.
		{"index entry with body", "guide-index-result.schema.json", `{"guides":[{"id":"core","title":"Core","level":"core","topics":[],"language":"example/1","version":"1","size_bytes":0,"body":"x"}]}`, false},
		{"index entry", "guide-index-result.schema.json", `{"guides":[{"id":"core","title":"Core","level":"core","topics":["closed-sets"],"language":"example/1","version":"1","size_bytes":10,"tokens_estimate":3}]}`, true},
		{"fetch without body", "guide-fetch-result.schema.json", `{"guide":{"id":"core","title":"Core","level":"core","topics":[],"language":"example/1","version":"1","size_bytes":0}}`, false},
		// Requests.
		{"execute both runnables", "execute-request.schema.json", `{"program":{},"program_ref":"p"}`, false},
		{"execute no runnable", "execute-request.schema.json", `{"input":{}}`, false},
		{"execute program_ref", "execute-request.schema.json", `{"program_ref":"p","store":true}`, true},
		{"catalog limit 0", "catalog-request.schema.json", `{"language":"a/1","verb":"list","limit":0}`, false},
		{"catalog verb missing", "catalog-request.schema.json", `{"language":"a/1"}`, false},
		{"guide language missing", "guide-request.schema.json", `{"id":"x"}`, false},
		// Binding shapes, Part III §3.2, §5, §7.2.
		{"program declaration single", ProgramDeclaration, `{"argument":"workflow","language":"workflow/v1"}`, true},
		{"program declaration argument only", ProgramDeclaration, `{"argument":"workflow"}`, false},
		{"program declaration empty languages", ProgramDeclaration, `{"languages":[]}`, false},
		{"program declaration binding incomplete", ProgramDeclaration, `{"languages":[{"argument":"q"}]}`, false},
		{"initialize meta empty", InitializeMeta, `{}`, false},
		{"initialize meta uri", InitializeMeta, `{"manifest_uri":"pilotage://manifest"}`, true},
		{"request error without message", RequestError, `{"error":{"kind":"internal"}}`, false},
		{"request error with sibling", RequestError, `{"error":{"kind":"not_found","message":"unknown entry"},"catalog_version":"cv"}`, true},
		{"catalog entry output_schema null", CatalogEntry, `{"id":"e","kind":"k","name":"n","risk":"safe","risk_hints":{"readOnly":true},"output_schema":null,"input_schema":true}`, true},
		{"catalog entry risk_hints missing", CatalogEntry, `{"id":"e","kind":"k","name":"n","risk":"safe"}`, false},
		{"catalog entry input_schema string", CatalogEntry, `{"id":"e","kind":"k","name":"n","risk":"safe","risk_hints":{},"input_schema":"x"}`, false},
		{"plan step arm incomplete", Plan, `{"steps":[{"id":"a","arm":{"branch":"b"},"risk":"safe","risk_hints":{}}],"max_risk":"safe","max_risk_hints":{}}`, false},
		{"risk hint not boolean", "risk-hints.schema.json", `{"readOnly":"yes"}`, false},
	}
	for _, c := range cases {
		err := compile(t, c.file).Validate(instance(t, c.inst))
		if c.valid && err != nil {
			t.Errorf("%s: rejected: %v", c.name, err)
		}
		if !c.valid && err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}

// TestRetentionAgreesWithParser keeps the schema's retention rule and
// types.ParseRetention in step.
func TestRetentionAgreesWithParser(t *testing.T) {
	b, _ := Get(Bundle)
	var bundle struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	_ = json.Unmarshal(b, &bundle)
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(bundle.Defs["Retention"]))
	_ = c.AddResource("urn:retention", doc)
	s, err := c.Compile("urn:retention")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{"none", "session", "PT1H", "P1D", "P2W", "P1Y2M3DT4H5M6S", "PT0.5S", "PT1,5M", "P0D", "P1M", "",
		"P", "PT", "1h", "P1H", "PT1D", "P1DT", "p1d", "P1W2D", "P1.5DT2H", "PT1.5H30M", "P-1D", "Session", "P1S", "P1Y1Y"} {
		_, perr := types.ParseRetention(in)
		serr := s.Validate(in)
		if (perr == nil) != (serr == nil) {
			t.Errorf("%q: parser %v, schema %v", in, perr, serr)
		}
	}
}
