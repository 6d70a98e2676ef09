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
