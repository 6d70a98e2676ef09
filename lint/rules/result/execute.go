package result

import (
	"fmt"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func executeRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-outcome-error", Severity: lint.Error, Spec: "Part II §5.7",
			Quote:        "| `error` | string or null | M | Human-readable failure summary. MUST be `null` when `ok` is true and non-null when `ok` is false. |",
			Keyword:      "MUST",
			Summary:      "An outcome's error is not null exactly when ok is true.",
			Doc:          "An outcome's error is a human-readable failure summary that MUST be null when ok is true and non-null when ok is false (Part II §5.7). Run outcomes and the step outcomes of a trace are checked. A success with an error message, or a failure without one, leaves an agent unsure whether the Run worked.",
			Bad:          `{"ok": true, "status": "success", "error": "none"}`,
			Good:         `{"ok": true, "status": "success", "error": null}`,
			Scope:        "The Run outcome of every recorded execute and trace-fetch result that carries one, and the outcome of each of its trace steps (Part II §5.7: each trace step carries an outcome with the same structure); every Language, every manifest version.",
			NoExceptions: "Part II §5.7, §5.8 (trace step), §6.5 (execute response), §6.5.6 and §6.6 were read: the error field is M in the outcome table, step outcomes share its structure, and no sentence lets a successful outcome carry an error or a failed one omit it; an engine-defined status changes neither.",
			Check:        checkResultOutcomeError,
		},
		&lint.Rule{
			ID: "result-outcome-reserved-status", Severity: lint.Error, Spec: "Part II §5.7, §6.5.6",
			Quote:        "The Server MUST use: - `success`; - `validation_error`; - `catalog_drift`; - `promotion_drift` exactly for the conditions defined above.",
			Keyword:      "MUST",
			Summary:      "A Run outcome's reserved status carries the wrong ok value.",
			Doc:          "The reserved statuses have fixed ok values: success is ok true; validation_error, catalog_drift and promotion_drift are refusals with ok false, and the Server MUST use those four exactly for the conditions the table defines (Part II §5.7); partial and error are a started Run that did not complete, which MUST return ok false (§6.5.6). Clients branch on the pair; a contradiction makes them either report a failure as success or retry a Run that completed. Step outcomes are result-step-outcome-reserved-status's warning: the sentence that gives reserved statuses their meaning for a step carries no keyword.",
			Bad:          `{"ok": true, "status": "partial", "error": null}`,
			Good:         `{"ok": false, "status": "partial", "error": "stopped after step b"}`,
			Scope:        "The Run outcome of every recorded execute and trace-fetch result, when its status is one of the six reserved statuses; engine-defined statuses (whose ok the closed-sets guide states) and step outcomes are not judged; every manifest version.",
			NoExceptions: "Part II §1.3, §3.6, §5.7 (reserved statuses; engine-defined statuses for a failed started Run), §6.5.6 and §11.1 were read: an engine-defined or later-minor status is outside the reserved set and not judged here, and no sentence lets a reserved status carry the other ok value.",
			Check:        checkResultReservedStatus,
		},
		&lint.Rule{
			ID: "result-step-outcome-reserved-status", Severity: lint.Warning, Spec: "Part II §5.7", Policy: lint.PolicyContradiction,
			Quote:   "Reserved statuses retain their specified meanings when used for a step.",
			Summary: "A trace step's outcome carries a reserved status with the wrong ok value.",
			Doc:     "Each trace step carries an outcome with the same structure as the Run's, and reserved statuses retain their specified meanings when used for a step (Part II §5.7): success is ok true, the others ok false. The sentence carries no keyword, so a contradiction is a warning; a Model verifying its mission against the trace reads a step that says success and ok false either way round.",
			Bad:     `{"id": "heat", "outcome": {"ok": false, "status": "success", "error": "failed"}}`,
			Good:    `{"id": "heat", "outcome": {"ok": true, "status": "success", "error": null}}`,
			Check:   checkResultStepReservedStatus,
		},
		&lint.Rule{
			ID: "result-validation-error-diagnostics", Severity: lint.Error, Spec: "Part II §6.5, §6.5.2",
			Quote:        "| `diagnostics` | array | M when status is `validation_error` | Diagnostics that caused refusal. |",
			Keyword:      "MUST",
			Summary:      "An execute result refused with validation_error carries no diagnostics.",
			Doc:          "diagnostics is required when the outcome status is validation_error (Part II §6.5): they are what caused the refusal, with input_binding or context_binding codes for input and context failures. Without them the agent knows its Run was refused but not why, and cannot repair the program or input.",
			Bad:          `{"run_id": "r1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid program"}}`,
			Good:         `{"run_id": "r1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid program"}, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}`,
			Scope:        "Recorded execute results (not trace fetches) whose Run outcome status is validation_error; every Language, every manifest version.",
			NoExceptions: "Part II §5.5, §6.5, §6.5.2 (steps 3 and 4: attach the diagnostics; an input_binding or context_binding diagnostic) and §6.5.6 were read: a validation_error refusal always carries the diagnostics that caused it, and refused Runs are never recorded for replay, so no replay returns one. Part II §1.4 (absent or empty) covers OPTIONAL arrays only; diagnostics is M here.",
			Check:        checkResultValidationErrorDiagnostics,
		},
		&lint.Rule{
			ID: "result-refused-run-trace", Severity: lint.Error, Spec: "Part II §3.6, §6.5",
			Quote:        "| `trace` | object | Conditional | MUST be present for a started Run at effective level `summary` or `full`. It MUST otherwise be absent. |",
			Keyword:      "MUST",
			Summary:      "An execute result refusing the Run (validation_error, catalog_drift, promotion_drift) carries a trace.",
			Doc:          "A refused Run never started: no step executed and nothing is retained, so trace MUST be absent (Part II §3.6, §6.5: a trace is present only for a started Run). A trace on a refusal suggests that something ran, which misleads Hosts auditing side effects. A trace-fetch result with a refusal status is call-refused-run-fetched's: the fix there is to answer not_found, not to drop the trace.",
			Bad:          `{"run_id": "r1", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}, "trace": {"run_id": "r1", "level": "full", "steps": []}}`,
			Good:         `{"run_id": "r1", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}`,
			Scope:        "Recorded execute results whose Run outcome status is one of the three reserved refusals (validation_error, catalog_drift, promotion_drift); trace-fetch results are call-refused-run-fetched's.",
			NoExceptions: "Part II §3.6, §5.8.1, §6.5 (trace: MUST otherwise be absent), §6.5.2 and §6.5.6 were read: a refused Run never started, a trace is present only for a started Run, and refused Runs are never recorded for replay, so no replay carries one.",
			Check:        checkResultRefusedTrace,
		},
		&lint.Rule{
			ID: "result-trace-level-exceeded", Severity: lint.Error, Spec: "Part II §5.8.1, §6.6",
			Quote:   "The effective trace level is the lower of: - the requested level; - the declared ceiling. [...] The response MUST state the effective level in `trace.level`.",
			Keyword: "MUST",
			Summary: "A trace's level is above what the request asked for or the Language's ceiling.",
			Doc:     "The effective trace level is the lower of the requested trace_level and the manifest's declared ceiling (Part II §5.8.1); trace_level none asks for no trace at all, and the fetch door never returns more than requested (§6.6). A trace above the request leaks step inputs the client chose not to receive; one above the ceiling shows the manifest understates what the Server records.",
			Bad:     `request {"trace_level": "summary"}   response trace {"level": "full", ...}`,
			Good:    `request {"trace_level": "summary"}   response trace {"level": "summary", ...}`,
			Scope:   "The trace of every recorded execute result that is a Run of its own, against its request's trace_level and its Language's declared ceiling; the trace of every trace-fetch result, against its request's trace_level and the ceiling. A replay (the recording model's: a repeat of an earlier Run's idempotency_key, runnable and input) is not judged, nor a call whose request carries a member a later minor added.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.6", Quote: "The trace is returned at the level at which it was originally recorded.", Fixture: "lookalikes/good-lookalike-trace-levels-below-ceiling"},
				{Spec: "Part II §6.5", Quote: "`store: true` combined with an effective trace level of `\"none\"` is therefore valid: the response carries no inline trace, and the Engine MUST still record the trace at its declared trace capability level so it can be fetched later.", Fixture: "lookalikes/good-lookalike-store-true-trace-none"},
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
				{Spec: "Part II §6.5.6", Quote: "A repeated request returns the recorded result of the first Run.", Fixture: "good-lookalike-replay-other-trace-levels"},
			},
			Check: checkResultTraceLevel,
		},
		&lint.Rule{
			ID: "result-trace-input-at-summary", Severity: lint.Error, Spec: "Part II §5.8, §5.8.1",
			Quote:        "| `input` | any | Conditional | MUST be present at `full` for non-control-flow steps. MUST be absent at `summary` and for control-flow steps. |",
			Keyword:      "MUST",
			Summary:      "A step of a summary-level trace carries input.",
			Doc:          "At summary level a trace step carries id, outcome, optional t_ms, optional truncated output and decisions; input MUST be absent (Part II §5.8). Clients request summary to keep traces small and to avoid receiving inputs; a summary trace with inputs defeats both.",
			Bad:          `{"level": "summary", "steps": [{"id": "a", "input": {"zone": "lobby"}, "outcome": {"ok": true, "status": "success", "error": null}}]}`,
			Good:         `{"level": "summary", "steps": [{"id": "a", "outcome": {"ok": true, "status": "success", "error": null}}]}`,
			Scope:        "Every step of a recorded trace (inline on an execute result or returned by the trace fetch door) whose level is summary; expanded sub-program entries included; every Language, every manifest version.",
			NoExceptions: "Part II §5.8 (trace step input: MUST be absent at summary), §5.8.1 (summary omits step input), §5.8.3 and §6.6 were read: no sentence lets a summary trace carry step input; the truncated form is allowed for output only.",
			Check:        checkResultTraceSummaryInput,
		},
		&lint.Rule{
			ID: "result-trace-control-flow", Severity: lint.Error, Spec: "Part II §5.8, §5.8.2",
			Quote:   "| `input` | any | Conditional | MUST be present at `full` for non-control-flow steps. MUST be absent at `summary` and for control-flow steps. |",
			Keyword: "MUST",
			Summary: "A control-flow trace entry lacks decisions, or carries input or output.",
			Doc:     "A branch or loop appears as its own trace entry carrying its decisions (the arm taken, each continue or exit), and input and output MUST be absent from control-flow entries (Part II §5.8, §5.8.2). An entry is control flow when it carries decisions, or when a recorded plan of the same program names its step in arm.branch or loop. Without decisions a Host cannot check which arm ran against the plan.",
			Bad:     `{"id": "check", "outcome": {"ok": true, "status": "success", "error": null}}   (plan: steps with arm.branch "check")`,
			Good:    `{"id": "check", "outcome": {"ok": true, "status": "success", "error": null}, "decisions": [{"at": "check", "took": "cold", "because": "18 < 20"}]}`,
			Scope:   "Every step of a recorded trace, inline or fetched: one carrying decisions (a non-empty array, or a summarized value; an empty array records none) is held to having no input or output. Whether a step lacking decisions is a branch or loop is read from the plan the recording model pairs with an immediate Run or test run of its own (no replay: same Language, program, context and catalog_version), and only for its unprefixed entries.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8", Quote: "an Engine MAY use a summarized form documented in the closed-sets guide.", Fixture: "good-lookalike-summarized-loop-decisions"},
				{Spec: "Part II §5.8.3", Quote: "Internal expanded entries do not have corresponding steps in the caller's plan.", Fixture: "good-expanded"},
				{Spec: "Part II §5.8.4", Quote: "the body plan is not matched against the installation trace;", Fixture: "good-deploy"},
				{Spec: "Part II §1.4", Quote: "For every OPTIONAL array-valued field, an absent field and an empty array have identical meaning.", Fixture: "good-empty-decisions"},
			},
			Check: checkResultTraceControlFlow,
		},
		&lint.Rule{
			ID: "result-trace-step-id", Severity: lint.Error, Spec: "Part II §5.8, §5.8.2",
			Quote:        "| `id` | string | M | Trace step identifier. |",
			Keyword:      "MUST",
			Summary:      "A trace step identifier does not follow the iteration and expansion grammar.",
			Doc:          "A trace step identifier is the program step identifier, followed by #n for each enclosing loop (1-based, outermost first), prefixed by the calling entry's identifier and / for an expanded sub-program: step, step#2#4, call1#2/body#3 (Part II §5.8.2). Clients recover the base identifier by taking the segment after the last / and dropping # suffixes; an identifier off this grammar breaks plan-trace matching.",
			Bad:          `{"id": "body#0", ...}`,
			Good:         `{"id": "body#1", ...}`,
			Scope:        "The id of every step of a recorded trace, inline or fetched, expanded sub-program entries included; every Language, every manifest version.",
			NoExceptions: "Part II §3.4 (program step identifiers MUST NOT contain # or /, reserved for trace identity) and §5.8.2 (identity grammar) were read: every # suffix is therefore a 1-based iteration number and every / an expansion prefix after a complete qualified identifier; no sentence allows another form, and a Language without native identifiers generates them under §3.4, with the same reserved characters.",
			Check:        checkResultTraceStepID,
		},
		&lint.Rule{
			ID: "result-plan-trace-correspondence", Severity: lint.Error, Spec: "Part II §5.8.4",
			Quote:   "The trace MUST correspond to the plan.",
			Keyword: "MUST",
			Summary: "An immediate Run's trace does not correspond to the recorded plan of the same program.",
			Doc:     "For an immediate Run or test run, the trace MUST correspond to the plan at a given catalog_version (Part II §5.8.4), so the linter pairs a Run only with the nearest earlier valid validate of the same program and context whose catalog_version is the Run's expected_catalog_version (or, without one, with nothing between them that may have changed the catalog): on success every expected plan step appears (steps outside arms and loops, the steps of each selected arm, the body of each loop that iterated, which a continue decision or a body step in the trace shows), matched by base identifier over unprefixed entries; for a started Run that did not complete, every unprefixed entry that no plan may omit (a branch, a loop, the invocation of an entry the recorded catalog says is not read-only) maps to an expected step, since a plan MAY omit steps with no externally visible effect (§5.6); and in all cases the steps of arms not selected are absent. A replay returns the original Run's result without further processing (§6.5.2), so it is not paired. A Host that approved the plan relies on this match.",
			Bad:     `plan steps [{"id": "a"}, {"id": "b"}]   success trace steps [{"id": "a"}]`,
			Good:    `plan steps [{"id": "a"}, {"id": "b"}]   success trace steps [{"id": "a"}, {"id": "b"}]`,
			Scope:   "The unprefixed trace entries of an immediate Run or test run of its own (no replay), recorded inline on its execute result, against the plan the recording model pairs it with: the nearest earlier accepted validate of the same Language, program and context, whose catalog_version is the Run's expected_catalog_version, or, without a token, with only reads and no other catalog_version between them. Presence of every expected step binds a Run with status success; mapping to the expected set binds a started Run with ok false, and only for entries no plan may omit (branches and loops, and invocations of entries the recorded catalog says are not read-only); absence of unselected arms binds every Run.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8.3", Quote: "Internal expanded entries do not have corresponding steps in the caller's plan.", Fixture: "lookalikes/good-lookalike-subprogram-expanded"},
				{Spec: "Part II §5.8.3", Quote: "The call appears as one trace entry. The sub-program's internal steps are not emitted.", Fixture: "lookalikes/good-lookalike-subprogram-opaque"},
				{Spec: "Part II §5.8.4", Quote: "body-plan correspondence is checked against `test_run` traces where `execute.test_run` is declared.", Fixture: "lookalikes/good-lookalike-deploy-test-run"},
				{Spec: "Part II §5.8.4", Quote: "Correspondence is evaluated only over unprefixed trace entries: entries whose identifiers do not contain /.", Fixture: "good"},
				{Spec: "Part II §5.8.4", Quote: "expected steps not yet reached MAY be absent;", Fixture: "good-partial"},
				{Spec: "Part II §5.6", Quote: "steps with no externally visible effect, such as pure transformations, MAY be omitted.", Fixture: "good-partial-omittable"},
				{Spec: "Part II §5.8.2", Quote: "MAY instead use an Engine-defined summarized decision representation documented in the closed-sets guide.", Fixture: "good-loop-summarized"},
				{Spec: "Part II §5.8.4", Quote: "the body plan is not matched against the installation trace;", Fixture: "good-deploy"},
				{Spec: "Part II §6.4", Quote: "The context field exists for Languages whose validation depends on declared external bindings, such as types or variables required for semantic checking.", Fixture: "good-other-context"},
			},
			Check: checkResultPlanTrace,
		},
	}
}

