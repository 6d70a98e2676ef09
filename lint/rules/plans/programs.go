package plans

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// These rules hold a plan, the trace of the same program and the catalog
// of the same catalog_version to one another, and a validate verdict to
// the execute of the same program (Part II §5.6, §5.8.4, §6.4, §6.5.2).
func callProgramRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-trace-calls-unplanned", Severity: lint.Error, Spec: "Part II §5.8.4, §6.5.4",
			Quote:   "The Engine MUST NOT execute an operation that was not part of the validated program.",
			Keyword: "MUST NOT",
			Summary: "A trace entry invokes another catalog entry than the plan step of the same identifier, for the same program at the same catalog_version.",
			Doc:     "The Host approves a plan whose steps name the entries they invoke; the Engine must not execute an operation outside the validated program (Part II §5.8.4, §6.5.4). When a trace entry's calls names another entry than the plan step with its base identifier, the Run touched something nobody approved. The rule pairs a new immediate Run or test run with the nearest earlier accepted validate of the same program and context whose catalog_version the Run's expected_catalog_version names (or, without one, with no other token and no write recorded in between; rulekit.PlanOf), and compares unprefixed entries only: an expanded sub-program's entries have no step in the caller's plan.",
			Bad:     `plan steps [{"id": "notify", "calls": "notify.facilities"}]   trace steps [{"id": "notify", "calls": "lock.dock_door", ...}]`,
			Good:    `plan steps [{"id": "notify", "calls": "notify.facilities"}]   trace steps [{"id": "notify", "calls": "notify.facilities", ...}]`,
			Scope:   "Unprefixed trace entries of a new immediate Run or test run that PlanOf pairs with the plan of the same program at the catalog_version it ran under, whose base identifier names a plan step with another calls.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8.4", Quote: "Correspondence is evaluated only over unprefixed trace entries: entries whose identifiers do not contain `/`.", Fixture: "good-expanded"},
				{Spec: "Part II §5.6", Quote: "steps with no externally visible effect, such as pure transformations, MAY be omitted.", Fixture: "good-omitted"},
				{Spec: "Part II §5.8.4", Quote: "the body plan is not matched against the installation trace;", Fixture: "good-deploy"},
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			},
			Check: checkCallTraceCallsUnplanned,
		},
		{
			ID: "call-plan-calls-missing", Severity: lint.Error, Spec: "Part II §5.6",
			Quote:   "| `calls` | string | Conditional | Catalog entry or promoted-program reference invoked by the step. MUST be present for an invoking step and absent for non-referencing steps. |",
			Keyword: "MUST",
			Summary: "A plan step lacks calls although the trace of the same program shows the step invoking a catalog entry.",
			Doc:     "The Host's risk gate reads which entries a plan invokes from its steps' calls (Part II §5.6, §7.3): an invoking step without calls hides what the program will touch. A plan says nothing by itself about which step invokes; a trace entry that carries calls, for the same program at the same catalog_version (paired as call-trace-calls-unplanned pairs them), shows that the step with its base identifier is an invoking step. Branch and loop steps are left to result-plan-control-flow-calls.",
			Bad:     `plan steps [{"id": "notify", "risk": "external_side_effect", ...}]   trace steps [{"id": "notify", "calls": "notify.facilities", ...}]`,
			Good:    `plan steps [{"id": "notify", "calls": "notify.facilities", "risk": "external_side_effect", ...}]   trace steps [{"id": "notify", "calls": "notify.facilities", ...}]`,
			Scope:   "Plan steps without calls, other than branch and loop steps, of the plan PlanOf pairs with a new immediate Run or test run, whose unprefixed trace entry of the same base identifier carries calls.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8.3", Quote: "Internal expanded entries do not have corresponding steps in the caller's plan.", Fixture: "good-expanded"},
				{Spec: "Part II §5.8.4", Quote: "the body plan is not matched against the installation trace;", Fixture: "good-deploy"},
			},
			Check: checkCallPlanCallsMissing,
		},
		{
			ID: "call-plan-calls-unlisted", Severity: lint.Error, Spec: "Part II §6.3, §6.4",
			Quote:   "Validation MUST operate against the current catalog snapshot.",
			Keyword: "MUST",
			Summary: "A plan step calls an entry that a complete catalog listing of the same Language at the same catalog_version does not contain.",
			Doc:     "A validate response names the catalog_version it validated against, and validation MUST operate against the current catalog (Part II §6.4). A plan step whose calls names an entry that a complete listing at that very catalog_version lacks was validated against some other vocabulary, or the listing left out an entry while claiming to be complete (§6.3); either way the agent could not have found the name it was approved to use. A value a recorded execute of the Language sent as program_ref is left out, since a promoted-program reference resolves through the catalog and need not be its entry's id (§3.5), and so is a listing with a call between it and the validate call that may have written. A complete listing is an unfiltered list (a limit is no filter) returned on one page without next_cursor, or the union of a paged one whose every page was recorded: from a first page without cursor, each later page fetched once with the next_cursor before it and the first page's other arguments, to a last page without next_cursor, all under that catalog_version. A chain with a page missing, a cursor sent twice, or pages under different versions is not judged.",
			Bad:     `list -> {"items": [{"id": "light.lobby", ...}], "catalog_version": "cv_1"}   validate -> {"catalog_version": "cv_1", "plan": {"steps": [{"id": "a", "calls": "light.attic", ...}]}}`,
			Good:    `list -> {"items": [{"id": "light.lobby", ...}], "catalog_version": "cv_1"}   validate -> {"catalog_version": "cv_1", "plan": {"steps": [{"id": "a", "calls": "light.lobby", ...}]}}`,
			Scope:   "Plan steps of validate calls answered valid: true whose calls the complete listing of the Language at the validate's catalog_version lacks, with only reads between the listing and the validate call; a value a recorded execute of the Language sent as program_ref is left out.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §3.5", Quote: "A **program reference**, represented as `program_ref`, is an identifier that resolves through the catalog to a promoted program.", Fixture: "good-program-ref"},
			},
			Check: checkCallPlanCallsUnlisted,
		},
		{
			ID: "call-validate-catalog-version-stale", Severity: lint.Error, Spec: "Part II §6.4",
			Quote:        "Validation MUST operate against the current catalog snapshot. When the Language declares `catalog`, the response MUST include the corresponding `catalog_version`.",
			Keyword:      "MUST",
			Summary:      "A validate response names another catalog_version than the catalog reported just before and just after it, with nothing in between that could change the catalog.",
			Doc:          "The catalog_version of a validate response is the token the Client sends back as expected_catalog_version, so it must be the token of the catalog the program was checked against: the current one (Part II §6.4). When the nearest catalog responses before and after the validate call carry one token, the validate call names another, and nothing recorded in between can have changed the catalog (only reads: guide, catalog, validate and trace-fetch calls, refused or replayed executes, test runs, tools that declare readOnlyHint), the validate answer cannot be current: a Client executing with it is refused with catalog_drift, or worse, a stale check passes.",
			Bad:          `list -> {"catalog_version": "cv_2"}   validate -> {"valid": true, "catalog_version": "cv_1", ...}   list -> {"catalog_version": "cv_2"}`,
			Good:         `list -> {"catalog_version": "cv_2"}   validate -> {"valid": true, "catalog_version": "cv_2", ...}   list -> {"catalog_version": "cv_2"}`,
			Scope:        "Validate responses of a Language whose nearest catalog responses before and after, with only reads between each and the validate call, carry one token that the validate response does not.",
			NoExceptions: "Part II §5.4, §6.4 and §11.3 were read: validation operates against the current catalog and its response carries that catalog's token; the authorization scope a token is computed in is the same Client's on both sides. A write between the answers, which may have moved the catalog and back, is not judged.",
			Check:        checkCallValidateVersionStale,
		},
		{
			ID: "call-trace-step-id-context", Severity: lint.Warning, Spec: "Part II §5.8.2, §5.8.3", Policy: lint.PolicyContradiction,
			Quote:   "For each loop enclosing the step, from outermost to innermost, append: #n",
			Summary: "A trace identifier's #n suffixes do not match the loops the plan places its step in, or it carries a sub-program prefix without trace_subprogram expanded or without an earlier calling entry.",
			Doc:     "A trace identifier carries one #n for each loop enclosing the step, and a caller/ prefix only for the entries of an expanded sub-program, below the calling entry (Part II §5.8.2, §5.8.3). Clients recover the plan step from the identifier and count iterations from the suffixes; an identifier qualified for loops the plan does not show, or prefixed where no expansion happens, sends them to the wrong step. The loop nesting is read from the recorded plan of the same program at the same catalog_version (each step's loop, and for an arm step its branch's); the prefix needs only the manifest and the trace.",
			Bad:     `plan steps [{"id": "lobby_on", ...}]   trace steps [{"id": "lobby_on#1", ...}]`,
			Good:    `plan steps [{"id": "lobby_on", ...}]   trace steps [{"id": "lobby_on", ...}]`,
			Check:   checkCallTraceStepIDContext,
		},
		{
			ID: "call-execute-runs-invalid-program", Severity: lint.Error, Spec: "Part II §6.5.2",
			Quote:   "For an inline program, the Server MUST validate `{program, context}` exactly as `validate` would.",
			Keyword: "MUST",
			Summary: "An inline program that validate answered valid: false was later run by execute with the same context, against the same catalog_version.",
			Doc:     "Execute re-validates an inline program exactly as validate would, and refuses an invalid one with validation_error before any side effect (Part II §6.5.2). When the recorded validate call found the program invalid and a later execute of the same program and context ran it, the guard that protects Clients who skip validate is missing. The rule compares only when the catalog cannot have moved in between: no other catalog_version was recorded for the Language between the two calls, and either the execute's expected_catalog_version is the one validate returned (a Run started under it is the Server's word that the catalog had not moved) or, without one, nothing between the two may have written (a tool that installed the missing entry). A replay is not judged.",
			Bad:     `[{"name": "validate_flow", "arguments": {"flow": {"steps": [{"id": "a", "do": "call", "device": "light.attic"}]}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "unknown_device", "path": "/steps/0/device", "message": "no device light.attic"}], "catalog_version": "cv_1"}}}, {"name": "run_flow", "arguments": {"flow": {"steps": [{"id": "a", "do": "call", "device": "light.attic"}]}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "validate_flow", "arguments": {"flow": {"steps": [{"id": "a", "do": "call", "device": "light.attic"}]}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "unknown_device", "path": "/steps/0/device", "message": "no device light.attic"}], "catalog_version": "cv_1"}}}, {"name": "run_flow", "arguments": {"flow": {"steps": [{"id": "a", "do": "call", "device": "light.attic"}]}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid program"}, "diagnostics": [{"severity": "error", "code": "unknown_device", "path": "/steps/0/device", "message": "no device light.attic"}]}}}]`,
			Scope:   "Execute calls that started a new Run of an inline program that an earlier validate of the same Language, program and context found invalid (an error diagnostic), with no other catalog_version recorded between them, and either the Run's expected_catalog_version is the validate's token or only reads lie between the two.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.4", Quote: "Validation MUST operate against the current catalog snapshot.", Fixture: "good-write-between"},
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			},
			Check: checkCallExecuteRunsInvalid,
		},
	}
}

