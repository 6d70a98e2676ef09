package schemacheck

import (
	"math/big"
	"net/url"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Resolver reads the structure of one schema document the way a validator
// applies it, for the rules that must inspect structure rather than ask
// whether a value fits (is this member's type constrained, is that member
// required, which members are declared): a local $ref stands with its
// target, the members of allOf apply together with the schema holding
// them, and a nullable union, anyOf or oneOf of one schema and
// {"type": "null"} (Pydantic's Optional[X]), stands for its non-null
// member. Generators write all three: Pydantic puts every enum and nested
// model under $defs, zod writes .and() as allOf and a named schema as a
// root $ref. It never leaves the document: a reference outside it resolves
// to nothing, and so does a cycle.
//
// Whether a value fits a schema is a question for the validator, not for
// a Resolver: ask Fit.
type Resolver struct {
	root *source.Node
	// resources maps the URL of the document and of each embedded $id to
	// its schema; built on first use.
	resources map[string]*source.Node
}

// NewResolver returns a Resolver over the schema document root (a tool's
// inputSchema, a Language's context_schema): the document every local
// reference inside it resolves against.
func NewResolver(root *source.Node) *Resolver { return &Resolver{root: root} }

// Root is the document the Resolver reads.
func (r *Resolver) Root() *source.Node { return r.root }

func (r *Resolver) index() {
	if r.resources != nil {
		return
	}
	r.resources = map[string]*source.Node{}
	base, _ := url.Parse(rootURL)
	r.resources[rootURL] = r.root
	walk(r.root, base, func(n *source.Node, base *url.URL) {
		if idOf(n) != nil {
			r.resources[strip(base.String())] = n
		}
	})
}

// baseOf is the base URI in force at n: the document's, changed by the
// $id of each enclosing schema object, outermost first.
func (r *Resolver) baseOf(n *source.Node) *url.URL {
	var ids []string
	for m := n; m != nil; m = m.Parent {
		if m.IsObject() {
			if id := idOf(m); id != nil {
				ids = append(ids, id.Text())
			}
		}
		if m == r.root {
			break
		}
	}
	base, _ := url.Parse(rootURL)
	for i := len(ids) - 1; i >= 0; i-- {
		if u, err := url.Parse(ids[i]); err == nil {
			base = base.ResolveReference(u)
		}
	}
	return base
}

// Target returns the schema a reference names (the value of a $ref
// member, or any node whose text is a reference), or nil when it points
// outside the document or names nothing in it. JSON Pointer fragments and
// plain-name anchors ($anchor) are both followed, against the base URI in
// force where the reference sits.
func (r *Resolver) Target(ref *source.Node) *source.Node {
	if !ref.IsString() {
		return nil
	}
	r.index()
	u, err := url.Parse(ref.Text())
	if err != nil {
		return nil
	}
	abs := r.baseOf(ref.Parent).ResolveReference(u)
	frag := abs.Fragment
	abs.Fragment, abs.RawFragment = "", ""
	res := r.resources[abs.String()]
	switch {
	case res == nil:
		return nil
	case frag == "":
		return res
	case strings.HasPrefix(frag, "/"):
		n, ok := res.Resolve(frag)
		if !ok {
			return nil
		}
		return n
	}
	var found *source.Node
	walk(res, abs, func(n *source.Node, _ *url.URL) {
		if a := n.Get("$anchor"); found == nil && a.IsString() && a.Text() == frag {
			found = n
		}
	})
	return found
}

// Deref follows n's $ref while n is an object holding nothing but a
// reference and annotations, and returns the schema reached: the object a
// named root ({"$ref": "#/definitions/Args", "definitions": ...}) or a
// member ({"$ref": "#/$defs/Mode", "description": ...}) really is. It
// returns n when n holds anything else, and nil when the reference
// resolves nowhere or loops.
func (r *Resolver) Deref(n *source.Node) *source.Node {
	// The chains are short (a named root, a $defs alias): a slice finds a
	// loop without allocating a map on every call.
	var seen []*source.Node
	for n.IsObject() && !slices.Contains(seen, n) {
		ref := n.Get("$ref")
		if !ref.IsString() || !onlyReference(n) {
			return n
		}
		seen = append(seen, n)
		n = r.Target(ref)
	}
	if n != nil && slices.Contains(seen, n) {
		return nil
	}
	return n
}

// onlyReference reports whether schema object n applies nothing but its
// $ref: every other member is an annotation, a definition container or
// the document's own bookkeeping.
func onlyReference(n *source.Node) bool {
	for _, k := range n.Kids() {
		switch k.Key() {
		case "$ref", "$defs", "definitions", "$schema", "$id", "$anchor", "$comment", "$vocabulary",
			"title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly":
		default:
			return false
		}
	}
	return true
}

// Parts returns the schemas that apply together wherever n applies, n
// first: recursively, the target of each local $ref and each member of
// allOf, and the non-null member of a nullable union (a value that is not
// null must satisfy it). Each schema appears once; a reference that
// resolves nowhere contributes nothing. A bool schema is a part like any
// other.
func (r *Resolver) Parts(n *source.Node) []*source.Node {
	var out []*source.Node
	r.eachPart(n, func(p *source.Node) bool {
		out = append(out, p)
		return true
	})
	return out
}

// eachPart calls visit with each of n's Parts, in order, until it returns
// false. Every rule reading every tool's schema asks for parts, so this
// walks them with stacks that live on the goroutine's stack rather than a
// recursive closure and a map: a schema has a handful of parts.
func (r *Resolver) eachPart(n *source.Node, visit func(*source.Node) bool) {
	var seenBuf, stackBuf [8]*source.Node
	seen, stack := seenBuf[:0], append(stackBuf[:0], n)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || !n.IsObject() && !n.IsBool() || slices.Contains(seen, n) {
			continue
		}
		seen = append(seen, n)
		if !visit(n) {
			return
		}
		if !n.IsObject() {
			continue
		}
		// Pushed in reverse, so that they are read depth first in order:
		// the $ref's target, the allOf members, the non-null member of a
		// nullable union.
		if m := r.NonNull(n); m != nil {
			stack = append(stack, m)
		}
		var all []*source.Node
		if a := n.Get("allOf"); a.IsArray() {
			all = a.Kids()
		}
		for i := len(all) - 1; i >= 0; i-- {
			stack = append(stack, all[i])
		}
		if ref := n.Get("$ref"); ref.IsString() {
			stack = append(stack, r.Target(ref))
		}
	}
}