// resultRuns returns the execute and trace-fetch results that carry a Run.
func resultRuns(calls []*rulekit.Result) []*rulekit.Result {
	var out []*rulekit.Result
	for _, rc := range calls {
		if (rc.Op == rulekit.OpExecute || rc.Op == rulekit.OpTraceFetch) && !rc.RequestError && rc.Content.Get("outcome").IsObject() {
			out = append(out, rc)
		}
	}
	return out
}

// resultOutcomes returns the Run outcome and every trace step outcome.
func resultOutcomes(rc *rulekit.Result) []*source.Node {
	out := []*source.Node{rc.Content.Get("outcome")}
	for _, s := range rc.Content.Path("trace", "steps").Objects() {
		if o := s.Get("outcome"); o.IsObject() {
			out = append(out, o)
		}
	}
	return out
}

func resultStatus(rc *rulekit.Result) types.OutcomeStatus {
	st, _ := rc.Content.Path("outcome", "status").Value().(string)
	return types.OutcomeStatus(st)
}

func checkResultOutcomeError(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		for _, o := range resultOutcomes(rc) {
			ok, e := o.Get("ok"), o.Get("error")
			if !ok.IsBool() {
				continue
			}
			switch {
			case e == nil:
				p.ReportMissing(o, "this outcome has no error member; add \"error\": %s", map[bool]string{true: "null (ok is true)", false: "a short failure summary (ok is false)"}[ok.Truth()])
			case ok.Truth() && !e.IsNull():
				p.Report(e, "ok is true, so error must be null, not %s", rulekit.QuoteJSON(e))
			case !ok.Truth() && e.IsNull():
				p.Report(e, "ok is false, so error must be a failure summary, not null")
			}
		}
	}
}