// callPlanSteps indexes a plan's steps by identifier; a plan that repeats
// an identifier is ambiguous and indexes nothing.
func callPlanSteps(plan *source.Node) map[string]*source.Node {
	steps := map[string]*source.Node{}
	for _, s := range plan.Get("steps").Objects() {
		id, ok := s.Str("id")
		if !ok || steps[id] != nil {
			return nil
		}
		steps[id] = s
	}
	return steps
}

// callControlFlow reports the plan steps other steps name as their branch
// or loop.
func callControlFlow(plan *source.Node) map[string]bool {
	cf := map[string]bool{}
	for _, s := range plan.Get("steps").Objects() {
		if b, ok := s.Path("arm", "branch").Value().(string); ok {
			cf[b] = true
		}
		if l, ok := s.Str("loop"); ok {
			cf[l] = true
		}
	}
	return cf
}

func checkCallTraceCallsUnplanned(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		v, plan := m.PlanOf(c)
		steps := callPlanSteps(plan)
		if v == nil || steps == nil {
			continue
		}
		for _, e := range rulekit.Unprefixed(c.StructuredContent.Path("trace", "steps").Objects()) {
			id, _ := e.Str("id")
			got := e.Get("calls")
			want, ok := steps[types.BaseID(id)].Str("calls")
			if !ok || !got.IsString() || got.Text() == want {
				continue
			}
			p.With(lint.Also{Node: steps[types.BaseID(id)].Get("calls"), Note: "the plan step's calls, in the recorded validate of the same program"}).Report(got, "trace entry %q invoked %q, but the plan of the same program at the same catalog_version has step %q invoking %q: execute only the operations of the validated program", id, got.Text(), types.BaseID(id), want)
		}
	}
}

