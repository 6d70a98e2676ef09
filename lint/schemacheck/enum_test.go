package schemacheck

import (
	"encoding/json"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// EnumValues: the values every enum of a member's declarations admits,
// read through $ref, allOf and a nullable union, each once in the first
// enum's order, equal as JSON values are; the enums it read come back for
// the caller to point at.
func TestResolverEnumValues(t *testing.T) {
	for _, c := range []struct {
		schema string // the declarations are those of member m
		values string // JSON of the values; "null" when no enum is an array
		enums  int
	}{
		{`{"properties": {"m": {"type": "string"}}}`, `null`, 0},
		{`{"properties": {"m": {"enum": ["list", "get", "changed_since"]}}}`, `["list","get","changed_since"]`, 1},
		// Pydantic: the enum under $defs, and Optional[...] adds null.
		{`{"$defs": {"V": {"enum": ["list", "get"], "type": "string"}}, "properties": {"m": {"anyOf": [{"$ref": "#/$defs/V"}, {"type": "null"}]}}}`, `["list","get"]`, 1},
		{`{"properties": {"m": {"enum": ["get", "list", null, "get"]}}}`, `["get","list",null]`, 1},
		// zod's .and(): two declarations, each with an enum; only what both admit.
		{`{"allOf": [{"properties": {"m": {"enum": ["list", "get", "x"]}}}, {"properties": {"m": {"enum": ["y", "get", "list"]}}}]}`, `["list","get"]`, 2},
		{`{"properties": {"m": {"enum": ["list"], "allOf": [{"enum": []}]}}}`, `[]`, 2},
		// Numbers by value, objects by member regardless of order.
		{`{"properties": {"m": {"enum": [1, 2.5, {"a": 1, "b": [true]}, "1"], "allOf": [{"enum": [1.0, 25e-1, {"b": [true], "a": 1.0}]}]}}}`, `[1,2.5,{"a":1,"b":[true]}]`, 2},
		{`{"properties": {"m": {"enum": [0, {"a": 1}]}}, "allOf": [{"properties": {"m": {"enum": [-0.0, {"a": 2}]}}}]}`, `[0]`, 2},
		// An enum that is no array restricts nothing here; the caller
		// reports it.
		{`{"properties": {"m": {"enum": "list", "allOf": [{"enum": ["list", "get"]}]}}}`, `["list","get"]`, 2},
		{`{"properties": {"m": {"enum": "list"}}}`, `null`, 1},
	} {
		root := parse(t, c.schema)
		r := NewResolver(root)
		values, enums := r.EnumValues(r.Declarations(root, "m"))
		got := "null"
		if values != nil {
			vs := []any{}
			for _, v := range values {
				vs = append(vs, v.Value())
			}
			b, _ := json.Marshal(vs)
			got = string(b)
		}
		if got != c.values || len(enums) != c.enums {
			t.Errorf("%s: values %s from %d enums, want %s from %d", c.schema, got, len(enums), c.values, c.enums)
		}
	}
}

// The key EnumValues compares by is source.Equal's notion of the same
// value, pair by pair.
func TestValueKeyIsEqual(t *testing.T) {
	vals := parse(t, `[null, false, true, 0, -0, 0.0, 1, 1.0, 1e0, 10, 1e1, 0.1, 1e-1, 2.5, "1", "", "a",
	  "a\"b", [], [1], [1.0], [1, 2], [2, 1], {}, {"a": 1}, {"a": 1.0}, {"b": 1}, {"a": 1, "b": 2}, {"b": 2, "a": 1},
	  {"a": [1, {"c": null}]}, {"a": [1.0, {"c": null}]}, ["a", "b"], ["ab"], {"a,b": 1}, {"a": {"b": 1}}]`).Kids()
	for _, a := range vals {
		for _, b := range vals {
			ka, kb := string(appendValueKey(nil, a)), string(appendValueKey(nil, b))
			if eq := source.Equal(a, b); eq != (ka == kb) {
				t.Errorf("%s and %s: Equal %v, keys %q and %q", a.Pointer(), b.Pointer(), eq, ka, kb)
			}
		}
	}
}
