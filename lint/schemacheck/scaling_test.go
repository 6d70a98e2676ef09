package schemacheck

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/scaling"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// scalingShapes build schema documents that grow in one direction with n:
// each is a way a crafted (or generated) tool schema can be large. Every
// one of them was once read in more than linear time.
var scalingShapes = []struct {
	name string
	n    int // the smaller size; the test also reads 10n
	gen  func(n int) any
}{
	// A long allOf: each part was checked against the parts already seen.
	{"allOf", 1000, func(n int) any {
		all := make([]any, n)
		for i := range all {
			all[i] = map[string]any{}
		}
		return map[string]any{"type": "object", "properties": map[string]any{"verb": map[string]any{"type": "string"}}, "allOf": all}
	}},
	// A long required: each name was checked against the names kept.
	{"required", 1000, func(n int) any {
		req := make([]any, n)
		for i := range req {
			req[i] = fmt.Sprintf("m%d", i)
		}
		return map[string]any{"type": "object", "properties": map[string]any{"verb": map[string]any{"type": "string"}}, "required": req}
	}},
	// Many definitions, each the target of a reference: each reference
	// looked its name up among all of them.
	{"defs", 1000, func(n int) any {
		defs, all := map[string]any{}, make([]any, n)
		for i := range all {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object"}
			all[i] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i)}
		}
		return map[string]any{"$defs": defs, "allOf": all, "properties": map[string]any{"verb": map[string]any{"$ref": "#/$defs/d0"}}}
	}},
	// Many anchors, each the target of a reference: each reference
	// walked the whole document for its anchor.
	{"anchors", 1000, func(n int) any {
		defs, all := map[string]any{}, make([]any, n)
		for i := range all {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"$anchor": fmt.Sprintf("a%d", i), "type": "object"}
			all[i] = map[string]any{"$ref": fmt.Sprintf("#a%d", i)}
		}
		return map[string]any{"$defs": defs, "allOf": all}
	}},
	// A long chain of aliases behind a named root: the loop guards of
	// Deref and Types searched the chain walked so far.
	{"chain", 1000, func(n int) any {
		defs := map[string]any{}
		for i := range n {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		}
		defs[fmt.Sprintf("d%d", n)] = map[string]any{"type": "object", "properties": map[string]any{"verb": map[string]any{"type": "string"}}}
		return map[string]any{"$ref": "#/$defs/d0", "$defs": defs}
	}},
	// A member declared twice (zod's .and()), each with an enum of n
	// values: the values both admit.
	{"enum", 1000, func(n int) any {
		a, b := make([]any, n), make([]any, n)
		for i := range a {
			a[i], b[n-1-i] = fmt.Sprintf("v%d", i), fmt.Sprintf("v%d", i)
		}
		return map[string]any{"properties": map[string]any{"verb": map[string]any{"enum": a}}, "allOf": []any{map[string]any{"properties": map[string]any{"verb": map[string]any{"enum": b}}}}}
	}},
	// Definitions that each name the next one twice, in a union: Types
	// read every path through them, 2^n of them.
	{"dag", 8, func(n int) any {
		defs := map[string]any{}
		for i := range n {
			ref := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"anyOf": []any{ref, map[string]any{"allOf": []any{ref}}}}
		}
		defs[fmt.Sprintf("d%d", n)] = map[string]any{"type": "string"}
		return map[string]any{"$defs": defs, "type": "object", "properties": map[string]any{"verb": map[string]any{"$ref": "#/$defs/d0"}}}
	}},
}

// readAll asks every Resolver question a rule asks of a tool's schema, on
// the root and on a member, with a new Resolver as each rule makes one.
func readAll(root *source.Node) {
	r := NewResolver(root)
	n := r.Deref(root)
	if n == nil {
		n = root
	}
	r.Parts(root)
	r.Whole(root)
	r.RequiredNames(root)
	r.Required(root, "verb")
	r.Keywords(root, "enum")
	r.Members(root)
	r.Types(root)
	r.Types(n)
	for _, d := range r.Declarations(root, "verb") {
		r.Whole(d)
		r.Keywords(d, "enum")
	}
	r.TypesAll(r.Declarations(root, "verb"))
	r.EnumValues(r.Declarations(root, "verb"))
}

// TestResolverScales fails when reading a schema 10 times as large costs
// more than scaling.Budget (30) times as much: linear reading costs about
// 10 times, a quadratic one about 100, and a crafted schema read in more
// than linear time stalls a pre-commit hook.
func TestResolverScales(t *testing.T) {
	if testing.Short() {
		t.Skip("scaling measurement skipped in -short mode")
	}
	for _, sh := range scalingShapes {
		t.Run(sh.name, func(t *testing.T) {
			small, large := schemaRoot(t, sh.gen(sh.n)), schemaRoot(t, sh.gen(10*sh.n))
			ratio, report := scaling.Ratio(func() { readAll(small) }, func() { readAll(large) })
			t.Log(report)
			if ratio > scaling.Budget {
				t.Fatalf("reading the %s schema at size %d costs %.0fx what it costs at size %d: %s", sh.name, 10*sh.n, ratio, sh.n, report)
			}
		})
	}
}