func checkResultReservedStatus(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		resultReservedOK(p, rc.Content.Get("outcome"))
	}
}

func checkResultStepReservedStatus(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		for _, o := range resultOutcomes(rc)[1:] {
			resultReservedOK(p, o)
		}
	}
}

// resultReservedOK reports an outcome whose reserved status carries the
// other ok value.
func resultReservedOK(p *lint.Pass, o *source.Node) {
	ok, st := o.Get("ok"), o.Get("status")
	if !ok.IsBool() || !st.IsString() {
		return
	}
	if want, reserved := types.OutcomeStatus(st.Text()).ReservedOK(); reserved && want != ok.Truth() {
		p.Report(ok, "reserved status %q always has ok %t, not %t; fix ok, or use the status that matches what happened", st.Text(), want, ok.Truth())
	}
}

func checkResultValidationErrorDiagnostics(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		if rc.Op != rulekit.OpExecute || resultStatus(rc) != types.StatusValidationError {
			continue
		}
		switch d := rc.Content.Get("diagnostics"); {
		case d == nil:
			p.ReportMissing(rc.Content, "the Run was refused with validation_error but the result has no diagnostics; include the diagnostics that caused the refusal")
		case d.IsArray() && len(d.Kids()) == 0:
			p.Report(d, "the Run was refused with validation_error but diagnostics is empty; include the diagnostics that caused the refusal")
		}
	}
}

