// Package calls judges what a server does: each recorded request with its
// response, and against the other recorded calls of the same snapshot
// (routing, Runs and their fetches, response identity, content, binding,
// versions, listings, replays, retention and closed sets; Part II §5 to §8,
// Part III §4 to §7). What a plan promises against what a trace shows is
// package plans'.
package calls

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{callRoutingRules, callRunRules, callVersionRules, callIdentityRules, callContentRules, callBindingRules, callClosedSetRules, callListingRules, callRetentionRules, callReplayRules} {
		out = append(out, list()...)
	}
	for _, r := range out {
		carrierScope(r)
	}
	return out
}
