package plans

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// callPlanRules judge the steps of one recorded plan or trace: identifiers
// the trace grammar reserves or repeats, calls in a Language without a
// catalog, a trace entry without the calls its plan step names, and risk
// beyond what the called entry allows.
func callPlanRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-plan-step-id-reserved", Severity: lint.Error, Spec: "Part II §3.4",
			Quote:        "A Server MUST reject a program containing either reserved character in a program step identifier and MUST report the violation through a diagnostic.",
			Keyword:      "MUST",
			Summary:      "A validate call answered valid: true with a plan whose step identifier contains / or #.",
			Doc:          "Trace identifiers append #n for loop iterations and use / for expanded sub-programs (Part II §5.8.2), so a program step identifier containing either character makes base-identifier recovery ambiguous; the Server must refuse such a program with a diagnostic (Part II §3.4). A plan carrying one shows the program was accepted.",
			Bad:          `{"valid": true, "diagnostics": [], "plan": {"steps": [{"id": "lights/on", "risk": "write", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}, "calls": "light.lobby"}]}}`,
			Good:         `{"valid": true, "diagnostics": [], "plan": {"steps": [{"id": "lights_on", "risk": "write", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}, "calls": "light.lobby"}]}}`,
			Scope:        "Plan steps of validate calls answered valid: true, whatever the Language; an identifier the program does not carry is reported as generated.",
			NoExceptions: "Part II §3.4 and §5.8.2 were read: program step identifiers \"cannot contain `#` or `/`\", whether the program carries them or the Engine generates them for a grammar without any, and a plan of a promoted-program call contributes one step with the calling step's identifier.",
			Check:        checkCallPlanStepIDReserved,
		},
		{
			ID: "call-calls-without-catalog", Severity: lint.Warning, Spec: "Part II §3.2, §5.6, §5.8",
			Quote:   "Catalog entry or promoted-program reference invoked by the step.",
			Keyword: "", Policy: lint.PolicyContradiction,
			Summary: "A recorded plan or trace of a Language that does not declare catalog has a step naming something in calls.",
			Doc:     "calls names the catalog entry or promoted program a step invokes (Part II §5.6, §5.8), and a promoted program is itself a catalog entry (§5.4), so in a Language without a catalog a step has nothing calls could name: the answer contradicts one of two definitions. Either the Language has environment-bound names, and then it MUST declare catalog so that Clients can look them up (Part II §3.2, §4.3), or calls names something that is no catalog entry (a grammar built-in such as sqrt), which calls must not carry. Which of the two it is, the recording does not show: that the Language has environment-bound names is an inference, so this is a warning, and the message says what was inferred.",
			Bad:     `{"manifest": {"languages": [{"name": "flow/1", "capabilities": {"guides": true, "validate": true, "plan": true}}]}, "plan": {"steps": [{"id": "on", "calls": "light.lobby"}]}}`,
			Good:    `{"manifest": {"languages": [{"name": "flow/1", "capabilities": {"guides": true, "catalog": true, "validate": true, "plan": true}}]}, "plan": {"steps": [{"id": "on", "calls": "light.lobby"}]}}`,
			Scope:   "Plan steps of validate results and trace steps of execute and trace-fetch results, carrying calls, of a Language with a capability declaration that does not declare catalog.",
			Check:   checkCallCallsWithoutCatalog,
		},
		{
			ID: "call-trace-calls-missing", Severity: lint.Error, Spec: "Part II §5.8.4",
			Quote:   "Every trace entry that invokes a catalog entry MUST identify it in `calls`.",
			Keyword: "MUST",
			Summary: "A trace entry lacks calls although the recorded plan of the same program says its step invokes a catalog entry.",
			Doc:     "The Host approved the catalog entries the plan's calls named, and mission verification checks that the trace invoked those and only those (Part II §5.8.4, §7.3). A trace entry that ran an invoking step without naming the entry hides what was actually touched. The rule reads the plan of the same program and context at the catalog_version the Run ran under (rulekit.PlanOf), judges only new immediate Runs and test runs (a deploy Run's trace is an installation trace; a replay's trace is its original's), only unprefixed entries (an expanded sub-program's entries have no step in the caller's plan), and skips entries whose step failed, which may not have reached the call.",
			Bad:     `{"plan": {"steps": [{"id": "unlock_dock", "calls": "lock.dock_door"}]}, "trace": {"level": "full", "steps": [{"id": "unlock_dock", "input": {"action": "unlock"}, "output": {"locked": false}, "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Good:    `{"plan": {"steps": [{"id": "unlock_dock", "calls": "lock.dock_door"}]}, "trace": {"level": "full", "steps": [{"id": "unlock_dock", "calls": "lock.dock_door", "input": {"action": "unlock"}, "output": {"locked": false}, "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Scope:   "Unprefixed trace entries, with outcome ok, of a new immediate Run or test run that PlanOf pairs with the plan of the same program at the catalog_version it ran under, whose base identifier names a plan step with calls.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8.3", Quote: "Internal expanded entries do not have corresponding steps in the caller's plan.", Fixture: "good-expanded"},
				{Spec: "Part II §5.8.4", Quote: "the body plan is not matched against the installation trace;", Fixture: "good-deploy"},
			},
			Check: checkCallTraceCallsMissing,
		},
		{
			ID: "call-plan-step-riskier-than-entry", Severity: lint.Warning, Spec: "Part II §5.3, §5.4, §5.6", Policy: lint.PolicyContradiction,
			Summary: "A plan step's risk_hints claim an effect that the risk_hints of the catalog entry it calls rule out.",
			Doc:     "A catalog entry's risk_hints state the maximum effect of the entry (Part II §5.4), and a plan step's risk_hints the risk of this use of it (Part II §5.6). A step that is destructive or open-world while its entry is not, or that writes while its entry is read-only, contradicts one of the two claims the Host's risk gate relies on (Part II §7.3). The entry is read from recorded catalog responses of the same Language.",
			Bad:     `{"entry": {"id": "light.lobby", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}}, "plan": {"steps": [{"id": "on", "calls": "light.lobby", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}}]}}`,
			Good:    `{"entry": {"id": "light.lobby", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}}, "plan": {"steps": [{"id": "on", "calls": "light.lobby", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}}]}}`,
			Check:   checkCallStepRiskierThanEntry,
		},
		{
			ID: "call-trace-step-duplicate", Severity: lint.Error, Spec: "Part II §5.8.2",
			Quote:        "Every executed step: MUST appear exactly once as a top-level entry;",
			Keyword:      "MUST",
			Summary:      "A recorded trace lists the same step identifier twice.",
			Doc:          "A trace is a flat log in which every executed step appears exactly once; repeated executions are told apart by their identifiers, #n for each loop iteration and a calling-entry prefix for an expanded sub-program (Part II §5.8.2). Two entries with one identifier make the log ambiguous: a Client verifying its mission cannot tell a step that ran twice from one reported twice, nor which outcome is the step's.",
			Bad:          `{"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "summary", "steps": [{"id": "notify", "outcome": {"ok": true, "status": "success", "error": null}}, {"id": "notify", "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Good:         `{"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "summary", "steps": [{"id": "notify#1", "outcome": {"ok": true, "status": "success", "error": null}}, {"id": "notify#2", "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Scope:        "The steps of every trace in execute and trace-fetch results, replays and deploy installation traces included.",
			NoExceptions: "Part II §5.8.2 and §5.8.3 were read: loop iterations (#n) and expanded sub-programs (the calling entry's identifier as prefix) give every repeated execution its own identifier, and a summarized loop decision form changes a loop entry's decisions, not how many entries there are.",
			Check:        checkCallTraceStepDuplicate,
		},
	}
}

func checkCallPlanStepIDReserved(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpValidate) {
		if !rulekit.Accepted(c) {
			continue
		}
		for _, s := range c.StructuredContent.Path("plan", "steps").Objects() {
			id := s.Get("id")
			if !id.IsString() || !strings.ContainsAny(id.Text(), "/#") {
				continue
			}
			if callProgramHolds(c.Program, id.Text()) {
				p.Report(id, "%s accepted a program whose step identifier %q contains / or #, which trace identifiers reserve: reject it with a diagnostic", c.Name, id.Text())
			} else {
				p.Report(id, "%s gave plan step %q an identifier with / or #, which trace identifiers reserve and program step identifiers must not contain: generate identifiers without them", c.Name, id.Text())
			}
		}
	}
}

// callProgramHolds reports whether a program carries text: as a string
// value anywhere in a structured program, or inside a text program. An
// identifier the program does not carry was generated by the Engine.
func callProgramHolds(prog *source.Node, text string) bool {
	switch {
	case prog == nil:
		return true
	case prog.IsString():
		return strings.Contains(prog.Text(), text)
	}
	for _, k := range prog.Items() {
		if k.IsString() && k.Text() == text || callProgramHolds(k, text) && (k.IsObject() || k.IsArray()) {
			return true
		}
	}
	return false
}

func checkCallCallsWithoutCatalog(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		l := c.Lang
		if l == nil || !l.Caps.Exists() || l.Caps.Declared(string(types.CapCatalog)) || !c.Succeeded() {
			continue
		}
		var steps []*source.Node
		switch c.Op {
		case snapshot.OpValidate:
			steps = c.StructuredContent.Path("plan", "steps").Objects()
		case snapshot.OpExecute, snapshot.OpTraceFetch:
			steps = c.StructuredContent.Path("trace", "steps").Objects()
		}
		for _, s := range steps {
			if calls := s.Get("calls"); calls.IsString() {
				p.Report(calls, "step %s names %q in calls, which names a catalog entry or promoted program, although %s declares no catalog (inferred: either the Language has environment-bound names and must declare catalog, Part II §3.2, or %q is no catalog entry and the step must not carry calls); declare catalog, or leave calls out of steps that invoke no catalog entry", callStepLabel(s), calls.Text(), l.Label(), calls.Text())
				break
			}
		}
	}
}