func checkResultRefusedTrace(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		// On the fetch door the fault is the answer itself, not its trace:
		// call-refused-run-fetched asks for not_found there.
		if st := resultStatus(rc); rc.Op == rulekit.OpExecute && st.IsRefusal() && rc.Content.Has("trace") {
			p.ReportKey(rc.Content.Get("trace"), "the Run was refused (%s) and never started, so it has no trace; drop the trace member", st)
		}
	}
}

func checkResultTraceLevel(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		// A replay carries the original's trace, at the level the original
		// asked for, whatever level the repeat asks.
		if !judgedRun(p, rc) {
			continue
		}
		trace := rc.Content.Get("trace")
		req, _ := rc.Arguments.Str(types.ArgTraceLevel)
		if rc.Op == rulekit.OpExecute && req == string(types.TraceNone) && trace != nil {
			p.ReportKey(trace, "the request asked for trace_level none, so the response carries no trace; drop it (store governs whether it can be fetched later)")
			continue
		}
		level := trace.Get("level")
		if !level.IsString() || !types.TraceLevel(level.Text()).IsKnown() {
			continue
		}
		got := types.TraceLevel(level.Text())
		if r := types.TraceLevel(req); r.IsKnown() && got.Rank() > r.Rank() {
			p.Report(level, "the request asked for trace_level %q but the trace is %q; return the lower of the requested level and the ceiling", req, got)
			continue
		}
		if rc.Lang == nil {
			continue
		}
		if ceil, ok := rc.Lang.Node.Str("trace"); ok && types.TraceLevel(ceil).IsKnown() && got.Rank() > types.TraceLevel(ceil).Rank() {
			p.Report(level, "the trace is %q but Language %s declares the ceiling %q; declare \"trace\": %q in the manifest or return at most %q", got, rc.Lang.Name, ceil, got, ceil)
		}
	}
}

