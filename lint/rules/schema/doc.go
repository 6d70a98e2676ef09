// Package schema judges tool schemas for portability: JSON Schema features
// that Clients and model providers handle differently (Part III §4.6 and
// §6, Part II §5.4 for the catalog's input_schema).
package schema

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return portabilityRules()
}