// NonNull returns the non-null member of the nullable union n: an anyOf or
// oneOf of exactly two schemas, one of which admits only null. It returns
// nil when n is no such union.
func (r *Resolver) NonNull(n *source.Node) *source.Node {
	for _, kw := range []string{"anyOf", "oneOf"} {
		u := n.Get(kw)
		if !u.IsArray() || len(u.Kids()) != 2 {
			continue
		}
		a, b := u.Kids()[0], u.Kids()[1]
		switch {
		case r.onlyNull(b) && !r.onlyNull(a):
			return a
		case r.onlyNull(a) && !r.onlyNull(b):
			return b
		}
	}
	return nil
}

// onlyNull reports whether schema n is {"type": "null"} (with annotations),
// directly or through a reference.
func (r *Resolver) onlyNull(n *source.Node) bool {
	n = r.Deref(n)
	if !n.IsObject() {
		return false
	}
	ts, ok := typeSet(n.Get("type"))
	if !ok || len(ts) != 1 || ts[0] != "null" {
		return false
	}
	for _, k := range n.Kids() {
		switch k.Key() {
		case "type", "title", "description", "default", "examples", "deprecated", "$comment":
		default:
			return false
		}
	}
	return true
}

// Keywords returns the values of keyword kw across n's Parts, in order: the
// "enum" of a member declared {"$ref": "#/$defs/Verb"}, the "minimum" of one
// declared anyOf [{"type": "integer", "minimum": 1}, {"type": "null"}].
func (r *Resolver) Keywords(n *source.Node, kw string) []*source.Node {
	var out []*source.Node
	r.eachPart(n, func(p *source.Node) bool {
		if v := p.Get(kw); v != nil {
			out = append(out, v)
		}
		return true
	})
	return out
}

// Members returns every member declaration of object schema n: the values
// of "properties" across its Parts, in order. A name declared by several
// parts appears once per declaration, since each applies.
func (r *Resolver) Members(n *source.Node) []*source.Node {
	var out []*source.Node
	for _, props := range r.Keywords(n, "properties") {
		if props.IsObject() {
			out = append(out, props.Kids()...)
		}
	}
	return out
}

