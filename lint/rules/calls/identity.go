package calls

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// These rules check what the spec states without a requirement keyword
// ("X is a request error", "the response contains the recorded facts"):
// they are findings of fact about the recorded exchange: answers that
// contradict the spec's definitions, warnings by the severity policy.
func callIdentityRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-response-identity", Severity: lint.Warning, Spec: "Part II §6.2, §6.3, §6.6", Policy: lint.PolicyContradiction,
			Summary: "A response names a different guide, catalog entry or Run than the request asked for, or a trace carries another run_id than its envelope.",
			Doc:     "The fetch form returns the selected guide, a catalog get returns the entry asked for, and the fetch door returns the Run asked for, whose trace is that Run's (Part II §6.2, §6.3, §6.5, §6.6). A response about another object than the one requested is answered for the wrong question: the Client caches or verifies against the wrong thing.",
			Bad:     `{"name": "trace_run", "arguments": {"run_id": "run_0002"}, "result": {"structuredContent": {"run_id": "run_0001", "outcome": {"ok": true, "status": "success", "error": null}}}}`,
			Good:    `{"name": "trace_run", "arguments": {"run_id": "run_0002"}, "result": {"structuredContent": {"run_id": "run_0002", "outcome": {"ok": true, "status": "success", "error": null}}}}`,
			Check:   checkCallResponseIdentity,
		},
		{
			ID: "call-fetched-trace-differs", Severity: lint.Warning, Spec: "Part II §6.6", Policy: lint.PolicyContradiction,
			Quote:   "The response contains the recorded facts of the Run: the same trace envelope that rode the execute response.",
			Summary: "A trace fetched at the level of the execute response's inline trace differs from it.",
			Doc:     "One trace, two doors: the fetch door returns the stored envelope that rode the execute response (Part II §6.6). When the fetched trace has the same level and the same run outcome as the inline one but other steps, one of the two doors reports facts that did not happen, and a Client verifying a Run cannot tell which. A fetch with another run outcome is taken for another Run that reused the id, as two sessions of a merged snapshot may.",
			Bad:     `[{"name": "run_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": [{"id": "a"}]}}}}, {"name": "trace_run", "arguments": {"run_id": "run_1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": []}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": [{"id": "a"}]}}}}, {"name": "trace_run", "arguments": {"run_id": "run_1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": [{"id": "a"}]}}}}]`,
			Check:   checkCallFetchedTrace,
		},
		{
			ID: "call-request-fault-accepted", Severity: lint.Warning, Spec: "Part II §6.2, §6.6; Part III §4.2, §4.4", Policy: lint.PolicyContradiction,
			Summary: "A request the spec calls a request error (a mode fault, trace_level none on the fetch door, a question without narrate, an undeclared sub-feature, a guide id the index lacks) was answered with success.",
			Doc:     "The binding names these requests as request errors of kind invalid_request: mode absent for a Language with execution \"both\", mode sent to any other Language or with an unknown value (Part III §4.4); trace_level \"none\" or an unknown level on the fetch door (Part II §6.6); question without trace_fetch.narrate (Part III §4.4); q without catalog.search, changed_since without catalog.changed_since (Part III §4.2); a guide id that the latest recorded index of the Language does not list, with only reads between the two (Part II §6.2). A topic sent without guides.topic_fetch is not judged: Part III §4.1 does not say whether the server refuses it or returns the whole guide. Answered with success, the Client believes its member was honoured.",
			Bad:     `{"name": "trace_run", "arguments": {"run_id": "run_1", "trace_level": "none"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}`,
			Good:    `{"name": "trace_run", "arguments": {"run_id": "run_1", "trace_level": "none"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "trace_level none has no meaning on the fetch door"}}}}`,
			Check:   checkCallRequestFaultAccepted,
		},
	}
}

func checkCallResponseIdentity(p *lint.Pass) {
	mismatch := func(asked, got *source.Node) bool {
		return asked.IsString() && got.IsString() && asked.Text() != got.Text()
	}
	for _, c := range p.Snap.Calls {
		if !c.Succeeded() {
			continue
		}
		sc := c.StructuredContent
		switch c.Op {
		case snapshot.OpGuideFetch:
			if got := sc.Path("guide", "id"); mismatch(c.Arg("id"), got) {
				p.Report(got, "the guide fetch asked for %q and returned guide %q: return the guide the request names", c.Arg("id").Text(), got.Text())
			}
		case snapshot.OpCatalog:
			if got := sc.Path("entry", "id"); c.Verb == string(types.VerbGet) && mismatch(c.Arg("id"), got) {
				p.Report(got, "the catalog get asked for %q and returned entry %q: return the entry the request names", c.Arg("id").Text(), got.Text())
			}
		case snapshot.OpTraceFetch:
			if got := sc.Get(types.ArgRunID); mismatch(c.Arg(types.ArgRunID), got) {
				p.Report(got, "%s asked for run %q and returned run %q: return the Run the request names", c.Name, c.Arg(types.ArgRunID).Text(), got.Text())
			}
		}
		if c.Op == snapshot.OpExecute || c.Op == snapshot.OpTraceFetch {
			if got := sc.Path("trace", types.ArgRunID); mismatch(sc.Get(types.ArgRunID), got) {
				p.Report(got, "the trace carries run_id %q inside the envelope of run %q: a Run's trace carries its own run_id", got.Text(), sc.Get(types.ArgRunID).Text())
			}
		}
	}
}

