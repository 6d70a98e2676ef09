// Package json judges the file itself: well-formed JSON that every receiver
// reads the same way (RFC 8259, I-JSON). It reads the parser's account of
// each file and no part of the spec beyond Part III's use of JSON-RPC.
package json

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return jsonRules()
}
