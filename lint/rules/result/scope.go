package result

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
)

// results returns the recorded results the family judges: those of
// rulekit.Results whose tool is rulekit.Listed (an answer for a name a
// recorded listing lacks is no Pilotage tool's answer, Part III §4), less
// the calls the recording model marks Extended. An Extended call carries,
// under a manifest of a later minor, a request member (or a Language
// member) 1.1 does not define, which may shape its answer in ways 1.1
// cannot judge (Part II §11.1).
func results(p *lint.Pass) []*rulekit.Result {
	m := rulekit.Of(p.Snap)
	var out []*rulekit.Result
	for _, rc := range envelopes(p) {
		if !m.Extended(rc.Call) {
			out = append(out, rc)
		}
	}
	return out
}

// envelopes is results with Extended calls kept: the envelope of a tool
// result (structuredContent, isError, the request-error object) is the
// binding's, which no request member changes.
func envelopes(p *lint.Pass) []*rulekit.Result {
	var out []*rulekit.Result
	for _, rc := range rulekit.Results(p.Snap) {
		if rulekit.Listed(p.Snap, rc.Name) {
			out = append(out, rc)
		}
	}
	return out
}

// judgedRun reports whether an execute result is judged as a Run of its
// own, for what its request asked: not a replay, which returns "the
// recorded result of the original Run without further processing" (Part
// II §6.5.2 step 1) whatever trace_level, store or token the repeat
// carries.
func judgedRun(p *lint.Pass, rc *rulekit.Result) bool {
	return rc.Op != rulekit.OpExecute || rulekit.Of(p.Snap).ReplayOf(rc.Call) == nil
}

// laterMinor reports whether the manifest, authoritative or inline,
// declares a later minor version, whose added values are not judged.
func laterMinor(p *lint.Pass) bool { return rulekit.Of(p.Snap).LaterMinor() }
