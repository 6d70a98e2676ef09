package schemacheck

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// pydanticCatalog is pilotage_catalog's input schema as Pydantic 2 writes
// it (FastMCP's tool schemas): the verb enum under $defs behind a $ref, an
// Optional limit as a nullable anyOf, a title on every property.
const pydanticCatalog = `{
  "$defs": {"Verb": {"enum": ["list", "get", "changed_since"], "title": "Verb", "type": "string"}},
  "properties": {
    "language": {"title": "Language", "type": "string"},
    "verb": {"$ref": "#/$defs/Verb"},
    "limit": {"anyOf": [{"minimum": 1, "type": "integer"}, {"type": "null"}], "default": null, "title": "Limit"},
    "id": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null, "title": "Id"}
  },
  "required": ["language", "verb"],
  "title": "pilotage_catalogArguments",
  "type": "object"
}`

func texts(ns []*source.Node) string {
	var out []string
	for _, n := range ns {
		switch {
		case n.IsObject() || n.IsArray():
			out = append(out, n.Pointer())
		case n.IsBool():
			out = append(out, fmt.Sprint(n.Truth()))
		default:
			out = append(out, n.Text())
		}
	}
	return strings.Join(out, ",")
}

func TestResolverPydanticCatalog(t *testing.T) {
	root := parse(t, pydanticCatalog)
	r := NewResolver(root)
	verb := r.Member(root, "verb")
	if got := texts(r.Keywords(verb, "enum")); got != "/$defs/Verb/enum" {
		t.Errorf("verb's enum: %q", got)
	}
	if ts, ok := r.Types(verb); !ok || strings.Join(ts, ",") != "string" {
		t.Errorf("verb's types: %q %v", ts, ok)
	}
	limit := r.Member(root, "limit")
	if got := texts(r.Keywords(limit, "minimum")); got != "1" {
		t.Errorf("limit's minimum: %q", got)
	}
	if ts, ok := r.Types(limit); !ok || strings.Join(ts, ",") != "integer,null" {
		t.Errorf("limit's types: %q %v", ts, ok)
	}
	if r.Required(root, "verb") == nil || r.Required(root, "limit") != nil {
		t.Errorf("required: verb %v, limit %v", r.Required(root, "verb"), r.Required(root, "limit"))
	}
	if got := len(r.Members(root)); got != 4 {
		t.Errorf("%d members, want 4", got)
	}
}

func TestResolverComposition(t *testing.T) {
	// zod's .and() as allOf, a named root $ref, a draft-07 definitions
	// container, an anchor, and an $id-relative reference.
	root := parse(t, `{
	  "$ref": "#/definitions/Args",
	  "definitions": {
	    "Args": {"allOf": [{"$ref": "#/definitions/Base"}, {"type": "object", "properties": {"trace_level": {"type": "string"}}, "required": ["run_id"]}]},
	    "Base": {"type": "object", "properties": {"flow": {}, "run_id": {"$ref": "#id"}}},
	    "Id": {"$anchor": "id", "type": "string"},
	    "Nested": {"$id": "https://example.com/nested.json", "$defs": {"n": {"type": "boolean"}}, "properties": {"x": {"$ref": "#/$defs/n"}}}
	  }
	}`)
	r := NewResolver(root)
	args := r.Deref(root)
	if args.Pointer() != "/definitions/Args" {
		t.Fatalf("Deref(root) = %s", args.Pointer())
	}
	var names []string
	for _, m := range r.Members(args) {
		names = append(names, m.Key())
	}
	if strings.Join(names, ",") != "flow,run_id,trace_level" {
		t.Errorf("members %q", names)
	}
	if r.Required(args, "run_id") == nil || r.Required(args, "flow") != nil {
		t.Error("run_id is required through allOf, flow is not")
	}
	if ts, ok := r.Types(r.Member(args, "run_id")); !ok || strings.Join(ts, ",") != "string" {
		t.Errorf("run_id through an anchor: %q %v", ts, ok)
	}
	x := root.Path("definitions", "Nested", "properties", "x")
	if ts, ok := r.Types(x); !ok || strings.Join(ts, ",") != "boolean" {
		t.Errorf("a reference relative to an embedded $id: %q %v", ts, ok)
	}
}

