package toolschema

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
	"github.com/pilotagekit/pilotagekit/schemas"
)

// publishedOutputSchema compiles the published outputSchema union of a
// tool or stage.
func publishedOutputSchema(t *testing.T, toolOrStage string) *jsonschema.Schema {
	t.Helper()
	name, ok := schemas.OutputSchemaFor(toolOrStage)
	if !ok {
		t.Fatalf("no published outputSchema for %s", toolOrStage)
	}
	b, _ := schemas.Get(name)
	// The published schemas are the linter's own, not input: the plain
	// compiler, which has no loader, is enough.
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemas.ID(name), decode(b)); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(schemas.ID(name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every instance the rule tries, under every capability variant, must be a
// valid result: the published unions, which encode Part II's shapes,
// accept each of them. Otherwise the rule would fault a correct schema.
func TestToolschemaShapesAreValidResults(t *testing.T) {
	snap := &snapshot.Snapshot{}
	for _, name := range types.FixedTools {
		s := publishedOutputSchema(t, name)
		shapes := shapesOf(snap, pilotageTool{Tool: &snapshot.Tool{Name: name}})
		if len(shapes) < 2 {
			t.Errorf("%s: %d shapes, want its success shapes and RequestError", name, len(shapes))
		}
		for _, sh := range shapes {
			for _, inst := range sh.alts {
				if err := s.Validate(inst); err != nil {
					t.Errorf("%s %s: the published schema rejects the instance: %v", name, sh.name, err)
				}
			}
		}
	}
	for _, st := range types.Stages {
		s := publishedOutputSchema(t, string(st))
		lt := &snapshot.LoopTool{Name: "x", Stages: map[types.Stage][]*snapshot.Language{st: nil}}
		shapes := shapesOf(snap, pilotageTool{Tool: &snapshot.Tool{Name: "x"}, loop: lt})
		var names []string
		for _, sh := range shapes {
			names = append(names, sh.name)
			for _, inst := range sh.alts {
				if err := s.Validate(inst); err != nil {
					t.Errorf("%s %s: the published schema rejects the instance: %v", st, sh.name, err)
				}
			}
		}
		if names[len(names)-1] != "RequestError" {
			t.Errorf("%s: shapes %v lack RequestError last", st, names)
		}
	}
}

// A server that declares the published unions as its outputSchemas draws
// no output-schema finding.
func TestToolschemaPublishedUnionsPass(t *testing.T) {
	data, err := os.ReadFile("../../../fixtures/examples/good-server.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	stageOf := map[string]string{"validate_flow": "validate", "run_flow": "execute", "trace_run": "trace"}
	for _, tl := range doc["tools"].(map[string]any)["tools"].([]any) {
		tool := tl.(map[string]any)
		name := tool["name"].(string)
		key := name
		if s, ok := stageOf[name]; ok {
			key = s
		}
		file, ok := schemas.OutputSchemaFor(key)
		if !ok {
			t.Fatalf("no published schema for %s", key)
		}
		b, _ := schemas.Get(file)
		tool["outputSchema"] = json.RawMessage(b)
	}
	in, _ := json.MarshalIndent(doc, "", "  ")
	res, err := lint.Run(context.Background(), []lint.Input{{Name: "published.json", Data: in, Explicit: true}}, &lint.Options{Rules: Rules()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if strings.HasPrefix(f.Rule, "toolschema-") || f.Rule == lint.InternalRule.ID {
			t.Errorf("%s at %s: %s", f.Rule, f.Pointer, f.Message)
		}
	}
}

func parseSchema(t *testing.T, text string) *source.Node {
	t.Helper()
	f := source.Parse("schema.json", []byte(text), source.Options{})
	if len(f.Docs) != 1 {
		t.Fatalf("cannot parse %s", text)
	}
	return f.Docs[0].Root
}

func TestToolschemaCompileOnce(t *testing.T) {
	n := parseSchema(t, `{"type": "object"}`)
	a, b := compileOutputSchema(n), compileOutputSchema(n)
	if a != b || a.schema == nil {
		t.Errorf("compileOutputSchema compiled twice or failed: %p %p %v", a, b, a.issues)
	}
}

// The cached issues keep pointers relative to the outputSchema, whatever
// document it sits in.
func TestToolschemaCompileIssues(t *testing.T) {
	for _, c := range []struct {
		schema   string
		compiles bool
		issues   []string
	}{
		{`{"type": "object"}`, true, nil},
		{`{"anyOf": [{"$ref": "https://x.example/a.json"}, {"$ref": "b.json#/c"}]}`, true, []string{"ext /anyOf/0/$ref", "ext /anyOf/1/$ref"}},
		{`{"$ref": "https://x.example/a.json", "$defs": {"a": {"$id": "https://x.example/a.json"}}}`, true, nil},
		{`{"properties": {"a": {"maxLength": "3"}}}`, false, []string{"bad /properties/a/maxLength"}},
		{`{"$schema": "https://x.example/dialect", "type": "object"}`, true, []string{"bad /$schema"}},
		// JSON Schema patterns are ECMA-262: a look-ahead compiles; a
		// pattern no ECMA engine accepts is still reported.
		{`{"patternProperties": {"(?=x)": {}}}`, true, nil},
		{`{"patternProperties": {"(?=x": {}}}`, true, []string{"bad key /patternProperties/(?=x"}},
		{`{"$ref": "#/$defs/a", "$defs": {"a": {"$ref": "#/$defs/a"}}}`, false, []string{"bad /$ref/$ref"}},
	} {
		root := parseSchema(t, `{"tool": {"outputSchema": `+c.schema+`}}`)
		got := compileOutputSchema(root.Path("tool", "outputSchema"))
		var iss []string
		for _, is := range got.issues {
			k := "bad "
			if is.kind == schemacheck.ExternalRef {
				k = "ext "
			}
			if is.key {
				k += "key "
			}
			iss = append(iss, k+is.ptr)
		}
		if (got.schema != nil) != c.compiles || strings.Join(iss, ",") != strings.Join(c.issues, ",") {
			t.Errorf("%s: compiles=%v issues=%q, want %v %q", c.schema, got.schema != nil, iss, c.compiles, c.issues)
		}
	}
}

func TestToolschemaConstraints(t *testing.T) {
	for _, c := range []struct {
		member string
		want   []string
	}{
		{`{"type": "string", "description": "d", "title": "t", "default": "x", "examples": ["y"], "deprecated": false, "$comment": "c", "x-vendor": 1}`, nil},
		{`true`, nil},
		{`{}`, nil},
		{`false`, []string{""}},
		{`{"type": "string", "enum": ["a"], "pattern": "^a", "format": "uuid", "minLength": 1}`, []string{"enum", "pattern", "minLength"}},
		{`{"type": "object", "additionalProperties": true, "properties": {}, "required": []}`, nil},
		{`{"type": "object", "additionalProperties": false, "required": ["a"]}`, []string{"additionalProperties", "required"}},
		{`{"$ref": "#/$defs/s"}`, nil},
		{`{"$ref": "#/$defs/e"}`, []string{"$ref"}},
		{`{"$ref": "#/$defs/loop"}`, nil},
		{`{"$ref": "https://x.example/s.json"}`, []string{"$ref"}},
		// Pydantic's Optional[str]: a union of JSON types constrains
		// nothing beyond the type; a branch that does constrain still counts.
		{`{"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Trace Level"}`, nil},
		{`{"anyOf": [{"$ref": "#/$defs/s"}, {"type": "null"}]}`, nil},
		{`{"anyOf": [{"type": "string", "enum": ["full"]}, {"type": "null"}], "default": null}`, []string{"enum"}},
		{`{"anyOf": [{"$ref": "#/$defs/e"}, {"type": "null"}]}`, []string{"$ref"}},
		{`{"anyOf": [{"type": "string", "enum": ["full"]}, {"type": "integer"}]}`, []string{"anyOf"}},
		{`{"oneOf": [{"type": "string"}, {"type": "null"}]}`, nil},
		{`{"allOf": [{"$ref": "#/$defs/s"}], "description": "older Pydantic 2"}`, nil},
		{`{"allOf": [{"$ref": "#/$defs/e"}]}`, []string{"allOf"}},
		{`{"type": "string", "format": "uuid"}`, nil},
		{`{"type": ["string", "null"]}`, nil},
	} {
		root := parseSchema(t, `{"properties": {"m": `+c.member+`}, "$defs": {"s": {"type": "string", "title": "S"}, "e": {"enum": ["a"]}, "loop": {"$ref": "#/$defs/loop"}}}`)
		var got []string
		r := &reader{res: schemacheck.NewResolver(root), memo: map[refKey]bool{}}
		for _, n := range r.constraints(root.Path("properties", "m"), true) {
			if n.Key() == "m" {
				got = append(got, "")
				continue
			}
			got = append(got, n.Key())
		}
		if strings.Join(got, ",") != strings.Join(c.want, ",") {
			t.Errorf("%s: constraints %q, want %q", c.member, got, c.want)
		}
	}
}

// The minimal instances are decoded fresh on each call, so completing one
// for a Language never leaks into another.
func TestToolschemaExamplesAreFresh(t *testing.T) {
	a := examples("validate")["ValidateResponse"]
	a["plan"] = "x"
	b, _ := json.Marshal(examples("validate")["ValidateResponse"])
	if bytes.Contains(b, []byte("plan")) {
		t.Errorf("examples share state: %s", b)
	}
}

// acceptUnknown is a regular expression the RE2 engine could not compile:
// the test cannot evaluate it, so it accepts anything, as the rules do.
type acceptUnknown string

func (r acceptUnknown) String() string          { return string(r) }
func (r acceptUnknown) MatchString(string) bool { return true }

// Every instance the rule tries must also be a valid result under the
// spec's official schema, the union Part III §6 binds to its tool: a
// witness only our own schema accepts would fault a server that declares
// the official one (a catalog entry with risk_hints {} did).
func TestToolschemaShapesPassTheOfficialSchema(t *testing.T) {
	// The repository's copy of the reference data (testdata/reference).
	path := filepath.Join("..", "..", "..", "testdata", "reference", "pilotage.schema.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := decode(b)
	c := jsonschema.NewCompiler()
	c.UseRegexpEngine(func(s string) (jsonschema.Regexp, error) {
		if re, err := regexp.Compile(s); err == nil {
			return re, nil
		}
		return acceptUnknown(s), nil
	})
	const url = "mem:///pilotage.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	union := func(def string) *jsonschema.Schema {
		s, err := c.Compile(url + "#/$defs/" + def)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	snap := &snapshot.Snapshot{}
	check := func(def string, shapes []shape) {
		s := union(def)
		for _, sh := range shapes {
			for _, inst := range sh.alts {
				if err := s.Validate(inst); err != nil {
					t.Errorf("%s %s: the official schema rejects the instance: %v", def, sh.name, err)
				}
			}
		}
	}
	for tool, def := range map[string]string{types.ToolManifest: "ManifestToolOutput", types.ToolGetGuide: "GetGuideToolOutput", types.ToolCatalog: "CatalogToolOutput"} {
		check(def, shapesOf(snap, pilotageTool{Tool: &snapshot.Tool{Name: tool}}))
	}
	for st, def := range map[types.Stage]string{types.StageValidate: "ValidateToolOutput", types.StageExecute: "ExecuteToolOutput", types.StageTraceFetch: "TraceToolOutput"} {
		lt := &snapshot.LoopTool{Name: "x", Stages: map[types.Stage][]*snapshot.Language{st: nil}}
		check(def, shapesOf(snap, pilotageTool{Tool: &snapshot.Tool{Name: "x"}, loop: lt}))
	}
}
