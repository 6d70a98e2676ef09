// Package probe judges the calls recorded by snapshot --probe, each sending
// one deliberate defect, against the sentence of Parts II and III that
// decides the answer (mostly Part III §7 and §10.1); a specific rule of
// another family that explains the same call replaces its finding.
package probe

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return probeRules()
}
