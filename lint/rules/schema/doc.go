// Package schema judges tool schemas for portability: JSON Schema features
// that Clients and model providers handle differently (Part III §4.4, and
// the MCP tool schema rules it builds on).
package schema

import "github.com/pilotagekit/pilotagekit/lint"

// Rules returns the family's rules; the table in package rules lists
// them under the family's name.
func Rules() []*lint.Rule {
	return portabilityRules()
}