func callStepLabel(s *source.Node) string {
	if id, ok := s.Str("id"); ok {
		return "\"" + id + "\""
	}
	return "without id"
}

func checkCallTraceCallsMissing(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		_, plan := m.PlanOf(c)
		invokes := map[string]string{}
		for _, s := range plan.Get("steps").Objects() {
			id, ok1 := s.Str("id")
			target, ok2 := s.Str("calls")
			if ok1 && ok2 {
				invokes[id] = target
			}
		}
		if len(invokes) == 0 {
			continue
		}
		// An expanded sub-program's entries have no step in the caller's
		// plan (Part II §5.8.3), so the plan says nothing of what they
		// invoke.
		for _, s := range rulekit.Unprefixed(c.StructuredContent.Path("trace", "steps").Objects()) {
			id, _ := s.Str("id")
			target := invokes[types.BaseID(id)]
			if target == "" || s.Has("calls") || !rulekit.True(s.Path("outcome", "ok")) {
				continue
			}
			p.ReportMissing(s, "trace entry %q ran a step that invokes %q (per the recorded plan) but carries no calls: name the invoked entry in calls", id, target)
		}
	}
}

// callHint reads one boolean risk hint; an absent hint is unknown.
func callHint(hints *source.Node, name string) (value, known bool) {
	v := hints.Get(name)
	return v.IsBool() && v.Truth(), v.IsBool()
}