func checkResultTraceSummaryInput(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		if lv, _ := rc.Content.Path("trace", "level").Value().(string); lv != string(types.TraceSummary) {
			continue
		}
		for _, s := range rc.Content.Path("trace", "steps").Objects() {
			if in := s.Get("input"); in != nil {
				p.ReportKey(in, "this trace is at summary level, which omits step input; drop input here or return a full trace")
			}
		}
	}
}

// resultPlanOf returns the plan of the recorded validate that describes
// the Run an execute result started, from the recording model: an
// immediate Run or test run of its own (no replay, no deploy Run's
// installation trace), paired with the nearest earlier validate of the
// same Language, program and context at the catalog_version it ran under
// (Part II §5.8.4 "at a given catalog_version"; the plan depends on the
// context too, §6.4). Nil when nothing pairs.
func resultPlanOf(p *lint.Pass, rc *rulekit.Result) *source.Node {
	_, pl := rulekit.Of(p.Snap).PlanOf(rc.Call)
	return pl
}

func checkResultTraceControlFlow(p *lint.Pass) {
	calls := results(p)
	for _, rc := range resultRuns(calls) {
		// The plan names the branches and loops of the Run's own program:
		// only an immediate Run or test run is paired with it (a deploy
		// Run's trace describes installation, §5.8.4), and only unprefixed
		// entries are matched with it (internal expanded entries have no
		// step in the caller's plan, §5.8.3).
		cf := map[string]bool{}
		if pl := resultPlanOf(p, rc); pl != nil {
			cf = resultControlFlow(pl)
		}
		steps := rc.Content.Path("trace", "steps").Objects()
		for _, s := range steps {
			id, _ := s.Str("id")
			if resultDecides(s) {
				for _, k := range []string{"input", "output"} {
					if v := s.Get(k); v != nil {
						p.ReportKey(v, "trace entry %q carries decisions, so it is a control-flow entry, which has no %s; drop it", id, k)
					}
				}
			}
		}
		for _, s := range rulekit.Unprefixed(steps) {
			id, _ := s.Str("id")
			if cf[types.BaseID(id)] && !s.Has("decisions") {
				p.ReportMissing(s, "trace entry %q is the branch or loop %q of the recorded plan but carries no decisions; record the arm taken or each continue/exit", id, types.BaseID(id))
			}
		}
	}
}

