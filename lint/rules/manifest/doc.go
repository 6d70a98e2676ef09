// Package manifest judges the pilotage_manifest result: its version, its
// Languages and their closed sets, the capability map and the loop maps
// (Part II §3.3, §4.3, §5.1, §11.1; Part III §4 and §8 for what the
// manifest binds).
package manifest

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, list := range []func() []*lint.Rule{manifestRules, valueRules, capabilityRules, loopRules, manifestSchemaRules} {
		out = append(out, list()...)
	}
	return out
}