func checkCallPlanCallsMissing(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	reported := map[*source.Node]bool{}
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		v, plan := m.PlanOf(c)
		steps := callPlanSteps(plan)
		if v == nil || steps == nil {
			continue
		}
		cf := callControlFlow(plan)
		for _, e := range rulekit.Unprefixed(c.StructuredContent.Path("trace", "steps").Objects()) {
			id, _ := e.Str("id")
			base := types.BaseID(id)
			s := steps[base]
			target := e.Get("calls")
			if s == nil || s.Has("calls") || cf[base] || !target.IsString() || reported[s] {
				continue
			}
			reported[s] = true
			p.With(lint.Also{Node: target, Note: "the trace entry of the same program that invokes it"}).ReportMissing(s, "plan step %q has no calls, but the trace of the same program at the same catalog_version shows it invoking %q: an invoking step names its entry in calls", base, target.Text())
		}
	}
}

func checkCallPlanCallsUnlisted(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	listed := rulekit.ByCatalog(rulekit.CompleteListings(p.Snap.Calls))
	refs := callProgramRefs(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpValidate) {
		cv, ok := c.StructuredContent.Str("catalog_version")
		if !ok || c.Lang == nil || !rulekit.Accepted(c) {
			continue
		}
		l, ok := listed[rulekit.ListingKey{Lang: c.Lang, CatalogVersion: cv}]
		// A write between the listing and the validate call may have
		// added the entry without moving the token: that fault would be
		// the token's, not this validation's.
		if !ok || !m.ReadsBetween(c, l.Pages[0]) || !m.ReadsBetween(c, l.Pages[len(l.Pages)-1]) {
			continue
		}
		for _, s := range c.StructuredContent.Path("plan", "steps").Objects() {
			// A promoted-program reference "resolves through the catalog"
			// (Part II §3.5) and need not be its entry's id.
			if target := s.Get("calls"); target.IsString() && !l.IDs[target.Text()] && !refs[c.Lang][target.Text()] {
				p.Report(target, "plan step %s calls %q, which the complete listing of %s%s at the same catalog_version %q does not contain: validate against the current catalog, and list every entry (or return next_cursor)", callStepLabel(s), target.Text(), c.Lang.Label(), l.PagesNote(), cv)
			}
		}
	}
}

