// Package toolschema judges the input and output schemas and annotations of
// the fixed and loop tools: what they promise a generic Client about the
// arguments and results of each stage (Part III §4.4 to §4.6, §6).
package toolschema

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{annotationRules, outputSchemaRules, permissiveRules, reservedRules} {
		out = append(out, list()...)
	}
	return out
}
