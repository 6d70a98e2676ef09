package calls

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// callReplayRules judge what an idempotent replay returns beyond its
// run_id, which call-idempotent-replay-new-run judges.
func callReplayRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-idempotent-replay-different-result", Severity: lint.Warning, Spec: "Part II §6.5.2, §6.5.6", Policy: lint.PolicyContradiction,
			Quote:   "A repeated request returns the recorded result of the first Run.",
			Keyword: "",
			Summary: "An idempotent replay returned the first Run's run_id but a result that differs from the first one.",
			Doc:     "With execute.idempotency declared, a retry carrying the same key, runnable and input gets \"the recorded result of the first Run\", returned \"without further processing\" (Part II §6.5.2, §6.5.6). A Client that timed out and retried reads the replay as the answer it missed: an outcome, output or trace other than the first one tells it something that did not happen. The rule compares the whole structuredContent, _meta left out, of the replay with the first Run's, for the pairs call-idempotent-replay-new-run judges and that carry the same run_id (a new run_id is that rule's). The spec states this with no keyword, so the rule warns.",
			Bad:     `[{"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": []}}}}, {"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": []}}}}, {"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": []}}}}]`,
			Check:   checkCallReplayDifferentResult,
		},
	}
}

func checkCallReplayDifferentResult(p *lint.Pass) {
	for _, r := range rulekit.Of(p.Snap).Replays() {
		c, f := r.Call, r.Original
		if !r.Known() || !callSameSelectors(c, f) || !c.Succeeded() {
			continue
		}
		if id := rulekit.RunID(c); id == "" || id != rulekit.RunID(f) {
			continue
		}
		if at, what := callContentDiffers(f.StructuredContent, c.StructuredContent); at != nil {
			p.Report(at, "%s replayed idempotency_key %q with a result other than the first Run's at %s (%s): return the recorded result of the first Run unchanged", c.Name, c.Arg("idempotency_key").Text(), f.Node.Pointer(), what)
		}
	}
}

func checkCallIdempotentReplay(p *lint.Pass) {
	for _, r := range rulekit.Of(p.Snap).Replays() {
		c, f := r.Call, r.Original
		if !r.Window || !r.Known() || !callSameSelectors(c, f) || !rulekit.Started(c) {
			continue
		}
		if id, first := rulekit.RunID(c), rulekit.RunID(f); id != "" && first != "" && id != first {
			p.Report(c.StructuredContent.Get(types.ArgRunID), "%s started run %s for a replay of idempotency_key %q whose first Run was %s: return the recorded result of the first Run instead of executing again", c.Name, id, c.Arg(types.ArgIdempotencyKey).Text(), first)
		}
	}
}

// callSameSelectors reports whether two execute requests agree on the
// members a Server might reasonably count as part of what is executed
// (mode, test_run, context): the replay rules judge only requests that
// agree on them too, so a server keying on them is not faulted.
func callSameSelectors(a, b *snapshot.Call) bool {
	for _, m := range []string{types.ArgMode, types.ArgTestRun, types.ArgContext} {
		if !source.Equal(rulekit.Present(a, m), rulekit.Present(b, m)) {
			return false
		}
	}
	return true
}

// callContentDiffers compares two structuredContent objects member by
// member, _meta left out, and returns the value of b to report at with a
// phrase naming the member: the differing member, or b itself for one that
// b lacks.
func callContentDiffers(a, b *source.Node) (*source.Node, string) {
	for _, m := range a.Items() {
		if m.Key() == "_meta" {
			continue
		}
		if o := b.Get(m.Key()); o == nil {
			return b, m.Key() + " missing"
		} else if !source.Equal(m, o) {
			return callFirstDifference(m, o), m.Key() + " differs"
		}
	}
	for _, m := range b.Items() {
		if m.Key() != "_meta" && a.Get(m.Key()) == nil {
			return m, m.Key() + " added"
		}
	}
	return nil, ""
}

// callFirstDifference returns the first value inside b, in document order,
// that differs from the value at the same place in a, so that a finding
// points at the changed value rather than at a whole trace.
func callFirstDifference(a, b *source.Node) *source.Node {
	if a.Kind != b.Kind || source.Equal(a, b) {
		return b
	}
	switch b.Kind {
	case source.Object:
		if len(a.Kids()) != len(b.Kids()) {
			return b
		}
		for _, m := range b.Items() {
			if o := a.Get(m.Key()); o == nil {
				return m
			} else if !source.Equal(o, m) {
				return callFirstDifference(o, m)
			}
		}
	case source.Array:
		if len(a.Kids()) != len(b.Kids()) {
			return b
		}
		for i, m := range b.Kids() {
			if !source.Equal(a.Kids()[i], m) {
				return callFirstDifference(a.Kids()[i], m)
			}
		}
	}
	return b
}