// callRiskier names the hint by which step claims more than entry allows,
// or "".
func callRiskier(step, entry *source.Node) string {
	for _, h := range []string{"destructive", "openWorld"} {
		s, ks := callHint(step, h)
		e, ke := callHint(entry, h)
		if ks && ke && s && !e {
			return h + ": true"
		}
	}
	s, ks := callHint(step, "readOnly")
	e, ke := callHint(entry, "readOnly")
	if ks && ke && !s && e {
		return "readOnly: false"
	}
	return ""
}

func checkCallStepRiskierThanEntry(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpValidate) {
		if !rulekit.Accepted(c) || c.Lang == nil {
			continue
		}
		cv, _ := c.StructuredContent.Str("catalog_version")
		for _, s := range c.StructuredContent.Path("plan", "steps").Objects() {
			target, ok := s.Str("calls")
			if !ok {
				continue
			}
			// The entry speaks for the plan's catalog only at the same
			// catalog_version, or with nothing between that could have
			// changed it.
			e, ok := m.EntryAt(c.Lang, target, c, cv, "risk_hints")
			if !ok {
				continue
			}
			if h := callRiskier(s.Get("risk_hints"), e.Node.Get("risk_hints")); h != "" {
				p.Report(s.Get("risk_hints"), "plan step %s claims %s although entry %q, which it calls, does not: the entry's risk_hints state its maximum effect, so correct one of the two", callStepLabel(s), h, target)
			}
		}
	}
}

func checkCallTraceStepDuplicate(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		if c.Op != snapshot.OpExecute && c.Op != snapshot.OpTraceFetch || !c.Succeeded() {
			continue
		}
		seen := map[string]bool{}
		for _, s := range c.StructuredContent.Path("trace", "steps").Objects() {
			id := s.Get("id")
			if !id.IsString() {
				continue
			}
			if seen[id.Text()] {
				p.Report(id, "step %q appears twice in this trace: every executed step appears once, with #n for each loop iteration and a calling-entry prefix for an expanded sub-program", id.Text())
			}
			seen[id.Text()] = true
		}
	}
}
