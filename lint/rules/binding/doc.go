// Package binding judges how the surface is carried over MCP: the extension
// declaration (Part III §1.2), the _meta namespace (§2), discovery and the
// cold-start signposts (§3), the fixed and loop tools (§4.1 to §4.3) and the
// program-valued tool declaration (§5).
package binding

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{bindingRules, bindingToolRules, signpostRules, resourceRules} {
		out = append(out, list()...)
	}
	return out
}
