package result

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// results returns the recorded results the family judges: those of
// rulekit.Results whose tool a recorded tools/list lists. Part III §4:
// "All Pilotage tools: appear in tools/list"; an answer for a name the
// listing lacks (an SDK's isError text for an unknown pilotage_catalog on a
// server without a catalog) is no Pilotage tool's answer, so none of its
// shape is judged. Without a recorded listing every result is judged.
func results(p *lint.Pass) []*rulekit.Result {
	all := rulekit.Results(p.Snap)
	if len(p.Snap.Tools) == 0 {
		return all
	}
	out := all[:0:0]
	for _, rc := range all {
		if listed(p.Snap, rc.Name) {
			out = append(out, rc)
		}
	}
	return out
}

func listed(s *snapshot.Snapshot, name string) bool { return s.Tool(name) != nil }
