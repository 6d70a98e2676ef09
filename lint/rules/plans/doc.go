// Package plans judges recorded plans and traces: what a validate plan
// promises (its step identifiers, the entries it calls, their risk) against
// the catalog of the same catalog_version and against what execute and its
// trace show for the same program, and whether validate answers the same
// request the same way (Part II §3.4, §5.6, §5.8, §6.4, §6.5).
//
// The rule IDs keep the call- prefix they were given in package calls:
// rule IDs are permanent.
package plans

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{callPlanRules, callProgramRules, callDeterminismRules} {
		out = append(out, list()...)
	}
	return out
}