// Member returns the first declaration of member name in object schema n
// (see Members), or nil.
func (r *Resolver) Member(n *source.Node, name string) *source.Node {
	for _, props := range r.Keywords(n, "properties") {
		if m := props.Get(name); props.IsObject() && m != nil {
			return m
		}
	}
	return nil
}

// Declarations returns every declaration of member name in object schema
// n (see Members), in order: each applies to the member's value, so a rule
// judging the member reads them all (zod's .and() of two objects naming
// the same key declares it twice).
func (r *Resolver) Declarations(n *source.Node, name string) []*source.Node {
	var out []*source.Node
	for _, props := range r.Keywords(n, "properties") {
		if m := props.Get(name); props.IsObject() && m != nil {
			out = append(out, m)
		}
	}
	return out
}

// Whole reports whether n's Parts are everything that applies wherever n
// applies, so that a member, a requirement or a keyword none of them holds
// is not there: every reference among them resolves inside the document,
// and none applies further schemas only under a condition (an anyOf or
// oneOf other than a nullable union, if, then, else, dependentSchemas,
// schema-valued dependencies) or through a dynamic reference. A rule that
// reports something missing from a schema asks it first, and says the
// check could not be made when it is false. What a member's own schema
// holds is that member's question, not n's.
func (r *Resolver) Whole(n *source.Node) bool {
	whole := true
	r.eachPart(n, func(p *source.Node) bool {
		whole = r.wholePart(p)
		return whole
	})
	return whole
}

// wholePart reports whether part p applies nothing the Resolver cannot
// read (see Whole).
func (r *Resolver) wholePart(p *source.Node) bool {
	if !p.IsObject() {
		return true
	}
	if ref := p.Get("$ref"); ref != nil && r.Target(ref) == nil {
		return false
	}
	for _, k := range p.Kids() {
		switch k.Key() {
		case "if", "then", "else", "dependentSchemas", "$dynamicRef", "$recursiveRef":
			return false
		case "dependencies":
			for _, d := range k.Items() {
				if k.IsObject() && !d.IsArray() {
					return false
				}
			}
		case "anyOf", "oneOf":
			if nn := r.NonNull(p); nn == nil || !slices.Contains(k.Kids(), nn) {
				return false
			}
		}
	}
	return true
}

// Required returns the element naming member name in a "required" array of
// one of n's Parts, or nil when no part requires it.
func (r *Resolver) Required(n *source.Node, name string) *source.Node {
	for _, req := range r.Keywords(n, "required") {
		for _, e := range req.Items() {
			if req.IsArray() && e.IsString() && e.Text() == name {
				return e
			}
		}
	}
	return nil
}

