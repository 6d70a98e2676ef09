package result

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func executeRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-outcome-error", Severity: lint.Error, Spec: "Part II §5.7",
			Quote:   "| `error` | string or null | M | Human-readable failure summary. MUST be `null` when `ok` is true and non-null when `ok` is false. |",
			Keyword: "MUST",
			Summary: "An outcome's error is not null exactly when ok is true.",
			Doc:     "An outcome's error is a human-readable failure summary that MUST be null when ok is true and non-null when ok is false (Part II §5.7). Run outcomes and the step outcomes of a trace are checked. A success with an error message, or a failure without one, leaves an agent unsure whether the Run worked.",
			Bad:     `{"ok": true, "status": "success", "error": "none"}`,
			Good:    `{"ok": true, "status": "success", "error": null}`,
			Check:   checkResultOutcomeError,
		},
		&lint.Rule{
			ID: "result-outcome-reserved-status", Severity: lint.Error, Spec: "Part II §5.7",
			Quote:   "It MUST NOT substitute engine-specific names for those conditions.",
			Keyword: "MUST NOT",
			Summary: "A reserved outcome status carries the wrong ok value.",
			Doc:     "The reserved statuses have fixed ok values: success is ok true; validation_error, catalog_drift, promotion_drift, partial and error are ok false (Part II §5.7), in Run outcomes and step outcomes alike. Clients branch on the pair; a contradiction makes them either report a failure as success or retry a Run that completed.",
			Bad:     `{"ok": true, "status": "partial", "error": null}`,
			Good:    `{"ok": false, "status": "partial", "error": "stopped after step b"}`,
			Check:   checkResultReservedStatus,
		},
		&lint.Rule{
			ID: "result-validation-error-diagnostics", Severity: lint.Error, Spec: "Part II §6.5, §6.5.2",
			Quote:   "| `diagnostics` | array | M when status is `validation_error` | Diagnostics that caused refusal. |",
			Keyword: "MUST",
			Summary: "An execute result refused with validation_error carries no diagnostics.",
			Doc:     "diagnostics is required when the outcome status is validation_error (Part II §6.5): they are what caused the refusal, with input_binding or context_binding codes for input and context failures. Without them the agent knows its Run was refused but not why, and cannot repair the program or input.",
			Bad:     `{"run_id": "r1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid program"}}`,
			Good:    `{"run_id": "r1", "outcome": {"ok": false, "status": "validation_error", "error": "invalid program"}, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}`,
			Check:   checkResultValidationErrorDiagnostics,
		},
		&lint.Rule{
			ID: "result-refused-run-trace", Severity: lint.Error, Spec: "Part II §3.6, §6.5",
			Quote:   "| `trace` | object | Conditional | MUST be present for a started Run at effective level `summary` or `full`. It MUST otherwise be absent. |",
			Keyword: "MUST",
			Summary: "An execute result refusing the Run (validation_error, catalog_drift, promotion_drift) carries a trace.",
			Doc:     "A refused Run never started: no step executed and nothing is retained, so trace MUST be absent (Part II §3.6, §6.5: a trace is present only for a started Run). A trace on a refusal suggests that something ran, which misleads Hosts auditing side effects. A trace-fetch result with a refusal status is call-refused-run-fetched's: the fix there is to answer not_found, not to drop the trace.",
			Bad:     `{"run_id": "r1", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}, "trace": {"run_id": "r1", "level": "full", "steps": []}}`,
			Good:    `{"run_id": "r1", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}`,
			Check:   checkResultRefusedTrace,
		},
		&lint.Rule{
			ID: "result-trace-level-exceeded", Severity: lint.Error, Spec: "Part II §5.8.1, §6.6",
			Quote:   "The effective trace level is the lower of: - the requested level; - the declared ceiling. [...] The response MUST state the effective level in `trace.level`.",
			Keyword: "MUST",
			Summary: "A trace's level is above what the request asked for or the Language's ceiling.",
			Doc:     "The effective trace level is the lower of the requested trace_level and the manifest's declared ceiling (Part II §5.8.1); trace_level none asks for no trace at all, and the fetch door never returns more than requested (§6.6). A trace above the request leaks step inputs the client chose not to receive; one above the ceiling shows the manifest understates what the Server records.",
			Bad:     `request {"trace_level": "summary"}   response trace {"level": "full", ...}`,
			Good:    `request {"trace_level": "summary"}   response trace {"level": "summary", ...}`,
			Check:   checkResultTraceLevel,
		},
		&lint.Rule{
			ID: "result-trace-input-at-summary", Severity: lint.Error, Spec: "Part II §5.8, §5.8.1",
			Quote:   "| `input` | any | Conditional | MUST be present at `full` for non-control-flow steps. MUST be absent at `summary` and for control-flow steps. |",
			Keyword: "MUST",
			Summary: "A step of a summary-level trace carries input.",
			Doc:     "At summary level a trace step carries id, outcome, optional t_ms, optional truncated output and decisions; input MUST be absent (Part II §5.8). Clients request summary to keep traces small and to avoid receiving inputs; a summary trace with inputs defeats both.",
			Bad:     `{"level": "summary", "steps": [{"id": "a", "input": {"zone": "lobby"}, "outcome": {"ok": true, "status": "success", "error": null}}]}`,
			Good:    `{"level": "summary", "steps": [{"id": "a", "outcome": {"ok": true, "status": "success", "error": null}}]}`,
			Check:   checkResultTraceSummaryInput,
		},
		&lint.Rule{
			ID: "result-trace-control-flow", Severity: lint.Error, Spec: "Part II §5.8, §5.8.2",
			Quote:   "| `input` | any | Conditional | MUST be present at `full` for non-control-flow steps. MUST be absent at `summary` and for control-flow steps. |",
			Keyword: "MUST",
			Summary: "A control-flow trace entry lacks decisions, or carries input or output.",
			Doc:     "A branch or loop appears as its own trace entry carrying its decisions (the arm taken, each continue or exit), and input and output MUST be absent from control-flow entries (Part II §5.8, §5.8.2). An entry is control flow when it carries decisions, or when a recorded plan of the same program names its step in arm.branch or loop. Without decisions a Host cannot check which arm ran against the plan.",
			Bad:     `{"id": "check", "outcome": {"ok": true, "status": "success", "error": null}}   (plan: steps with arm.branch "check")`,
			Good:    `{"id": "check", "outcome": {"ok": true, "status": "success", "error": null}, "decisions": [{"at": "check", "took": "cold", "because": "18 < 20"}]}`,
			Check:   checkResultTraceControlFlow,
		},
		&lint.Rule{
			ID: "result-trace-step-id", Severity: lint.Error, Spec: "Part II §5.8, §5.8.2",
			Quote:   "| `id` | string | M | Trace step identifier. |",
			Keyword: "MUST",
			Summary: "A trace step identifier does not follow the iteration and expansion grammar.",
			Doc:     "A trace step identifier is the program step identifier, followed by #n for each enclosing loop (1-based, outermost first), prefixed by the calling entry's identifier and / for an expanded sub-program: step, step#2#4, call1#2/body#3 (Part II §5.8.2). Clients recover the base identifier by taking the segment after the last / and dropping # suffixes; an identifier off this grammar breaks plan-trace matching.",
			Bad:     `{"id": "body#0", ...}`,
			Good:    `{"id": "body#1", ...}`,
			Check:   checkResultTraceStepID,
		},
		&lint.Rule{
			ID: "result-plan-trace-correspondence", Severity: lint.Error, Spec: "Part II §5.8.4",
			Quote:   "The trace MUST correspond to the plan.",
			Keyword: "MUST",
			Summary: "An immediate Run's trace does not correspond to the recorded plan of the same program.",
			Doc:     "For an immediate Run or test run, the trace MUST correspond to the plan at a given catalog_version (Part II §5.8.4), so the linter pairs a Run only with a recorded validate of the same program whose catalog_version equals the Run's expected_catalog_version (or where neither has one): on success every expected plan step appears (steps outside arms and loops, the steps of each selected arm, the body of each loop that iterated), matched by base identifier over unprefixed entries; for a started Run that did not complete, every unprefixed entry maps to an expected step; and in all cases the steps of arms not selected are absent. The linter checks this when the snapshot records a validate call of the same program with a plan and an immediate execute call of it. A Host that approved the plan relies on this match.",
			Bad:     `plan steps [{"id": "a"}, {"id": "b"}]   success trace steps [{"id": "a"}]`,
			Good:    `plan steps [{"id": "a"}, {"id": "b"}]   success trace steps [{"id": "a"}, {"id": "b"}]`,
			Check:   checkResultPlanTrace,
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
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
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
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
		for _, o := range resultOutcomes(rc) {
			ok, st := o.Get("ok"), o.Get("status")
			if !ok.IsBool() || !st.IsString() {
				continue
			}
			if want, reserved := types.OutcomeStatus(st.Text()).ReservedOK(); reserved && want != ok.Truth() {
				p.Report(ok, "reserved status %q always has ok %t, not %t; fix ok, or use the status that matches what happened", st.Text(), want, ok.Truth())
			}
		}
	}
}

