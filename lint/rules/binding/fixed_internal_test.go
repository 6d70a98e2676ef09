package binding

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

func parseNode(t *testing.T, text string) *source.Node {
	t.Helper()
	f := source.Parse("s.json", []byte(text), source.Options{})
	if len(f.Docs) != 1 || len(f.Problems) > 0 {
		t.Fatalf("%s does not parse", text)
	}
	return f.Docs[0].Root
}

// The least value of limit, across every declaration, against the
// binding's minimum 1: an integer's exclusive bound is the next integer,
// a fractional inclusive one its ceiling, and several bounds meet at the
// highest.
func TestBindingLowerBound(t *testing.T) {
	for _, c := range []struct {
		limit, want, at string // want "" means no bound
	}{
		{`{"type": "integer", "minimum": 1}`, "1", "minimum"},
		{`{"type": "integer", "exclusiveMinimum": 0}`, "1", "exclusiveMinimum"},
		{`{"anyOf": [{"type": "integer", "exclusiveMinimum": 0}, {"type": "null"}], "title": "Limit"}`, "1", "exclusiveMinimum"},
		{`{"type": "integer", "minimum": 0.5}`, "1", "minimum"},
		{`{"type": "integer", "exclusiveMinimum": 0.5}`, "1", "exclusiveMinimum"},
		{`{"type": "integer", "exclusiveMinimum": 1}`, "2", "exclusiveMinimum"},
		{`{"type": "integer", "minimum": -1.5}`, "-1", "minimum"},
		{`{"type": "integer", "minimum": 0, "allOf": [{"minimum": 2}]}`, "2", "minimum"},
		{`{"type": "number", "exclusiveMinimum": 0}`, "", ""},
		{`{"type": "number", "minimum": 1.0}`, "1", "minimum"},
		{`{"type": "integer"}`, "", ""},
	} {
		root := parseNode(t, `{"properties": {"limit": `+c.limit+`}}`)
		r := schemacheck.NewResolver(root)
		decls := r.Declarations(root, "limit")
		ts, _ := r.TypesAll(decls)
		got, at := bindingLowerBound(r, decls, schemacheck.OnlyType(ts, "integer"))
		key := ""
		if at != nil {
			key = at.Key()
		}
		if got != c.want || key != c.at {
			t.Errorf("%s: bound %q at %q, want %q at %q", c.limit, got, key, c.want, c.at)
		}
	}
}

func TestBindingEnumAt(t *testing.T) {
	want := parseNode(t, `["list", "get", "changed_since"]`)
	for _, c := range []struct {
		enums []string
		later bool
		bad   int // index of the enum to fix, -1 for none
	}{
		{[]string{`["list", "get", "changed_since"]`}, false, -1},
		{[]string{`["changed_since", "get", "list", null]`}, false, -1},
		{[]string{`["list", "get"]`}, false, 0},
		{[]string{`["list", "get", "changed_since", "search"]`}, false, 0},
		{[]string{`["list", "get", "changed_since", "search"]`}, true, -1},
		{[]string{`["list", "get", "changed_since", "x"]`, `["list", "get", "changed_since", "y"]`}, false, -1},
		{[]string{`["list", "get", "changed_since"]`, `["list", "get"]`}, false, 1},
		{[]string{`["list", "get", "changed_since", "x"]`, `["list", "get", "changed_since", "x"]`}, false, 0},
		{[]string{`"list"`}, false, 0},
		{[]string{`["list", "get", "changed_since", "get"]`}, false, -1},
		{[]string{`["list", "get", "changed_since"]`, `"list"`}, false, 1},
	} {
		// verb declared once per enum, as zod's .and() declares it.
		var parts []string
		for _, e := range c.enums {
			parts = append(parts, `{"properties": {"verb": {"enum": `+e+`}}}`)
		}
		root := parseNode(t, `{"allOf": [`+strings.Join(parts, ", ")+`]}`)
		r := schemacheck.NewResolver(root)
		bad := bindingEnumAt(r, r.Declarations(root, "verb"), want, c.later)
		idx := -1
		for i := range c.enums {
			if root.Path("allOf", strconv.Itoa(i), "properties", "verb", "enum") == bad {
				idx = i
			}
		}
		if idx != c.bad {
			t.Errorf("%v (later %v): enum to fix %d, want %d", c.enums, c.later, idx, c.bad)
		}
	}
}
