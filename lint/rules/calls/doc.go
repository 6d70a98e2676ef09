// Package calls judges what a server does: each recorded request with its
// response, and against the other recorded calls of the same snapshot (run
// identity, versions, plans and traces, routing; Part II §5 to §8, Part III
// §4 to §7).
package calls

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{callRoutingRules, callRunRules, callVersionRules, callIdentityRules, callContentRules, callBindingRules, callPlanRules, callClosedSetRules, callProgramRules, callListingRules, callDeterminismRules, callRetentionRules, callReplayRules} {
		out = append(out, list()...)
	}
	return out
}