// callProgramRefs returns, per Language, the program_ref values its
// recorded execute requests sent.
func callProgramRefs(s *snapshot.Snapshot) map[*snapshot.Language]map[string]bool {
	out := map[*snapshot.Language]map[string]bool{}
	for _, c := range s.CallsOf(snapshot.OpExecute) {
		if ref := rulekit.Present(c, types.ArgProgramRef); ref.IsString() && c.Lang != nil {
			if out[c.Lang] == nil {
				out[c.Lang] = map[string]bool{}
			}
			out[c.Lang][ref.Text()] = true
		}
	}
	return out
}

func checkCallValidateVersionStale(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	calls := p.Snap.Calls
	for i, c := range calls {
		got, ok := rulekit.CatalogVersion(c)
		if c.Op != snapshot.OpValidate || !ok || c.Lang == nil || !c.Succeeded() {
			continue
		}
		// The nearest catalog response on each side, with only reads
		// between it and the validate call.
		near := func(step int) (string, bool) {
			for j := i + step; j >= 0 && j < len(calls); j += step {
				d := calls[j]
				if m.Writes(d) {
					return "", false
				}
				if cv, ok := rulekit.CatalogVersion(d); ok && d.Op == snapshot.OpCatalog && d.Lang == c.Lang {
					return cv, true
				}
			}
			return "", false
		}
		before, ok1 := near(-1)
		after, ok2 := near(1)
		if ok1 && ok2 && before == after && got != before {
			p.Report(c.StructuredContent.Get("catalog_version"), "%s answered catalog_version %q, but the catalog of %s reported %q just before and just after it, with only reads in between: validate against the current catalog and return its token", c.Name, got, c.Lang.Label(), before)
		}
	}
}

