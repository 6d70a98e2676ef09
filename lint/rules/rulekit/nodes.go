package rulekit

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// At resolves a pointer relative to a schema node, falling back to the
// nearest existing ancestor so a finding always has a position.
func At(schema *source.Node, ptr string) *source.Node {
	for {
		if n, ok := schema.Resolve(ptr); ok {
			return n
		}
		i := strings.LastIndexByte(ptr, '/')
		if i < 0 {
			return schema
		}
		ptr = ptr[:i]
	}
}

// Label names a value by its place for a message: its member name quoted,
// "item N" in an array, or "the value" at the top.
func Label(n *source.Node) string {
	switch {
	case n.Parent == nil:
		return "the value"
	case n.Parent.Kind == source.Object:
		return fmt.Sprintf("%q", n.Key())
	}
	return fmt.Sprintf("item %d", n.Index())
}

// ProgramBindings returns the objects of a program declaration (Part III
// §5) that carry an argument and a language: the declaration itself in the
// one-Language form and each entry of its languages array in the other.
// Both are returned for a declaration that mixes the forms, which
// binding-program-declaration reports; callers read members with the
// nil-safe accessors, so malformed entries read as absent.
func ProgramBindings(decl *source.Node) []*source.Node {
	return append([]*source.Node{decl}, decl.Get("languages").Items()...)
}
