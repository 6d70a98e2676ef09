// Package manifest judges the pilotage_manifest result: its version, its
// Languages and their closed sets, the capability map and the loop maps (Part
// II §1.3, §4, §5; Part III §3).
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
