package toolschema

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/go-openapi/jsonpointer"

	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Whether a keyword constrains is asked of the schema library, not read
// from the keyword: "minLength": 0, an unanchored pattern that matches the
// empty string, or an anyOf one of whose branches accepts every object
// rejects nothing, while its name says it could. A keyword rejects a value
// when the schema refuses that value and the same schema without the
// keyword accepts it. The values tried are witnesses: values of every
// JSON type (or of the one type the question is about), strings a closed
// set or a format would refuse and strings it would accept, and objects
// built from the member names the schema itself declares. A keyword no
// witness shows rejecting anything is reported by no rule: a missed
// constraint is better than a false error (a maxLength above 65,536, say,
// goes unseen). A schema the library cannot compile offline, with or
// without the keyword, decides nothing, and the keyword is reported as
// its name says.

// witnessStrings are strings a closed set, a pattern or a length would
// refuse, and strings common formats accept (so a format that asserts
// does not hide the keyword beside it).
var witnessStrings = []any{
	"", "a", "A", "0", "x y", "a\nb", "é", "bogus-value",
	"none", "summary", "full", "immediate", "deploy", "true",
	"https://example.com/x", "urn:x:y", "a@example.com",
	"2026-01-01T00:00:00Z", "2026-01-01", "00000000-0000-0000-0000-000000000000",
	strings.Repeat("a", 1<<16),
}

// scalarWitnesses returns the witnesses of one JSON type ("" for every
// type), objects and arrays without member names.
func scalarWitnesses(jsonType string) []any {
	var out []any
	add := func(t string, vs ...any) {
		if jsonType == "" || jsonType == t || jsonType == "number" && t == "integer" {
			out = append(out, vs...)
		}
	}
	add("string", witnessStrings...)
	add("integer", json.Number("0"), json.Number("1"), json.Number("-1"), json.Number("3"))
	if jsonType == "" || jsonType == "number" {
		out = append(out, json.Number("0.5"), json.Number("1e300"), json.Number("-1e300"))
	}
	add("boolean", true, false)
	add("null", nil)
	add("object", map[string]any{}, map[string]any{"x-witness": json.Number("1")})
	add("array", []any{}, []any{json.Number("1")}, []any{"a"}, []any{nil}, []any{map[string]any{}}, []any{json.Number("1"), json.Number("1")})
	return out
}

// memberValues are the values tried for a named member of an object
// witness: one of each JSON type, and a few strings.
func memberValues() []any {
	return []any{"a", "", "bogus-value", json.Number("1"), json.Number("0.5"), true, false, nil, map[string]any{}, []any{}}
}

// keywordRejects reports whether the keyword at relative pointer rel of
// the schema document doc rejects one of the witnesses: doc refuses it
// and doc without that keyword accepts it. decided is false when either
// document cannot be compiled offline as written (an external reference,
// a pattern no engine here reads, an unknown dialect).
func keywordRejects(doc any, rel string, witnesses []any) (rejects, decided bool) {
	return differs(doc, deleteAt(doc, rel), witnesses)
}

// differs reports whether schema document with refuses a witness that
// schema document without accepts.
func differs(with, without any, witnesses []any) (rejects, decided bool) {
	w1, w0 := nodeOf(with), nodeOf(without)
	if w1 == nil || w0 == nil || !compiles(w1) || !compiles(w0) {
		return false, false
	}
	for _, w := range witnesses {
		if f, _ := schemacheck.FitOf(w0, w); f != schemacheck.Fits {
			continue
		}
		// A verdict that turns on whether a format asserts proves
		// nothing either way; the next witness may.
		if f, _ := schemacheck.FitOf(w1, w); f.Rejects() {
			return true, true
		}
	}
	return false, true
}

func compiles(n *source.Node) bool {
	sch, issues := schemacheck.Compile(n)
	return sch != nil && len(issues) == 0
}

// nodeOf parses a decoded JSON value back into a document node.
func nodeOf(v any) *source.Node {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	f := source.Parse("schema.json", b, source.Options{})
	if len(f.Docs) != 1 || len(f.Problems) > 0 {
		return nil
	}
	return f.Docs[0].Root
}

// deleteAt returns a copy of v without the member at pointer rel (which
// names a member of an object); v is left alone.
func deleteAt(v any, rel string) any {
	ptr, err := jsonpointer.New(rel)
	if err != nil {
		return copyJSON(v)
	}
	toks := ptr.DecodedTokens()
	out := copyJSON(v)
	if len(toks) == 0 {
		return out
	}
	cur := out
	for _, t := range toks[:len(toks)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[t]
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return out
			}
			cur = c[i]
		default:
			return out
		}
	}
	if m, ok := cur.(map[string]any); ok {
		delete(m, toks[len(toks)-1])
	}
	return out
}

// relPointer is the pointer of n below ancestor a.
func relPointer(a, n *source.Node) string {
	rel, _ := strings.CutPrefix(n.Pointer(), a.Pointer())
	return rel
}

// withContext returns schema object v with the definitions and dialect of
// the inputSchema root it sits in, so that its local references
// ("#/$defs/Mode", zod's "#/definitions/...") resolve as they did there.
func withContext(root *source.Node, v map[string]any) map[string]any {
	for _, k := range []string{"$schema", "$defs", "definitions"} {
		if _, has := v[k]; !has && root.Has(k) {
			v[k] = root.Get(k).Value()
		}
	}
	return v
}

