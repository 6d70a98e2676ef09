package snapshot

import (
	"net/url"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// SchemaView is what applies to one place of an instance under a JSON
// Schema, read as a validator reads it (issue 30 §2): the schema object,
// the targets of its local $ref and the members of its allOf, followed to
// any depth, and the non-null branch of a nullable union (anyOf or oneOf of
// a schema and {"type": "null"}). Pydantic writes an enum as a $ref into
// $defs and an optional member as such a union; both are the binding's
// schema for what a Client sends.
type SchemaView struct {
	root  *source.Node
	parts []*source.Node
}

// ViewOf returns the view of schema n in the schema document root, against
// which "#..." references resolve (for a tool's inputSchema, the schema
// itself).
func ViewOf(root, n *source.Node) SchemaView {
	v := SchemaView{root: root}
	v.add(n, map[*source.Node]bool{})
	return v
}

func (v *SchemaView) add(n *source.Node, seen map[*source.Node]bool) {
	if !n.IsObject() || seen[n] {
		return
	}
	seen[n] = true
	v.parts = append(v.parts, n)
	if ref := n.Get("$ref"); ref.IsString() {
		v.add(resolveLocal(v.root, ref.Text()), seen)
	}
	for _, m := range n.Get("allOf").Items() {
		v.add(m, seen)
	}
	for _, kw := range []string{"anyOf", "oneOf"} {
		if b := nonNullBranch(n.Get(kw)); b != nil {
			v.add(b, seen)
		}
	}
}

// resolveLocal resolves a same-document reference ("#", "#/$defs/Verb"),
// or returns nil.
func resolveLocal(root *source.Node, ref string) *source.Node {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil
	}
	if u, err := url.PathUnescape(frag); err == nil {
		frag = u
	}
	n, ok := root.Resolve(frag)
	if !ok {
		return nil
	}
	return n
}

// nonNullBranch returns X of a union [X, {"type": "null"}] in either order,
// or nil for any other union.
func nonNullBranch(union *source.Node) *source.Node {
	if !union.IsArray() || len(union.Kids()) != 2 {
		return nil
	}
	a, b := union.Kids()[0], union.Kids()[1]
	switch {
	case isNullSchema(b):
		return a
	case isNullSchema(a):
		return b
	}
	return nil
}

func isNullSchema(n *source.Node) bool {
	t, ok := n.Str("type")
	return ok && t == "null" && len(n.Kids()) <= 2 && (len(n.Kids()) == 1 || n.Has("title") || n.Has("description"))
}

// Get returns the first value of keyword kw among the view's parts.
func (v SchemaView) Get(kw string) *source.Node {
	for _, p := range v.parts {
		if k := p.Get(kw); k != nil {
			return k
		}
	}
	return nil
}

// Property returns the schema of member name, from the first part that
// declares it.
func (v SchemaView) Property(name string) *source.Node {
	for _, p := range v.parts {
		if m := p.Get("properties").Get(name); m != nil && p.Get("properties").IsObject() {
			return m
		}
	}
	return nil
}

// Required returns the entries of every required array of the view.
func (v SchemaView) Required() []*source.Node {
	var out []*source.Node
	for _, p := range v.parts {
		if r := p.Get("required"); r.IsArray() {
			out = append(out, r.Kids()...)
		}
	}
	return out
}

// TypeAllows reports whether a "type" value got allows what the binding's
// single type want does, and nothing else but null: "string" for
// "string", ["string", "null"] too.
func TypeAllows(got *source.Node, want string) bool {
	if got.IsString() {
		return got.Text() == want
	}
	if !got.IsArray() {
		return false
	}
	var names []string
	for _, k := range got.Kids() {
		if !k.IsString() {
			return false
		}
		if k.Text() != "null" {
			names = append(names, k.Text())
		}
	}
	return slices.Equal(names, []string{want})
}
