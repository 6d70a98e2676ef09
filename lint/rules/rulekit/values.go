package rulekit

import (
	"fmt"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// UnknownValue is a value of a recorded result outside a closed set that
// Part II §1.3 gives Clients a fallback for.
type UnknownValue struct {
	Node *source.Node
	// What names the value, such as `guide level "tutorial"`.
	What string
	// Fallback is what a Client does instead, and Known the values 1.1
	// defines, for a message.
	Fallback, Known string
}

// UnknownResultValues lists the guide levels and catalog change values of
// the recorded results that Pilotage 1.1 does not define. Request-error
// kinds are not among them: Part III §10.1 binds the Server to the closed
// set, and result-error-kind-unknown judges them.
func UnknownResultValues(s *snapshot.Snapshot) []UnknownValue {
	var out []UnknownValue
	level := func(g *source.Node) {
		if v := g.Get("level"); v.IsString() && !types.GuideLevel(v.Text()).IsKnown() {
			id, _ := g.Str("id")
			out = append(out, UnknownValue{v, fmt.Sprintf("level %q of guide %q", v.Text(), id), `treat the guide as "reference"`, `"core", "reference" or "examples"`})
		}
	}
	for _, rc := range Results(s) {
		if rc.RequestError {
			continue
		}
		switch rc.Op {
		case OpGuideIndex:
			for _, g := range rc.Content.Get("guides").Items() {
				level(g)
			}
		case OpGuideFetch:
			level(rc.Content.Get("guide"))
		case OpCatalog:
			for _, c := range rc.Content.Get("changes").Items() {
				if v := c.Get("change"); v.IsString() && !types.ChangeKind(v.Text()).IsKnown() {
					id, _ := c.Str("id")
					out = append(out, UnknownValue{v, fmt.Sprintf("change %q of entry %q", v.Text(), id), `treat the change as "modified"`, `"added", "removed" or "modified"`})
				}
			}
		}
	}
	return out
}
