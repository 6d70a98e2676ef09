package snapshot_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// TestSchemaView reads a schema as a validator does: a member behind a
// local $ref, in an allOf, or in the non-null branch of a nullable union,
// and a reference cycle that ends.
func TestSchemaView(t *testing.T) {
	const schema = `{
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
}`
	root := source.Parse("s.json", []byte(schema), source.Options{}).Docs[0].Root
	v := snapshot.ViewOf(root, root)
	if p := v.Property("language"); p == nil || p.Pointer() != "/$defs/Base/properties/language" {
		t.Errorf("language from the allOf's $ref: %v", p)
	}
	var req []string
	for _, r := range v.Required() {
		req = append(req, r.Text())
	}
	if len(req) != 2 || req[0] != "verb" || req[1] != "language" {
		t.Errorf("required %q, want verb and language", req)
	}
	member := func(name, kw string) *source.Node { return snapshot.ViewOf(root, v.Property(name)).Get(kw) }
	if e := member("verb", "enum"); e == nil || e.Pointer() != "/$defs/Verb/enum" {
		t.Errorf("verb's enum behind $ref: %v", e)
	}
	if ty := member("kind", "type"); ty == nil || !snapshot.TypeAllows(ty, "string") {
		t.Errorf("kind's type through the nullable union: %v", ty)
	}
	if ty := member("either", "type"); ty != nil {
		t.Errorf("a union of two types is no nullable union, yet gave type %s", ty.Text())
	}
	if ty := member("loop", "type"); ty != nil {
		t.Errorf("a reference cycle gave %v", ty)
	}
	if ty := member("nullable", "type"); !snapshot.TypeAllows(ty, "integer") || snapshot.TypeAllows(ty, "string") {
		t.Errorf("[integer, null] allows integer only")
	}
}