// RequiredNames returns every member name a "required" array of n's Parts
// lists, each once, in order.
func (r *Resolver) RequiredNames(n *source.Node) []*source.Node {
	var out []*source.Node
	for _, req := range r.Keywords(n, "required") {
		if !req.IsArray() {
			continue
		}
		for _, e := range req.Kids() {
			if e.IsString() && !slices.ContainsFunc(out, func(o *source.Node) bool { return o.Text() == e.Text() }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// jsonTypeNames are the JSON Schema type names, in a fixed order.
var jsonTypeNames = []string{"array", "boolean", "integer", "null", "number", "object", "string"}

// Types returns the JSON Schema types a value of schema n may have, sorted,
// and true; or false when n leaves the type open. "integer" stands with
// "number" as JSON Schema defines it: a schema of type number admits
// integers. It reads "type", "const" and "enum" across n's Parts
// (intersecting) and each branch of anyOf and oneOf (uniting), through
// references; a reference it cannot resolve leaves the type open.
func (r *Resolver) Types(n *source.Node) ([]string, bool) {
	return r.types(n, nil)
}

// types reads n's types; busy are the schemas being read further up, a
// stack as deep as the nesting of references and compositions.
func (r *Resolver) types(n *source.Node, busy []*source.Node) ([]string, bool) {
	if n == nil || slices.Contains(busy, n) {
		return nil, false
	}
	if n.IsBool() {
		if n.Truth() {
			return nil, false
		}
		return []string{}, true
	}
	if !n.IsObject() {
		return nil, false
	}
	busy = append(busy, n)
	var set []string
	open := true
	meet := func(ts []string, ok bool) {
		switch {
		case !ok:
		case open:
			set, open = ts, false
		default:
			set = intersectTypes(set, ts)
		}
	}
	meet(typeSet(n.Get("type")))
	if c := n.Get("const"); c != nil {
		meet([]string{valueType(c)}, true)
	}
	if e := n.Get("enum"); e.IsArray() {
		var ts []string
		for _, v := range e.Kids() {
			ts = unionTypes(ts, []string{valueType(v)})
		}
		meet(ts, true)
	}
	if ref := n.Get("$ref"); ref.IsString() {
		meet(r.types(r.Target(ref), busy))
	}
	if all := n.Get("allOf"); all.IsArray() {
		for _, m := range all.Kids() {
			meet(r.types(m, busy))
		}
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		u := n.Get(kw)
		if !u.IsArray() {
			continue
		}
		var ts []string
		ok := true
		for _, b := range u.Kids() {
			bt, bok := r.types(b, busy)
			if !bok {
				ok = false
				break
			}
			ts = unionTypes(ts, bt)
		}
		meet(ts, ok)
	}
	if open {
		return nil, false
	}
	return set, true
}

// TypesAll returns the JSON Schema types a value satisfying every schema
// of ns may have (each read as Types reads it, the sets intersected), and
// true; or false when all of them leave the type open (no schema at all
// included). It reads a member declared several times (Declarations).
func (r *Resolver) TypesAll(ns []*source.Node) ([]string, bool) {
	var set []string
	open := true
	for _, n := range ns {
		ts, ok := r.Types(n)
		switch {
		case !ok:
		case open:
			set, open = ts, false
		default:
			set = intersectTypes(set, ts)
		}
	}
	if open {
		return nil, false
	}
	return set, true
}

// typeSet reads a "type" keyword's value: a name or an array of names.
func typeSet(t *source.Node) ([]string, bool) {
	var out []string
	switch {
	case t.IsString():
		out = []string{t.Text()}
	case t.IsArray():
		for _, e := range t.Kids() {
			if !e.IsString() {
				return nil, false
			}
			out = append(out, e.Text())
		}
	default:
		return nil, false
	}
	for _, s := range out {
		if !slices.Contains(jsonTypeNames, s) {
			return nil, false
		}
	}
	slices.Sort(out)
	return slices.Compact(out), true
}

// valueType is the narrowest JSON Schema type of a JSON value.
func valueType(v *source.Node) string {
	switch v.Kind {
	case source.Null:
		return "null"
	case source.Bool:
		return "boolean"
	case source.String:
		return "string"
	case source.Array:
		return "array"
	case source.Object:
		return "object"
	}
	if isInteger(v.Text()) {
		return "integer"
	}
	return "number"
}

// isInteger reports whether a JSON number literal has no fractional part,
// as JSON Schema's integer means (1.0 and 1.5e1 are integers).
func isInteger(lit string) bool {
	f, ok := new(big.Float).SetString(lit)
	return ok && f.IsInt()
}

// intersectTypes keeps the types both sets admit; integer survives number.
func intersectTypes(a, b []string) []string {
	var out []string
	for _, t := range jsonTypeNames {
		inA := slices.Contains(a, t) || t == "integer" && slices.Contains(a, "number")
		inB := slices.Contains(b, t) || t == "integer" && slices.Contains(b, "number")
		if inA && inB {
			out = append(out, t)
		}
	}
	if slices.Contains(out, "number") {
		out = slices.DeleteFunc(out, func(t string) bool { return t == "integer" })
	}
	return out
}

func unionTypes(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	out = slices.Compact(out)
	if slices.Contains(out, "number") {
		out = slices.DeleteFunc(out, func(t string) bool { return t == "integer" })
	}
	return out
}

// AdmitsType reports whether a value of JSON type t fits the types a
// schema allows (from Types): integer fits number.
func AdmitsType(types []string, t string) bool {
	return slices.Contains(types, t) || t == "integer" && slices.Contains(types, "number")
}

// OnlyType reports whether the types a schema allows (from Types) are t
// and nothing else but null: a Client sending a value of type t fits it,
// and no value of another type does, though the member may be null
// (Pydantic's Optional[X], "type": [X, "null"]). "number" is not only
// "integer": it admits 1.5.
func OnlyType(types []string, t string) bool {
	rest := slices.DeleteFunc(slices.Clone(types), func(s string) bool { return s == "null" })
	return len(rest) == 1 && rest[0] == t
}