// callLoopDepth returns how many loops enclose a plan step: its loop's
// depth plus one, or for an arm step its branch's depth. ok is false when
// the chain names a step the plan lacks or loops back on itself.
func callLoopDepth(steps map[string]*source.Node, id string) (int, bool) {
	depth := 0
	for hops := 0; hops <= len(steps); hops++ {
		s := steps[id]
		if s == nil {
			return 0, false
		}
		if l, ok := s.Str("loop"); ok {
			depth++
			id = l
			continue
		}
		if b, ok := s.Path("arm", "branch").Value().(string); ok {
			id = b
			continue
		}
		return depth, true
	}
	return 0, false
}

func checkCallTraceStepIDContext(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.Calls {
		if (c.Op != snapshot.OpExecute && c.Op != snapshot.OpTraceFetch) || !c.Succeeded() || c.Lang == nil {
			continue
		}
		expanded := false
		if ts, _ := c.Lang.Node.Str("trace_subprogram"); ts == "expanded" {
			expanded = true
		}
		seen := map[string]bool{}
		for _, e := range c.StructuredContent.Path("trace", "steps").Objects() {
			idn := e.Get("id")
			if !idn.IsString() {
				continue
			}
			id := idn.Text()
			if caller, ok := rulekit.TracePrefix(id); ok {
				switch {
				case !expanded:
					p.Report(idn, "trace entry %q carries a sub-program prefix, but %s does not declare trace_subprogram \"expanded\": an opaque sub-program call is one entry, without its internal steps", id, c.Lang.Label())
				case !seen[caller]:
					p.Report(idn, "trace entry %q is prefixed with %q, which names no earlier entry of this trace: an expanded entry sits below the entry of the call that ran it", id, caller)
				}
			}
			seen[id] = true
		}
		_, plan := m.PlanOf(c)
		steps := callPlanSteps(plan)
		if steps == nil {
			continue
		}
		for _, e := range rulekit.Unprefixed(c.StructuredContent.Path("trace", "steps").Objects()) {
			id, _ := e.Str("id")
			want, ok := callLoopDepth(steps, types.BaseID(id))
			if got := strings.Count(id, "#"); ok && got != want {
				p.Report(e.Get("id"), "trace entry %q is qualified for %d enclosing loops (one #n each), but the plan of the same program places step %q inside %d: append one #n per enclosing loop, and none outside loops", id, got, types.BaseID(id), want)
			}
		}
	}
}

func checkCallExecuteRunsInvalid(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	calls := p.Snap.Calls
	for i, v := range calls {
		if v.Op != snapshot.OpValidate || !v.Succeeded() || v.Program == nil || v.Lang == nil {
			continue
		}
		if valid := v.StructuredContent.Get("valid"); !valid.IsBool() || valid.Truth() || !callHasError(v) {
			continue
		}
		cv, hasCV := v.StructuredContent.Str("catalog_version")
		for _, x := range calls[i+1:] {
			if x.Lang != v.Lang {
				continue
			}
			if other, ok := rulekit.CatalogVersion(x); ok && (!hasCV || other != cv) {
				break // the catalog may have moved: validity may differ
			}
			if x.Op != snapshot.OpExecute || x.ProgramArg != v.ProgramArg || !source.Equal(x.Program, v.Program) ||
				!source.Equal(rulekit.Present(x, types.ArgContext), rulekit.Present(v, types.ArgContext)) {
				continue
			}
			// Re-validation runs against the catalog current at execute:
			// a Run that started under validate's own token had the
			// Server's word that it had not moved; without a token, a
			// write between them (a tool installing the missing entry)
			// may have made the program valid.
			tok := x.Arg(types.ArgExpectedCatalogVersion)
			if tok.IsString() && (!hasCV || tok.Text() != cv) || !tok.IsString() && !m.ReadsBetween(v, x) {
				continue
			}
			if m.NewRun(x) {
				p.Report(x.Program, "%s ran a program that %s found invalid with the same context and catalog_version: re-validate inline programs exactly as validate does and refuse with outcome validation_error", x.Name, v.Name)
			}
		}
	}
}

// callHasError reports whether a validate response carries an
// error-severity diagnostic: a valid: false without one is a defect of its
// own (result-valid-mismatch), not evidence that the program is invalid.
func callHasError(v *snapshot.Call) bool {
	for _, d := range v.StructuredContent.Get("diagnostics").Objects() {
		if sev, _ := d.Str("severity"); sev == "error" {
			return true
		}
	}
	return false
}
