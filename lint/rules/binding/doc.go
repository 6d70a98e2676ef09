// Package binding judges how the surface is carried over MCP: the extension
// declaration, the _meta keys, the fixed and loop tools and the cold-start
// signposts (Part III §2 to §5, and the discovery note).
package binding

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{bindingRules, bindingToolRules, signpostRules} {
		out = append(out, list()...)
	}
	return out
}
