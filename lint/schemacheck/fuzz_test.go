package schemacheck

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// FuzzCompile: any schema document compiles or yields located issues,
// without panicking, and the loader is never asked for anything but the
// built-in meta-schemas' site (which it refuses too).
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`{}`, `true`, `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`,
		`{"$ref":"/dev/zero"}`, `{"$ref":"http://127.0.0.1:1/x"}`, `{"$schema":"file:///etc/passwd"}`,
		`{"pattern":"(?=x)"}`, `{"patternProperties":{"[":{}}}`, `{"$id":"https://e.x/a","$ref":"a#/x"}`,
		`{"$dynamicRef":"#meta","$dynamicAnchor":"meta"}`, `{"$schema":"http://json-schema.org/draft-04/schema#","id":"x","definitions":{"a":{"id":"#a"}}}`,
		`{"allOf":[{"$ref":"#"}],"not":{"$ref":"#/allOf/0"}}`, `{"$anchor":"a","items":{"$ref":"#a"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		stop := time.AfterFunc(10*time.Second, func() { panic("compiling one schema took more than 10s") })
		defer stop.Stop()
		file := source.Parse("schema.json", data, source.Options{})
		if len(file.Docs) == 0 {
			return
		}
		var asked []string
		loadHook = func(u string) { asked = append(asked, u) }
		defer func() { loadHook = nil }()
		_, issues := Compile(file.Docs[0].Root)
		for _, is := range issues {
			if is.Node == nil || is.Message == "" || is.Kind == 0 {
				t.Fatalf("bad issue %+v", is)
			}
		}
		for _, u := range asked {
			if !strings.Contains(u, "json-schema.org/") {
				t.Fatalf("the loader was asked for %q", u)
			}
		}
	})
}

// FuzzResolver: any schema document is read by every Resolver method,
// on the root and on each member, without panicking or looping.
func FuzzResolver(f *testing.F) {
	for _, s := range []string{
		pydanticCatalog, `{"$ref": "#"}`, `{"allOf": [{"$ref": "#/allOf/0"}]}`, `{"allOf": {"a": {}}}`,
		`{"anyOf": [{"$ref": "#/$defs/n"}, {"type": "null"}], "$defs": {"n": {"$ref": "#"}}}`,
		`{"$ref": "#/$defs/A", "$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}], "properties": {"a": {"$ref": "#/$defs/A"}}}, "B": {"$ref": "#/$defs/A", "required": ["a"]}}}`,
		`{"properties": {"a": {"type": ["string", 1]}, "b": {"enum": [1, "x", null]}, "c": {"const": 1.5}}, "dependencies": {"a": ["b"], "b": {}}}`,
		`{"$defs": {"A": {"allOf": [{"$ref": "#/$defs/B"}], "type": "string"}, "B": {"anyOf": [{"$ref": "#/$defs/A"}, {"allOf": [{"$ref": "#/$defs/A"}]}]}}, "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}}`,
		`{"$defs": {"d0": {"$anchor": "x", "type": "object"}, "d1": {"$anchor": "x"}, "d2": {}, "d3": {}, "d4": {}, "d5": {}, "d6": {}, "d7": {}, "d8": {"$ref": "#/$defs/d0"}}, "allOf": [{"$ref": "#x"}, {"$ref": "#/$defs/d8"}, {}, {}, {}, {}, {}, {}, {}, {}], "required": ["a", "b", "c", "d", "e", "f", "g", "h", "i", "a"]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := source.Parse("schema.json", data, source.Options{})
		if len(file.Docs) == 0 {
			return
		}
		root := file.Docs[0].Root
		r := NewResolver(root)
		nodes := append([]*source.Node{root, r.Deref(root)}, r.Members(root)...)
		for _, n := range nodes {
			if n == nil {
				continue // Deref of a loop
			}
			r.Parts(n)
			r.Whole(n)
			r.RequiredNames(n)
			r.Keywords(n, "enum")
			if ts, ok := r.Types(n); ok && !slices.IsSorted(ts) {
				t.Fatalf("types %q are not sorted", ts)
			}
			r.TypesAll(r.Declarations(root, n.Key()))
		}
	})
}