func checkResultValidationErrorDiagnostics(p *lint.Pass) {
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
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
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
		// On the fetch door the fault is the answer itself, not its trace:
		// call-refused-run-fetched asks for not_found there.
		if st := resultStatus(rc); rc.Op == rulekit.OpExecute && st.IsRefusal() && rc.Content.Has("trace") {
			p.ReportKey(rc.Content.Get("trace"), "the Run was refused (%s) and never started, so it has no trace; drop the trace member", st)
		}
	}
}

func checkResultTraceLevel(p *lint.Pass) {
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
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
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
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

// resultSameProgram reports whether two program values are the same JSON.
func resultSameProgram(a, b *source.Node) bool {
	if a == nil || b == nil {
		return false
	}
	x, err1 := json.Marshal(a.Value())
	y, err2 := json.Marshal(b.Value())
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// resultPlanFor returns the plan of a recorded validate call of the same
// program in the same Language as run, or nil.
func resultPlanFor(calls []*rulekit.Result, run *rulekit.Result) *source.Node {
	// The trace corresponds to the plan "at a given catalog_version"
	// (§5.8.4): a plan is the Run's only when the validate result's
	// catalog_version is the one the execute request expected, or neither
	// names one. An unknown version on either side pairs nothing.
	expected, _ := run.Arguments.Str(types.ArgExpectedCatalogVersion)
	for _, rc := range calls {
		if cv, _ := rc.Content.Str("catalog_version"); cv != expected {
			continue
		}
		if rc.Op == rulekit.OpValidate && !rc.RequestError && rc.Lang == run.Lang && resultSameProgram(rc.Program, run.Program) {
			if pl := rc.Content.Get("plan"); pl.IsObject() {
				return pl
			}
		}
	}
	return nil
}

func checkResultTraceControlFlow(p *lint.Pass) {
	calls := rulekit.Results(p.Snap)
	for _, rc := range resultRuns(calls) {
		cf := map[string]bool{}
		if pl := resultPlanFor(calls, rc); pl != nil {
			cf = resultControlFlow(pl)
		}
		for _, s := range rc.Content.Path("trace", "steps").Objects() {
			id, _ := s.Str("id")
			if s.Has("decisions") {
				for _, k := range []string{"input", "output"} {
					if v := s.Get(k); v != nil {
						p.ReportKey(v, "trace entry %q carries decisions, so it is a control-flow entry, which has no %s; drop it", id, k)
					}
				}
				continue
			}
			if id != "" && cf[types.BaseID(id)] {
				p.ReportMissing(s, "trace entry %q is the branch or loop %q of the recorded plan but carries no decisions; record the arm taken or each continue/exit", id, types.BaseID(id))
			}
		}
	}
}

func checkResultTraceStepID(p *lint.Pass) {
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
		for _, s := range rc.Content.Path("trace", "steps").Objects() {
			if id := s.Get("id"); id.IsString() {
				if _, err := types.ParseStepID(id.Text()); err != nil {
					p.Report(id, "%v; write the program step id, #n per enclosing loop (n from 1), and caller-id/ for an expanded sub-program", err)
				}
			}
		}
	}
}

// resultImmediate reports whether a Run's trace describes the program's
// own execution, which plan correspondence applies to: an immediate Run or
// a test run, not a deploy Run's installation trace.
func resultImmediate(rc *rulekit.Result) bool {
	if rulekit.True(rc.Arguments.Get(types.ArgTestRun)) {
		return true
	}
	mode, _ := rc.Arguments.Str(types.ArgMode)
	exec := ""
	if rc.Lang != nil {
		exec, _ = rc.Lang.Node.Str("execution")
	}
	switch {
	case mode == string(types.RunDeploy):
		return false
	case exec == string(types.ExecutionDeploy):
		return false
	case exec == string(types.ExecutionBoth) && mode != string(types.RunImmediate):
		// "both" requires mode (Part III §4.4); without it the Run is not
		// known to be immediate.
		return false
	}
	return exec != ""
}

func checkResultPlanTrace(p *lint.Pass) {
	calls := rulekit.Results(p.Snap)
	for _, rc := range resultRuns(calls) {
		success := resultStatus(rc) == types.StatusSuccess
		if rc.Op != rulekit.OpExecute || !rc.Content.Get("trace").IsObject() || !resultImmediate(rc) {
			continue
		}
		pl := resultPlanFor(calls, rc)
		if pl == nil {
			continue
		}
		steps := pl.Get("steps").Objects()
		trace := rc.Content.Get("trace")
		// Unprefixed entries only (§5.8.4), by base identifier.
		seen := map[string]bool{}
		took := map[string]map[string]bool{} // branch -> arm labels taken
		iterated := map[string]bool{}
		for _, e := range trace.Get("steps").Objects() {
			id, _ := e.Str("id")
			if id == "" || strings.Contains(id, "/") {
				continue
			}
			base := types.BaseID(id)
			seen[base] = true
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
		if success {
			continue
		}
		// A started Run that did not complete: what did run must be
		// expected (§5.8.4).
		for _, e := range trace.Get("steps").Objects() {
			id, _ := e.Str("id")
			if id == "" || strings.Contains(id, "/") {
				continue
			}
			if base := types.BaseID(id); !expectedSet[base] {
				p.With(lint.Also{Node: pl.Get("steps"), Note: "the steps of the recorded plan of the same program"}).Report(e.Get("id"), "trace entry %q of this incomplete Run maps to no expected step of the recorded plan of the same program; a Run may only execute what the validated plan contains", id)
			}
		}
	}
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
		Check:   checkResultTraceMissing,
	}}
}

func checkResultTraceMissing(p *lint.Pass) {
	for _, rc := range resultRuns(rulekit.Results(p.Snap)) {
		if rc.Op != rulekit.OpExecute || rc.Content.Has("trace") || resultStatus(rc).IsRefusal() || rc.Lang == nil {
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