func checkCallFetchedTrace(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	inline := map[string]*source.Node{}
	for _, c := range p.Snap.Calls {
		if !c.Succeeded() {
			continue
		}
		sc := c.StructuredContent
		switch c.Op {
		case snapshot.OpExecute:
			// A replay's trace is its original's, not a record of its own.
			if id := rulekit.RunID(c); id != "" && sc.Get("trace").IsObject() && m.NewRun(c) {
				inline[id] = sc
			}
		case snapshot.OpTraceFetch:
			id := c.Arg(types.ArgRunID)
			first := inline[id.Text()]
			if !id.IsString() || first == nil || !sc.Get("trace").IsObject() {
				continue
			}
			a, b := first.Get("trace"), sc.Get("trace")
			if !source.Equal(a.Get("level"), b.Get("level")) {
				continue // another level is another view of the record
			}
			// Another outcome is taken for another Run that reused the id
			// (two sessions of a merged snapshot both numbering from 1):
			// only the same Run with other steps is reported.
			if source.Equal(first.Get("outcome"), sc.Get("outcome")) && !sameEnvelope(a, b) {
				p.Report(b, "%s returned a trace of run %s that differs from the one the execute response carried at the same level: the fetch door returns the same recorded envelope", c.Name, id.Text())
			}
		}
	}
}

// sameEnvelope compares two traces without the members the trace envelope
// leaves out (Server-authored prose): only the facts are compared, as
// source.Equal compares objects.
func sameEnvelope(a, b *source.Node) bool {
	facts := 0
	for _, k := range a.Items() {
		if k.Key() == "narration" {
			continue
		}
		facts++
		if !source.Equal(k, b.Get(k.Key())) {
			return false
		}
	}
	for _, k := range b.Items() {
		if k.Key() != "narration" {
			facts--
		}
	}
	return facts == 0
}

// callRequestFault returns a member of a request the binding makes a
// request error, and why, for the faults the execute rule does not judge.
func callRequestFault(m *rulekit.Model, c *snapshot.Call) (*source.Node, string) {
	caps := func(cp, sub string) bool { return c.Lang.Caps.SubFeature(cp, sub) }
	known := c.Lang != nil && c.Lang.Caps.Exists()
	switch c.Op {
	case snapshot.OpExecute:
		if c.Lang == nil {
			return nil, ""
		}
		exec, _ := c.Lang.Node.Str("execution")
		mode := rulekit.Present(c, types.ArgMode)
		switch {
		case exec == string(types.ExecutionBoth) && mode == nil && c.Arguments.IsObject():
			return c.Arguments, "no mode, which a Language with execution \"both\" requires"
		case mode == nil:
		case types.ExecutionMode(exec).IsKnown() && exec != string(types.ExecutionBoth):
			return mode, "mode, which only a Language with execution \"both\" accepts"
		case mode.IsString() && !types.RunMode(mode.Text()).IsKnown() && !m.LaterMinor():
			return mode, "an unknown mode"
		}
	case snapshot.OpTraceFetch:
		// A later minor may add trace levels; none stays an execute-time
		// value the fetch door refuses in any minor (Part II §6.6).
		if tl := c.Arg(types.ArgTraceLevel); tl.IsString() && !types.TraceLevel(tl.Text()).IsKnownRequest(types.StageTraceFetch) && (!m.LaterMinor() || tl.Text() == string(types.TraceNone)) {
			return tl, "trace_level " + tl.Text() + ", which the fetch door does not admit"
		}
		if q := rulekit.Present(c, types.ArgQuestion); q != nil && known && !caps(string(types.CapTraceFetch), types.SubNarrate) {
			return q, "question without trace_fetch.narrate declared"
		}
	case snapshot.OpCatalog:
		if !known {
			return nil, ""
		}
		if q := rulekit.Present(c, "q"); q != nil && !caps(string(types.CapCatalog), types.SubSearch) {
			return q, "q without catalog.search declared"
		}
		if c.Verb == string(types.VerbChangedSince) && !caps(string(types.CapCatalog), types.SubChangedSince) {
			return c.Arg("verb"), "changed_since without catalog.changed_since declared"
		}
	}
	return nil, ""
}

func checkCallRequestFaultAccepted(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	// index holds, per Language, the guide ids of its latest recorded
	// index: a fetch of an id it lacks asks for an unknown guide.
	type listed struct {
		ids  map[string]bool
		call *snapshot.Call
	}
	index := map[*snapshot.Language]listed{}
	for _, c := range p.Snap.Calls {
		if c.Op == snapshot.OpGuideIndex && c.Succeeded() && c.Lang != nil && c.StructuredContent.Get("guides").IsArray() {
			ids := map[string]bool{}
			for _, g := range c.StructuredContent.Get("guides").Objects() {
				if id, ok := g.Str("id"); ok {
					ids[id] = true
				}
			}
			index[c.Lang] = listed{ids, c}
		}
		if !c.Succeeded() {
			continue
		}
		if m.Extended(c) {
			continue
		}
		if at, what := callRequestFault(m, c); at != nil {
			p.Report(at, "%s answered with success a request carrying %s: answer a request error of kind invalid_request", c.Name, what)
		}
		// A call between the index and the fetch that may have written
		// may have added the guide.
		if id, ix := c.Arg("id"), index[c.Lang]; c.Op == snapshot.OpGuideFetch && id.IsString() && ix.ids != nil && !ix.ids[id.Text()] && m.ReadsBetween(ix.call, c) {
			p.Report(id, "pilotage_get_guide returned a guide for id %q, which the recorded index of %s does not list: an unknown guide id is a request error of kind not_found, and the index lists every guide", id.Text(), c.Lang.Label())
		}
	}
}