func TestResolverTypes(t *testing.T) {
	for _, c := range []struct {
		member, want string // want "" means the type is open
	}{
		{`{}`, ""},
		{`true`, ""},
		{`false`, "-"},
		{`{"type": "string", "title": "T"}`, "string"},
		{`{"type": ["string", "null"]}`, "null,string"},
		{`{"anyOf": [{"type": "integer"}, {"type": "null"}], "default": null}`, "integer,null"},
		{`{"allOf": [{"$ref": "#/$defs/s"}], "description": "older Pydantic 2"}`, "string"},
		{`{"$ref": "#/$defs/e"}`, "string"},
		{`{"enum": ["a", 1]}`, "integer,string"},
		{`{"const": true}`, "boolean"},
		{`{"const": 1.0}`, "integer"},
		{`{"type": "number", "allOf": [{"type": "integer"}]}`, "integer"},
		{`{"type": "integer", "anyOf": [{"type": "number"}, {"type": "string"}]}`, "integer"},
		{`{"anyOf": [{"type": "string"}, {}]}`, ""},
		{`{"$ref": "#/$defs/loop"}`, ""},
		{`{"$ref": "https://example.com/x.json"}`, ""},
		{`{"$ref": "#/$defs/nowhere"}`, ""},
	} {
		root := parse(t, `{"properties": {"m": `+c.member+`}, "$defs": {"s": {"type": "string"}, "e": {"enum": ["a", "b"], "title": "E"}, "loop": {"$ref": "#/$defs/loop"}}}`)
		r := NewResolver(root)
		ts, ok := r.Types(r.Member(root, "m"))
		got := strings.Join(ts, ",")
		switch {
		case !ok:
			got = ""
		case got == "":
			got = "-"
		}
		if got != c.want {
			t.Errorf("%s: types %q, want %q", c.member, got, c.want)
		}
	}
}

func TestResolverNullableAndDeref(t *testing.T) {
	root := parse(t, `{"properties": {
	  "a": {"anyOf": [{"$ref": "#/$defs/Flow"}, {"type": "null"}], "default": null, "title": "A"},
	  "b": {"oneOf": [{"type": "null"}, {"type": "string"}]},
	  "c": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
	  "d": {"$ref": "#/$defs/Flow", "description": "annotated"},
	  "e": {"$ref": "#/$defs/Flow", "minProperties": 1}
	}, "$defs": {"Flow": {"type": "object", "additionalProperties": false}}}`)
	r := NewResolver(root)
	flow := root.Path("$defs", "Flow")
	if got := r.NonNull(r.Member(root, "a")); got != root.Path("properties", "a", "anyOf").Kids()[0] {
		t.Errorf("NonNull(a) = %v", got)
	}
	if parts := r.Parts(r.Member(root, "a")); len(parts) != 3 || parts[2] != flow {
		t.Errorf("Parts(a) = %s", texts(parts))
	}
	if got := r.NonNull(r.Member(root, "b")); got == nil || got.Pointer() != "/properties/b/oneOf/1" {
		t.Errorf("NonNull(b) = %v", got)
	}
	if r.NonNull(r.Member(root, "c")) != nil {
		t.Error("a union of two non-null types is not nullable")
	}
	if r.Deref(r.Member(root, "d")) != flow {
		t.Error("a $ref with annotations is its target")
	}
	if e := r.Member(root, "e"); r.Deref(e) != e {
		t.Error("a $ref beside an assertion is not only its target")
	}
	if got := texts(r.Keywords(r.Member(root, "a"), "additionalProperties")); got != "false" {
		t.Errorf("additionalProperties through the nullable union: %q", got)
	}
}

// TestResolverAsSchemaView keeps the cases snapshot.SchemaView was tested
// with when the binding rules read schemas through it: a member behind
// an allOf's $ref, required entries of every part, an enum behind a $ref,
// a type through a nullable union, a union of two types (no nullable
// union), a reference cycle, and a type array with null.
func TestResolverAsSchemaView(t *testing.T) {
	root := parse(t, `{
  "$defs": {"Verb": {"enum": ["list", "get"], "type": "string"}, "Loop": {"$ref": "#/$defs/Loop"}, "Base": {"properties": {"language": {"type": "string"}}, "required": ["language"]}},
  "allOf": [{"$ref": "#/$defs/Base"}],
  "properties": {
    "verb": {"$ref": "#/$defs/Verb"},
    "kind": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null},
    "either": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    "loop": {"$ref": "#/$defs/Loop"},
    "nullable": {"type": ["integer", "null"]}
  },
  "required": ["verb"],
  "type": "object"
}`)
	r := NewResolver(root)
	if p := r.Member(root, "language"); p == nil || p.Pointer() != "/$defs/Base/properties/language" {
		t.Errorf("language from the allOf's $ref: %v", p)
	}
	if got := texts(r.RequiredNames(root)); got != "verb,language" {
		t.Errorf("required %q, want verb and language", got)
	}
	if got := texts(r.Keywords(r.Member(root, "verb"), "enum")); got != "/$defs/Verb/enum" {
		t.Errorf("verb's enum behind $ref: %q", got)
	}
	only := func(name, typ string) bool {
		ts, ok := r.Types(r.Member(root, name))
		return ok && OnlyType(ts, typ)
	}
	if !only("kind", "string") {
		t.Error("kind is a string or null through the nullable union")
	}
	if only("either", "string") || only("either", "integer") {
		t.Error("a union of two types allows more than one of them")
	}
	if _, ok := r.Types(r.Member(root, "loop")); ok {
		t.Error("a reference cycle gave a type")
	}
	if !only("nullable", "integer") || only("nullable", "string") {
		t.Error("[integer, null] allows integer only")
	}
}

