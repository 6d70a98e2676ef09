// Package shape validates manifests and recorded results against the schemas
// generated from pkg/types (Part II §4 to §8 as Part III binds them), and
// reports a defect only where no specific rule of another family explains it.
package shape

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return shapeRules()
}
