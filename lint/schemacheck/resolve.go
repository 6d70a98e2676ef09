package schemacheck

import (
	"math/big"
	"net/url"
	"slices"
	"strings"

	"github.com/go-openapi/jsonpointer"

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
// a Resolver: ask FitOf.
type Resolver struct {
	root *source.Node
	// resources maps the URL of the document and of each embedded $id to
	// its schema; built on first use.
	resources map[string]*source.Node
	// What the Resolver has read once and keeps, each made on first use:
	// the target of each reference (nil for none), the members of each
	// large object a pointer passed through, the first schema of each
	// anchor name in a resource, and the types of each schema that
	// composes others. Rules ask the same questions of a schema over and
	// over, and a crafted schema of thousands of definitions or a chain of
	// references must not cost their square, nor a lattice of references
	// one run per path (2^n).
	targets map[*source.Node]*source.Node
	keys    memberIndex
	anchors map[*source.Node]map[string]*source.Node
	typed   map[*source.Node]*typeResult
	// rereads counts the schemas types read again because of a loop;
	// tangled is set when they reach loopBudget (see Types).
	rereads int
	tangled bool
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
			// Through get: every reference into a $defs of thousands asks
			// it for an $id.
			if id := idIn(func(k string) *source.Node { return r.keys.get(m, k) }); id != nil {
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
	if t, ok := r.targets[ref]; ok {
		return t
	}
	t := r.target(ref)
	if r.targets == nil {
		r.targets = map[*source.Node]*source.Node{}
	}
	r.targets[ref] = t
	return t
}

func (r *Resolver) target(ref *source.Node) *source.Node {
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
		return r.keys.pointer(res, frag)
	}
	return r.anchor(res, abs, frag)
}

// memberIndex finds members of large objects by name: source.Node.Get
// scans an object's members, and a schema of thousands of $defs, each the
// target of a reference, must not cost their square.
type memberIndex map[*source.Node]map[string]*source.Node

// get is object n's member key as n.Get finds it (the last of duplicate
// names), from an index of n built the first time when n has more than
// smallSet members.
func (ix *memberIndex) get(n *source.Node, key string) *source.Node {
	if len(n.Kids()) <= smallSet {
		return n.Get(key)
	}
	keys, ok := (*ix)[n]
	if !ok {
		keys = make(map[string]*source.Node, len(n.Kids()))
		for _, k := range n.Kids() {
			keys[k.Key()] = k
		}
		if *ix == nil {
			*ix = memberIndex{}
		}
		(*ix)[n] = keys
	}
	return keys[key]
}

// pointer follows JSON Pointer ptr from res as source.Node.Resolve does,
// finding each object member through get; nil when it resolves nowhere.
func (ix *memberIndex) pointer(res *source.Node, ptr string) *source.Node {
	if ptr == "" {
		return res
	}
	p, err := jsonpointer.New(ptr)
	if err != nil {
		return nil
	}
	cur := res
	for _, tok := range p.DecodedTokens() {
		if cur.IsObject() {
			cur = ix.get(cur, tok)
		} else {
			cur, _ = cur.Resolve("/" + jsonpointer.Escape(tok))
		}
		if cur == nil {
			return nil
		}
	}
	return cur
}

// anchor returns the first schema under resource res, in the order walk
// visits them, whose $anchor is name; the anchors of res are gathered in
// one walk, the first time one is asked for.
func (r *Resolver) anchor(res *source.Node, base *url.URL, name string) *source.Node {
	names, ok := r.anchors[res]
	if !ok {
		names = map[string]*source.Node{}
		walk(res, base, func(n *source.Node, _ *url.URL) {
			if a := n.Get("$anchor"); a.IsString() && names[a.Text()] == nil {
				names[a.Text()] = n
			}
		})
		if r.anchors == nil {
			r.anchors = map[*source.Node]map[string]*source.Node{}
		}
		r.anchors[res] = names
	}
	return names[name]
}

// Deref follows n's $ref while n is an object holding nothing but a
// reference and annotations, and returns the schema reached: the object a
// named root ({"$ref": "#/definitions/Args", "definitions": ...}) or a
// member ({"$ref": "#/$defs/Mode", "description": ...}) really is. It
// returns n when n holds anything else, and nil when the reference
// resolves nowhere or loops.
func (r *Resolver) Deref(n *source.Node) *source.Node {
	// The chains are short (a named root, a $defs alias): what was seen
	// lives on the goroutine's stack until a long chain outgrows it.
	var buf [smallSet]*source.Node
	seen := seenSet[*source.Node]{small: buf[:0]}
	for n.IsObject() {
		ref := n.Get("$ref")
		if !ref.IsString() || !onlyReference(n) {
			return n
		}
		var fresh bool
		if seen, fresh = seen.add(n); !fresh {
			return nil // a loop
		}
		n = r.Target(ref)
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
// recursive closure: a schema has a handful of parts. What it has seen is
// a slice while small and a map past smallSet's bound, so that a crafted
// allOf of thousands of parts costs their number, not its square.
func (r *Resolver) eachPart(n *source.Node, visit func(*source.Node) bool) {
	var seenBuf, stackBuf [smallSet]*source.Node
	seen, stack := seenSet[*source.Node]{small: seenBuf[:0]}, append(stackBuf[:0], n)
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == nil || !n.IsObject() && !n.IsBool() {
			continue
		}
		var fresh bool
		if seen, fresh = seen.add(n); !fresh {
			continue
		}
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

// smallSet is how many elements a seenSet holds in its slice before it moves
// them to a map: a linear scan of a few beats hashing, and allocates
// nothing when the slice's array is the caller's.
const smallSet = 8

// seenSet is what a walk over a schema has already met: parts, member
// names.
type seenSet[T comparable] struct {
	small []T
	big   map[T]struct{}
}

// add returns the set with v added, and whether v was not there yet. It
// takes and returns the set by value, so that a small slice whose array
// is the caller's stays on the caller's stack.
func (s seenSet[T]) add(v T) (seenSet[T], bool) {
	if s.big != nil {
		if _, ok := s.big[v]; ok {
			return s, false
		}
		s.big[v] = struct{}{}
		return s, true
	}
	if slices.Contains(s.small, v) {
		return s, false
	}
	if len(s.small) < smallSet {
		s.small = append(s.small, v)
		return s, true
	}
	s.big = make(map[T]struct{}, 2*smallSet)
	for _, w := range s.small {
		s.big[w] = struct{}{}
	}
	s.big[v] = struct{}{}
	return s, true
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
// schema-valued dependencies) or through a dynamic reference; and the
// Resolver has not given up on the schema's loops (see Types). A rule that
// reports something missing from a schema asks it first, and says the
// check could not be made when it is false. What a member's own schema
// holds is that member's question, not n's.
func (r *Resolver) Whole(n *source.Node) bool {
	if r.tangled {
		return false
	}
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
	var buf [smallSet]string
	seen := seenSet[string]{small: buf[:0]}
	for _, req := range r.Keywords(n, "required") {
		if !req.IsArray() {
			continue
		}
		for _, e := range req.Kids() {
			if !e.IsString() {
				continue
			}
			var fresh bool
			if seen, fresh = seen.add(e.Text()); fresh {
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
// references; a reference it cannot resolve leaves the type open, and so
// does a schema reached again while it is being read (a loop of
// references no validator can apply). A schema whose loops would take
// more than loopBudget readings is given up: its types are open, and
// Whole is false from then on, so that a rule skips rather than guesses.
// The slice may be shared with other callers: do not modify it.
func (r *Resolver) Types(n *source.Node) ([]string, bool) {
	ts, ok, _ := r.types(n)
	return ts, ok
}

// loopBudget is how many schemas a Resolver reads again because their
// types depended on a loop (see Types) before it gives up.
const loopBudget = 10000

// typeResult is what types found for a schema that composes others; busy
// while it is being read.
type typeResult struct {
	types    []string
	ok, busy bool
}

// types reads n's types, and reports whether the reading met a schema
// being read further up, so that what it found depends on where the
// reading began. A schema that composes others ($ref, allOf, anyOf,
// oneOf) and met no such loop is read once per Resolver: a lattice of
// definitions each naming the next twice has 2^n paths, and a chain of n
// references would otherwise be searched for loops n times over. One that
// met a loop is read again from wherever it is reached, as a loop cuts it
// differently from each start, until loopBudget.
func (r *Resolver) types(n *source.Node) (ts []string, ok, looped bool) {
	if n == nil {
		return nil, false, false
	}
	if n.IsBool() {
		if n.Truth() {
			return nil, false, false
		}
		return []string{}, true, false
	}
	if !n.IsObject() {
		return nil, false, false
	}
	ref, all, anyOf, oneOf := n.Get("$ref"), n.Get("allOf"), n.Get("anyOf"), n.Get("oneOf")
	if !ref.IsString() && !all.IsArray() && !anyOf.IsArray() && !oneOf.IsArray() {
		return r.typesOf(n, nil, nil, nil, nil)
	}
	if t, found := r.typed[n]; found {
		return t.types, t.ok, t.busy
	}
	if r.rereads >= loopBudget {
		r.tangled = true
		return nil, false, true
	}
	if r.typed == nil {
		r.typed = map[*source.Node]*typeResult{}
	}
	t := &typeResult{busy: true}
	r.typed[n] = t
	ts, ok, looped = r.typesOf(n, ref, all, anyOf, oneOf)
	if looped {
		delete(r.typed, n)
		r.rereads++
	} else {
		t.types, t.ok, t.busy = ts, ok, false
	}
	return ts, ok, looped
}

// typesOf reads the types of schema object n, whose $ref, allOf, anyOf and
// oneOf members are given, as types does.
func (r *Resolver) typesOf(n, ref, all, anyOf, oneOf *source.Node) ([]string, bool, bool) {
	var m typeMeet
	looped := false
	meet := func(ts []string, ok, loop bool) {
		looped = looped || loop
		m.add(ts, ok)
	}
	if ts, ok := typeSet(n.Get("type")); ok {
		meet(ts, true, false)
	}
	if c := n.Get("const"); c != nil {
		meet([]string{valueType(c)}, true, false)
	}
	if e := n.Get("enum"); e.IsArray() {
		var ts []string
		for _, v := range e.Kids() {
			ts = unionTypes(ts, []string{valueType(v)})
		}
		meet(ts, true, false)
	}
	if ref.IsString() {
		meet(r.types(r.Target(ref)))
	}
	if all.IsArray() {
		for _, m := range all.Kids() {
			meet(r.types(m))
		}
	}
	for _, u := range []*source.Node{anyOf, oneOf} {
		if !u.IsArray() {
			continue
		}
		var ts []string
		ok := true
		for _, b := range u.Kids() {
			bt, bok, bloop := r.types(b)
			looped = looped || bloop
			if !bok {
				ok = false
				break
			}
			ts = unionTypes(ts, bt)
		}
		meet(ts, ok, false)
	}
	set, ok := m.result()
	return set, ok, looped
}

// TypesAll returns the JSON Schema types a value satisfying every schema
// of ns may have (each read as Types reads it, the sets intersected), and
// true; or false when all of them leave the type open (no schema at all
// included). It reads a member declared several times (Declarations).
func (r *Resolver) TypesAll(ns []*source.Node) ([]string, bool) {
	var m typeMeet
	for _, n := range ns {
		m.add(r.Types(n))
	}
	return m.result()
}

// typeMeet intersects the type sets of schemas a value must satisfy
// together; a schema whose types are open (ok false) constrains nothing.
type typeMeet struct {
	set   []string
	known bool
}

func (m *typeMeet) add(ts []string, ok bool) {
	switch {
	case !ok:
	case !m.known:
		m.set, m.known = ts, true
	default:
		m.set = intersectTypes(m.set, ts)
	}
}

func (m *typeMeet) result() ([]string, bool) {
	if !m.known {
		return nil, false
	}
	return m.set, true
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