// resultDecides reports whether a trace entry records decisions, which
// makes it a branch or loop: a non-empty decisions array, or another
// non-null value (an Engine's summarized form, §5.8.2). An empty array
// records none: on any other step decisions is no M member, and an absent
// and an empty optional array mean the same (Part II §1.4).
func resultDecides(e *source.Node) bool {
	d := e.Get("decisions")
	if d == nil || d.IsNull() {
		return false
	}
	return !d.IsArray() || len(d.Kids()) > 0
}

func checkResultTraceStepID(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		for _, s := range rc.Content.Path("trace", "steps").Objects() {
			if id := s.Get("id"); id.IsString() {
				if _, err := types.ParseStepID(id.Text()); err != nil {
					p.Report(id, "%v; write the program step id, #n per enclosing loop (n from 1), and caller-id/ for an expanded sub-program", err)
				}
			}
		}
	}
}

func checkResultPlanTrace(p *lint.Pass) {
	calls := results(p)
	effect := resultEffects(calls)
	for _, rc := range resultRuns(calls) {
		pl := resultPlanOf(p, rc)
		if pl == nil || !rc.Content.Get("trace").IsObject() {
			continue
		}
		status := resultStatus(rc)
		success := status == types.StatusSuccess
		// "For a started Run that did not complete": a failed Run that was
		// not refused. A Run whose engine-defined status says ok true is
		// neither case, and only the unselected-arm rule binds it.
		incomplete := !status.IsRefusal() && !rulekit.True(rc.Content.Path("outcome", "ok")) && rc.Content.Path("outcome", "ok").IsBool()
		steps := pl.Get("steps").Objects()
		trace := rc.Content.Get("trace")
		loopOf := map[string]string{} // plan step -> its innermost loop
		for _, s := range steps {
			if id, ok := s.Str("id"); ok {
				loopOf[id], _ = s.Str("loop")
			}
		}
		// Unprefixed entries only (§5.8.4), by base identifier.
		seen := map[string]bool{}
		took := map[string]map[string]bool{} // branch -> arm labels taken
		iterated := map[string]bool{}
		var entries []*source.Node
		for _, e := range rulekit.Unprefixed(trace.Get("steps").Objects()) {
			id, _ := e.Str("id")
			entries = append(entries, e)
			base := types.BaseID(id)
			seen[base] = true
			// A loop recorded at least one iteration when it took continue,
			// or when a step of its body ran: a loop MAY record its
			// decisions in a summarized form (§5.8.2), and a body that runs
			// before the first evaluation has no continue to record.
			if l := loopOf[base]; l != "" {
				iterated[l] = true
			}
			for _, d := range e.Get("decisions").Objects() {
				t, _ := d.Str("took")
				if took[base] == nil {
					took[base] = map[string]bool{}
				}
				took[base][t] = true
				if t == types.TookContinue {
					iterated[base] = true
				}
			}
		}
		expectedSet := map[string]bool{}
		for _, s := range steps {
			id, _ := s.Str("id")
			branch, inArm := s.Path("arm", "branch").Value().(string)
			label, _ := s.Path("arm", "label").Value().(string)
			loop, inLoop := s.Str("loop")
			var expected bool
			switch {
			case inArm:
				if seen[branch] && took[branch] != nil && !took[branch][label] && seen[id] {
					p.With(lint.Also{Node: s, Note: fmt.Sprintf("plan step %q of the recorded validate", id)}).Report(trace.Get("steps"), "plan step %q belongs to arm %q of branch %q, which the trace's decisions did not select, yet it appears in the trace; a trace must not run an arm that was not taken", id, label, branch)
				}
				expected = took[branch][label]
			case inLoop:
				expected = iterated[loop]
			default:
				expected = true
			}
			if expected {
				expectedSet[id] = true
			}
			if success && expected && id != "" && !seen[id] {
				p.With(lint.Also{Node: s, Note: fmt.Sprintf("plan step %q of the recorded validate", id)}).Report(trace.Get("steps"), "the Run succeeded but plan step %q (from the recorded validate of the same program) is not in the trace; every expected plan step must appear, by base identifier", id)
			}
		}
		if !incomplete {
			continue
		}
		// A started Run that did not complete: what did run must be
		// expected (§5.8.4). A plan MAY omit a step with no externally
		// visible effect (§5.6), so only an entry the plan could not omit
		// is held to it: a branch or loop, or a step invoking an entry the
		// recorded catalog says is not read-only.
		for _, e := range entries {
			id, _ := e.Str("id")
			if base := types.BaseID(id); !expectedSet[base] && resultUnomittable(e, effect[rc.Lang]) {
				p.With(lint.Also{Node: pl.Get("steps"), Note: "the steps of the recorded plan of the same program"}).Report(e.Get("id"), "trace entry %q of this incomplete Run maps to no expected step of the recorded plan of the same program; a Run may only execute what the validated plan contains", id)
			}
		}
	}
}

