// Package json judges the file itself: well-formed JSON that every receiver
// reads the same way. It reads the parser's account of each file against
// RFC 8259 (§2, §4, §6, §8.1, §9, §10) and I-JSON, and no part of the
// Pilotage spec.
package json

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return jsonRules()
}
