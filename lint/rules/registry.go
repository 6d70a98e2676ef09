// Package rules holds pilotage-lint's rules, one file per rule family. Each
// rule registers itself in an init function of its family's file; All lists
// them with the engine's own rules, sorted by ID.
package rules

import (
	"fmt"
	"sort"

	"github.com/pilotagekit/pilotagekit/lint"
)

var registry = map[string]*lint.Rule{}

func register(rs ...*lint.Rule) {
	for _, r := range rs {
		if registry[r.ID] != nil {
			panic(fmt.Sprintf("rule %s registered twice", r.ID))
		}
		if r.Severity == 0 || r.Spec == "" || r.Summary == "" || r.Doc == "" {
			panic(fmt.Sprintf("rule %s lacks a severity, spec section, summary or doc", r.ID))
		}
		registry[r.ID] = r
	}
}

// All returns every rule, sorted by ID.
func All() []*lint.Rule {
	out := lint.EngineRules()
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// ByID returns the rule with the given ID, or nil.
func ByID(id string) *lint.Rule {
	if r := registry[id]; r != nil {
		return r
	}
	for _, r := range lint.EngineRules() {
		if r.ID == id {
			return r
		}
	}
	return nil
}
