// Package shape validates manifests and recorded results against the
// schemas generated from pkg/types, the field tables of Part II §5 as
// Part III §6 carries them (Part II §1.1 makes an M row a MUST), and
// reports a defect only where no specific rule of another family explains
// it.
package shape

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return shapeRules()
}