// memberDoc is a member's schema as a document of its own (see
// withContext).
func memberDoc(root, m *source.Node) any {
	if obj, ok := m.Value().(map[string]any); ok {
		return withContext(root, obj)
	}
	return m.Value()
}

// companions are the keywords whose meaning another keyword of the same
// schema object depends on: then and else apply only under if, minContains
// under contains, additionalProperties to what properties and
// patternProperties leave out, items (2020-12) to what prefixItems leaves.
var companions = map[string][]string{
	"if": {"then", "else"}, "then": {"if"}, "else": {"if"},
	"contains": {"minContains", "maxContains"}, "minContains": {"contains"}, "maxContains": {"contains"},
	"additionalProperties": {"properties", "patternProperties"},
	"additionalItems":      {"items"},
	"items":                {"prefixItems"},
}

// isolated returns keyword c as a schema of its own, with the keywords it
// depends on (companions) and the inputSchema's definitions, and the same
// schema without c. unevaluatedProperties and unevaluatedItems depend on
// everything beside them, so they keep all their siblings.
func isolated(root, c *source.Node) (with, without any) {
	parent := c.Parent
	obj := map[string]any{}
	switch c.Key() {
	case "unevaluatedProperties", "unevaluatedItems":
		obj, _ = parent.Value().(map[string]any)
	default:
		for _, k := range companions[c.Key()] {
			if v := parent.Get(k); v != nil {
				obj[k] = v.Value()
			}
		}
		obj[c.Key()] = c.Value()
	}
	if obj == nil {
		obj = map[string]any{}
	}
	with = withContext(root, obj)
	rest := copyJSON(with).(map[string]any)
	delete(rest, c.Key())
	return with, rest
}

// constrainsMember reports whether keyword c, inside the schema of
// reserved member m, rejects on its own a value of the member's JSON type
// (any value for a member the table gives no type). Object witnesses carry the member names the member's schema
// declares (a context schema with properties).
func (lt loopTool) constrainsMember(m, c *source.Node, ra types.ReservedArg) (rejects, decided bool) {
	ws := scalarWitnesses(ra.JSONType)
	if ra.JSONType == "" || ra.JSONType == "object" {
		for _, name := range memberNames(lt.res, m) {
			for _, v := range memberValues() {
				ws = append(ws, map[string]any{name: v})
			}
		}
	}
	// Judged on its own: a maxLength beside a pattern that already bounds
	// the length still constrains the member beyond its JSON type.
	with, without := isolated(lt.root, c)
	return differs(with, without, ws)
}

// rejectsRequests reports whether keyword k of the inputSchema rejects
// some request object that the inputSchema without k accepts: a request
// with no structural fault the rest of the schema could see, refused for
// what it holds. The requests tried hold the schema's required members,
// then each declared member (those k's own branches name too) with a
// value of each JSON type, every member at once, and an unknown member.
func (lt loopTool) rejectsRequests(k *source.Node) (rejects, decided bool) {
	names := memberNames(lt.res, lt.root)
	branches := []*source.Node{k}
	if k.IsArray() {
		branches = k.Kids()
	}
	if k.Key() == "if" {
		branches = append(branches, k.Parent.Get("then"), k.Parent.Get("else"))
	}
	// Every name the combinator mentions, at any depth of its branches
	// (declared or only required), is one a request may hold.
	seen := map[*source.Node]bool{}
	var mention func(*source.Node)
	mention = func(sub *source.Node) {
		if !sub.IsObject() || seen[sub] {
			return
		}
		seen[sub] = true
		for _, n := range memberNames(lt.res, sub) {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		for _, r := range lt.res.RequiredNames(sub) {
			if !slices.Contains(names, r.Text()) {
				names = append(names, r.Text())
			}
		}
		for _, c := range schemacheck.Subschemas(sub) {
			mention(c)
		}
	}
	for _, sub := range branches {
		mention(sub)
	}
	base := map[string]any{}
	for _, r := range lt.res.RequiredNames(lt.root) {
		base[r.Text()] = lt.fittingValue(r.Text())
	}
	with := func(extra map[string]any) map[string]any {
		m := copyJSON(base).(map[string]any)
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	ws := []any{base, with(map[string]any{"x-witness": json.Number("1")})}
	all := map[string]any{}
	for _, n := range names {
		all[n] = lt.fittingValue(n)
		for _, v := range memberValues() {
			ws = append(ws, with(map[string]any{n: v}))
		}
	}
	ws = append(ws, with(all))
	return keywordRejects(lt.root.Value(), relPointer(lt.root, k), ws)
}

// fittingValue is a value the declaration of member name accepts, the
// first of memberValues that does; "a" when none does or the member is
// not declared.
func (lt loopTool) fittingValue(name string) any {
	m := lt.member(name)
	if m == nil {
		return "a"
	}
	doc := nodeOf(memberDoc(lt.root, m))
	if doc == nil {
		return "a"
	}
	for _, v := range memberValues() {
		if f, _ := schemacheck.FitOf(doc, v); f == schemacheck.Fits {
			return v
		}
	}
	return "a"
}

// memberNames are the member names a schema declares, as a validator
// reads it (its parts and their properties), in order, each once.
func memberNames(res *schemacheck.Resolver, s *source.Node) []string {
	var out []string
	for _, m := range res.Members(s) {
		if !slices.Contains(out, m.Key()) {
			out = append(out, m.Key())
		}
	}
	return out
}
