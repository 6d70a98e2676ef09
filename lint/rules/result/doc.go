// Package result judges each recorded tool result on its own against Part
// II's result shapes (guides, catalog, validate, execute, trace; §5 to §8)
// and Part III's request-error and not-found rules (§7).
package result

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{resultRules, resultNotFoundRules, catalogRules, catalogLastPageRules, executeRules, traceMissingRules, guideRules, validateRules, identityRules, valueRules} {
		out = append(out, list()...)
	}
	return out
}