// resultEffects returns, per Language, the ids of the catalog entries
// that every recorded catalog answer describes as not read-only: invoking
// one makes a persistent or externally observable change (Part II §5.3).
func resultEffects(calls []*rulekit.Result) map[*snapshot.Language]map[string]bool {
	seen := map[*snapshot.Language]map[string]bool{}
	for _, rc := range calls {
		for _, e := range rulekit.Entries([]*rulekit.Result{rc}) {
			id, ok := e.Str("id")
			ro := e.Path("risk_hints", "readOnly")
			if !ok || !ro.IsBool() {
				continue
			}
			if seen[rc.Lang] == nil {
				seen[rc.Lang] = map[string]bool{}
			}
			was, known := seen[rc.Lang][id]
			seen[rc.Lang][id] = !ro.Truth() && (!known || was)
		}
	}
	return seen
}

// resultUnomittable reports whether a trace entry is a step no plan may
// omit: a branch or loop, which appear as plan steps of their own (§5.6),
// or the invocation of an entry known to have an effect.
func resultUnomittable(e *source.Node, effect map[string]bool) bool {
	if resultDecides(e) {
		return true
	}
	c, ok := e.Str("calls")
	return ok && effect[c]
}

func traceMissingRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "result-trace-missing", Severity: lint.Error, Spec: "Part II §5.8.1, §6.5, §6.5.6",
		Quote:   "| `trace` | object | Conditional | MUST be present for a started Run at effective level `summary` or `full`. It MUST otherwise be absent. |",
		Keyword: "MUST",
		Summary: "A started Run's execute result carries no trace although the effective trace level is summary or full.",
		Doc:     "The trace rides the execute response: it MUST be present for a started Run at effective level summary or full (Part II §6.5), including a Run that did not complete, which returns the trace of what ran so far (§6.5.6). The effective level is the requested trace_level capped by the Language's ceiling, and the ceiling when none was requested; only trace_level none and refused Runs go without. A missing trace leaves the Host nothing to check against the plan it approved.",
		Bad:     `request {"flow": {...}}   response {"run_id": "r1", "outcome": {"ok": true, "status": "success", "error": null}}   (trace ceiling full)`,
		Good:    `request {"flow": {...}, "trace_level": "none"}   response {"run_id": "r1", "outcome": {"ok": true, "status": "success", "error": null}}`,
		Scope:   "Recorded execute results of a Language with a known trace ceiling whose Run started (its status is not one of the three reserved refusals) and that are Runs of their own: a replay returns the original's result, trace or none. Under a manifest of a later minor an unknown status may be a refusal that minor reserved and is not judged, nor is a call whose request carries a member a later minor added.",
		Exceptions: []lint.Exception{
			{Spec: "Part II §3.6", Quote: "A Run is refused when its outcome is one of: - `validation_error`; - `catalog_drift`; - `promotion_drift`.", Fixture: "lookalikes/good-lookalike-promotion-drift"},
			{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			{Spec: "Part II §6.5.6", Quote: "At effective level none, only run_id and outcome are returned.", Fixture: "good"},
			{Spec: "Part II §11.1", Quote: "They may add: - OPTIONAL fields; - sub-features; - reserved values.", Fixture: "good-later-minor"},
		},
		Check: checkResultTraceMissing,
	}}
}

func checkResultTraceMissing(p *lint.Pass) {
	for _, rc := range resultRuns(results(p)) {
		// A replay carries what the original returned: no trace when the
		// original asked for none.
		if rc.Op != rulekit.OpExecute || rc.Content.Has("trace") || resultStatus(rc).IsRefusal() || rc.Lang == nil || !judgedRun(p, rc) {
			continue
		}
		// Under a later minor an unknown status may be a refusal that minor
		// reserved (§11.1), which carries no trace.
		if st := resultStatus(rc); !st.IsReserved() && laterMinor(p) {
			continue
		}
		ceil, _ := rc.Lang.Node.Str("trace")
		req, _ := rc.Arguments.Str(types.ArgTraceLevel)
		if !types.TraceLevel(ceil).IsKnown() || req != "" && !types.TraceLevel(req).IsKnownRequest(types.StageExecute) {
			continue
		}
		if eff := types.EffectiveTraceLevel(types.TraceLevel(req), types.TraceLevel(ceil)); eff != types.TraceNone {
			p.ReportMissing(rc.Content, "this Run started (status %q) at effective trace level %q but the result has no trace; return the trace inline, or the client must ask for trace_level none", resultStatus(rc), eff)
		}
	}
}