func TestOnlyType(t *testing.T) {
	for _, c := range []struct {
		types []string
		t     string
		want  bool
	}{
		{[]string{"string"}, "string", true},
		{[]string{"null", "string"}, "string", true},
		{[]string{"null"}, "string", false},
		{[]string{}, "string", false},
		{[]string{"integer", "string"}, "string", false},
		{[]string{"integer"}, "integer", true},
		{[]string{"number"}, "integer", false},
		{[]string{"integer", "null"}, "integer", true},
		{[]string{"object"}, "object", true},
	} {
		if got := OnlyType(c.types, c.t); got != c.want {
			t.Errorf("OnlyType(%q, %s) = %v, want %v", c.types, c.t, got, c.want)
		}
	}
}

// A member declared by two parts (zod's .and() of two objects naming the
// same key) is constrained by both declarations: its types are what both
// allow, and each declaration's keywords count.
func TestResolverDeclarations(t *testing.T) {
	root := parse(t, `{"allOf": [
	  {"type": "object", "properties": {"language": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["language"]},
	  {"type": "object", "properties": {"limit": {"minimum": 1, "description": "page size"}, "verb": {"enum": ["list", "get"]}}}
	]}`)
	r := NewResolver(root)
	limit := r.Declarations(root, "limit")
	if got := texts(limit); got != "/allOf/0/properties/limit,/allOf/1/properties/limit" {
		t.Fatalf("limit's declarations: %q", got)
	}
	if ts, ok := r.TypesAll(limit); !ok || strings.Join(ts, ",") != "integer" {
		t.Errorf("limit's types across both declarations: %q %v", ts, ok)
	}
	var mins []*source.Node
	for _, d := range limit {
		mins = append(mins, r.Keywords(d, "minimum")...)
	}
	if got := texts(mins); got != "1" {
		t.Errorf("limit's minimum from the second declaration: %q", got)
	}
	if ts, ok := r.TypesAll(r.Declarations(root, "verb")); !ok || strings.Join(ts, ",") != "string" {
		t.Errorf("verb's types from its enum: %q %v", ts, ok)
	}
	if ds := r.Declarations(root, "topic"); len(ds) != 0 {
		t.Errorf("an undeclared member has declarations %q", texts(ds))
	}
	if _, ok := r.TypesAll(nil); ok {
		t.Error("no declaration leaves the type open")
	}
	a := parse(t, `{"properties": {"x": {"type": ["string", "integer"]}}, "allOf": [{"properties": {"x": {"type": "integer"}}}]}`)
	ra := NewResolver(a)
	if ts, ok := ra.TypesAll(ra.Declarations(a, "x")); !ok || strings.Join(ts, ",") != "integer" {
		t.Errorf("x's types, intersected: %q %v", ts, ok)
	}
}

// Whole says whether what the parts of a schema declare is all it
// declares: not when a part lies outside the document, nor when members
// or requirements come from a branch that applies only under a condition.
func TestResolverWhole(t *testing.T) {
	for _, c := range []struct {
		schema string
		whole  bool
	}{
		{`{"type": "object", "properties": {"a": {}}}`, true},
		{`true`, true},
		{`{"$ref": "#/$defs/A", "$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}]}, "B": {"properties": {"a": {}}}}}`, true},
		{`{"properties": {"a": {}}, "anyOf": [{"type": "object"}, {"type": "null"}]}`, true},
		{`{"$ref": "#/$defs/Self", "$defs": {"Self": {"properties": {"next": {"$ref": "#/$defs/Self"}}}}}`, true},
		{`{"properties": {"a": {"$ref": "https://example.com/a.json"}}}`, true},
		{`{"allOf": [{"$ref": "https://example.com/base.json"}, {"properties": {"a": {}}}]}`, false},
		{`{"$ref": "#/$defs/missing"}`, false},
		{`{"anyOf": [{"properties": {"flow": {}}}, {"properties": {"program_ref": {}}}]}`, false},
		{`{"oneOf": [{"required": ["a"]}, {"required": ["b"]}]}`, false},
		{`{"if": {"required": ["a"]}, "then": {"required": ["b"]}}`, false},
		{`{"dependentSchemas": {"a": {"properties": {"b": {}}}}}`, false},
		{`{"dependencies": {"a": {"properties": {"b": {}}}}}`, false},
		{`{"$dynamicRef": "#meta"}`, false},
	} {
		root := parse(t, c.schema)
		if got := NewResolver(root).Whole(root); got != c.whole {
			t.Errorf("Whole(%s) = %v, want %v", c.schema, got, c.whole)
		}
	}
	// A member's own schema is judged the same way.
	root := parse(t, `{"properties": {"verb": {"$ref": "https://example.com/verb.json"}, "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}}}`)
	r := NewResolver(root)
	if r.Whole(r.Member(root, "verb")) {
		t.Error("a member behind an external reference is whole")
	}
	if !r.Whole(r.Member(root, "limit")) {
		t.Error("a nullable member is not whole")
	}
}