func schemaRoot(t *testing.T, v any) *source.Node {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	f := source.Parse("schema.json", data, source.Options{})
	if len(f.Docs) == 0 {
		t.Fatal("the generated schema does not parse")
	}
	return f.Docs[0].Root
}

// TestResolverTypesLoops: a loop of references is cut where the reading
// meets it again, so each start reads it whole but for the loop's own
// edge, whichever start is asked first; a lattice of loops too large to
// read from every start is given up within the budget, its types open
// and Whole false, so that rules skip rather than guess.
func TestResolverTypesLoops(t *testing.T) {
	root := parse(t, `{
	  "$defs": {
	    "A": {"allOf": [{"$ref": "#/$defs/B"}], "type": ["string", "integer"]},
	    "B": {"allOf": [{"$ref": "#/$defs/A"}], "type": ["string", "null"]}
	  },
	  "properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/B"}}
	}`)
	for _, order := range [][]string{{"a", "b"}, {"b", "a"}} {
		r := NewResolver(root)
		for _, m := range order {
			if ts, ok := r.Types(r.Member(root, m)); !ok || fmt.Sprint(ts) != "[string]" {
				t.Errorf("order %v: member %s has types %v %v, want [string]", order, m, ts, ok)
			}
		}
		if !r.Whole(root) {
			t.Errorf("order %v: a small loop left the schema not whole", order)
		}
	}

	defs := map[string]any{}
	const depth = 60
	for i := range depth {
		ref := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{ref, map[string]any{"allOf": []any{ref}}}}
	}
	defs[fmt.Sprintf("d%d", depth)] = map[string]any{"$ref": "#/$defs/d0"}
	lattice := schemaRoot(t, map[string]any{"$defs": defs, "properties": map[string]any{"verb": map[string]any{"$ref": "#/$defs/d0"}}})
	stop := time.AfterFunc(time.Minute, func() { panic("reading a lattice of loops took more than a minute") })
	defer stop.Stop()
	r := NewResolver(lattice)
	if !r.Whole(lattice) {
		t.Fatal("the lattice is whole before its types are read")
	}
	if ts, ok := r.Types(r.Member(lattice, "verb")); ok {
		t.Errorf("the lattice's types are %v, want open", ts)
	}
	if r.Whole(lattice) {
		t.Error("Whole is true after the Resolver gave up on the lattice's loops")
	}
}

// TestResolverPastSmallSet: what the Resolver keeps in maps once a schema
// outgrows smallSet answers as the scans it replaces did: names and parts
// once each in order, the last of duplicate names, the first anchor, a
// long loop of aliases found.
func TestResolverPastSmallSet(t *testing.T) {
	var req, all, defs, chain []string
	for i := range 12 {
		req = append(req, fmt.Sprintf(`"m%d"`, i))
		all = append(all, `{"$ref": "#/$defs/d5"}`, `{"$ref": "#a"}`)
		defs = append(defs, fmt.Sprintf(`"d%d": {"type": "object", "title": "first d%d"}`, i, i))
		chain = append(chain, fmt.Sprintf(`"c%d": {"$ref": "#/$defs/c%d"}`, i, (i+1)%12))
	}
	// A duplicate name is a parse problem, and still read: the last wins.
	root := source.Parse("schema.json", []byte(`{
	  "required": [`+strings.Join(req, ",")+`, "m3", "m0"],
	  "allOf": [`+strings.Join(all, ",")+`],
	  "$defs": {`+strings.Join(defs, ",")+`, "d5": {"type": "string", "title": "last d5"}, "x": {"$anchor": "a", "title": "first a"}, "y": {"$anchor": "a"}, `+strings.Join(chain, ",")+`},
	  "properties": {"loop": {"$ref": "#/$defs/c0"}, "end": {"$ref": "#/$defs/d5"}}
	}`), source.Options{}).Docs[0].Root
	r := NewResolver(root)
	if got := texts(r.RequiredNames(root)); got != strings.ReplaceAll(strings.Join(req, ","), `"`, "") {
		t.Errorf("required names %s", got)
	}
	parts := ",/allOf/0,/$defs/d5,/allOf/1,/$defs/x" // the targets once
	for i := 2; i < 24; i++ {
		parts += fmt.Sprintf(",/allOf/%d", i)
	}
	if got := texts(r.Parts(root)); got != parts {
		t.Errorf("parts %s", got)
	}
	if got := r.Target(root.Path("allOf", "0", "$ref")); got.Get("title").Text() != "last d5" {
		t.Errorf("a reference to a duplicate name reaches %s", got.Pointer())
	}
	if got := r.Target(root.Path("allOf", "1", "$ref")); got.Get("title").Text() != "first a" {
		t.Errorf("an anchor named twice reaches %s", got.Pointer())
	}
	if got := r.Deref(r.Member(root, "loop")); got != nil {
		t.Errorf("a loop of 12 aliases derefs to %s", got.Pointer())
	}
	if ts, ok := r.Types(r.Member(root, "end")); !ok || fmt.Sprint(ts) != "[string]" {
		t.Errorf("end's types %v %v", ts, ok)
	}
}
