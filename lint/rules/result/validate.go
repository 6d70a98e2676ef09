package result

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func validateRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-valid-mismatch", Severity: lint.Error, Spec: "Part II §5.5",
			Quote:   "A validation response MUST set `valid` exactly according to this rule.",
			Keyword: "MUST",
			Summary: "A validation result's valid does not match its diagnostics.",
			Doc:     "A program is valid if and only if validation returns no diagnostic with severity error; warnings do not make it invalid, and the response MUST set valid exactly by this rule (Part II §5.5). Agents and Hosts gate execution on valid: valid true with an error diagnostic lets a broken program through, valid false with only warnings blocks a good one.",
			Bad:     `{"valid": true, "diagnostics": [{"severity": "error", "code": "constraint", "path": "/steps/0", "message": "unknown action"}]}`,
			Good:    `{"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "/steps/0", "message": "unknown action"}]}`,
			Scope:   "Recorded validate results that are not request errors, with a boolean valid and a diagnostics array; under a manifest declaring a later minor, a result with a diagnostic severity 1.1 does not define is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.5", Quote: "Warnings do not make a program invalid.", Fixture: "lookalikes/good-lookalike-valid-with-warnings"},
				{Spec: "Part II §1.3", Quote: "These fallbacks allow later minor versions to introduce additional reserved values without making earlier Clients unsafe or incompatible.", Fixture: "good-later-minor"},
			},
			Check: checkResultValid,
		},
		&lint.Rule{
			ID: "result-plan-missing", Severity: lint.Error, Spec: "Part II §5.5, §6.4",
			Quote:        "When `plan` is declared and `valid` is true, the response MUST include a plan, even when warnings remain.",
			Keyword:      "MUST",
			Summary:      "A valid validation result of a Language declaring plan carries no plan.",
			Doc:          "When plan is declared and valid is true, the response MUST include a plan, even when warnings remain (Part II §5.5). The Host's risk gate operates on the plan's max_risk_hints; without it a Host must treat the program as maximally risky or refuse it.",
			Bad:          `{"valid": true, "diagnostics": [], "catalog_version": "cv1"}   (plan declared)`,
			Good:         `{"valid": true, "diagnostics": [], "catalog_version": "cv1", "plan": {"steps": [], "max_risk": "safe", "max_risk_hints": {"readOnly": true, "destructive": false, "openWorld": false}}}`,
			Scope:        "Recorded validate results that are not request errors and say valid true, of a Language whose effective capability map declares plan; every manifest version.",
			NoExceptions: "Part II §5.5 (validity), §5.6, §6.4 (diagnostics and plan) and §7.3 were read: a valid response of a Language declaring plan includes the plan even when warnings remain, for deploy Languages too (the plan describes the body); no sentence lets it go without one.",
			Check:        checkResultPlanMissing,
		},
		&lint.Rule{
			ID: "result-diagnostic-binding-code", Severity: lint.Info, Spec: "Part II §5.5, §6.4",
			Keyword: "",
			Summary: "A validate result carries an input_binding diagnostic, though validate has no input.",
			Doc:     "input_binding is reserved for failures of the execute request's input, and its path is a JSON Pointer into that input (Part II §5.5). A validate request carries only the program and context, so an input_binding diagnostic there points into nothing; a finding about the program uses a Language code or constraint, one about context uses context_binding.",
			Bad:     `{"valid": false, "diagnostics": [{"severity": "error", "code": "input_binding", "path": "/steps/0/args", "message": "bad argument"}]}`,
			Good:    `{"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "/steps/0/args", "message": "bad argument"}]}`,
			Check:   checkResultBindingCode,
		},
		&lint.Rule{
			ID: "result-diagnostic-path-invalid", Severity: lint.Error, Spec: "Part II §5.5",
			Quote:   "| `path` | locator | M | Location to which the finding applies. |",
			Keyword: "MUST",
			Summary: "A diagnostic path is not a locator of the Language's dialect.",
			Doc:     "With locator json-pointer, path is an RFC 6901 JSON Pointer string (\"\" for the whole document, \"/steps/1/capability\"); with text-range it is {start: {line, column}, end: {line, column}}. input_binding and context_binding paths are JSON Pointers into input and context in both dialects (Part II §5.5). A path of another form leaves an agent unable to find what to fix.",
			Bad:     `{"severity": "error", "code": "constraint", "path": "steps[1].capability", "message": "unknown capability"}   (locator json-pointer)`,
			Good:    `{"severity": "error", "code": "constraint", "path": "/steps/1/capability", "message": "unknown capability"}`,
			Scope:   "The path of every diagnostic of a recorded validate result, and of an execute result refused with validation_error, of a Language whose locator is json-pointer or text-range; input_binding and context_binding paths are held to JSON Pointer in both dialects. A Language whose locator is unknown or absent is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.5", Quote: "When `text-range` is used, the separate `range` field is not used.", Fixture: "good-lookalike-text-range-locator"},
				{Spec: "Part II §5.5", Quote: "`range` MAY identify the position inside that string.", Fixture: "good-lookalike-json-pointer-range-and-whole-document"},
				{Spec: "Part II §5.5", Quote: "`path` is `\"\"` when context is missing or was supplied unexpectedly;", Fixture: "lookalikes/good-lookalike-context-refused"},
				{Spec: "Part II §1.3", Quote: "Treat the conditioned capability as undeclared for that Language.", Fixture: "good-unknown-locator"},
			},
			Check: checkResultDiagnosticPaths,
		},
		&lint.Rule{
			ID: "result-diagnostic-path-unresolved", Severity: lint.Error, Spec: "Part II §5.5",
			Deprecated: true, ReplacedBy: []string{"result-diagnostic-path-invalid"},
			Summary: "No longer a finding: a diagnostic path is judged by its syntax alone (result-diagnostic-path-invalid).",
			Doc:     "Until now this rule reported a JSON Pointer diagnostic path whose parent was not in the recorded program, input or context. Part II §5.5 asks for a \"Location to which the finding applies\", not an existing value: a finding that a step lacks a whole member may point two or more levels into it (\"/steps/0/retry/count\" when retry is missing), and that is a valid location. pilotage-lint therefore judges only a path's syntax, in result-diagnostic-path-invalid; naming this ID in a config is still accepted and changes nothing.",
			Bad:     `program {"steps": [{"id": "a"}]}   diagnostic path "steps/0"`,
			Good:    `program {"steps": [{"id": "a"}]}   diagnostic path "/steps/3/do"`,
		},
		&lint.Rule{
			ID: "result-plan-max-risk", Severity: lint.Error, Spec: "Part II §5.3, §5.6",
			Quote:   "Wherever Pilotage computes the maximum risk of multiple steps, it MUST compute that maximum from `risk_hints`, not from engine-defined risk strings.",
			Keyword: "MUST",
			Summary: "A plan's max_risk_hints is not the aggregate of its steps' risk_hints.",
			Doc:     "max_risk_hints MUST be computed from the steps' risk_hints: readOnly is the AND of every step's, destructive and openWorld the OR (Part II §5.3), with a missing member counted as its risky value (§7.3). The Host gate acts on max_risk_hints alone, so an aggregate that understates a step's risk lets a destructive program run without approval.",
			Bad:     `{"steps": [{"id": "a", "risk": "write", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}}], "max_risk": "safe", "max_risk_hints": {"readOnly": true, "destructive": false, "openWorld": false}}`,
			Good:    `{"steps": [{"id": "a", "risk": "write", "risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}}], "max_risk": "write", "max_risk_hints": {"readOnly": false, "destructive": true, "openWorld": false}}`,
			Scope:   "The max_risk_hints of every plan of a recorded validate result, member by member, against the aggregate of its listed steps' risk_hints, where max_risk_hints and every step state that member as a boolean; only a maximum less restrictive than its listed steps is judged, since a plan MAY omit steps with no externally visible effect whose risk the maximum still counts.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.6", Quote: "steps with no externally visible effect, such as pure transformations, MAY be omitted.", Fixture: "good-omitted-step"},
			},
			Check: checkResultPlanMaxRisk,
		},
		&lint.Rule{
			ID: "result-plan-control-flow-calls", Severity: lint.Error, Spec: "Part II §5.6",
			Quote:        "The Engine MUST derive plans according to the following rules: - branches and loops appear as plan steps of their own; - control-flow steps do not carry `calls`;",
			Keyword:      "MUST",
			Summary:      "A plan step for a branch or loop carries calls.",
			Doc:          "Branches and loops appear as plan steps of their own, and control-flow steps do not carry calls (Part II §5.6): calls names the catalog entry an invoking step invokes. A step is a branch or loop when other steps name it in arm.branch or loop. A calls member on it makes Hosts count an invocation that never happens and breaks plan-trace matching.",
			Bad:          `[{"id": "check", "calls": "thermostat.read", ...}, {"id": "heat", "arm": {"branch": "check", "label": "cold"}, ...}]`,
			Good:         `[{"id": "check", ...}, {"id": "heat", "calls": "heater.on", "arm": {"branch": "check", "label": "cold"}, ...}]`,
			Scope:        "Steps of every plan of a recorded validate result that another step of the same plan names in arm.branch or loop (a branch or loop by the plan's own marking); every Language, every manifest version.",
			NoExceptions: "Part II §5.6 (plan step calls; plan derivation: control-flow steps do not carry calls) and §5.8.3 were read: a call to a promoted program is a step of its own, and no sentence lets a branch or loop carry calls.",
			Check:        checkResultPlanControlFlow,
		},
	}
}

func checkResultValid(p *lint.Pass) {
	for _, rc := range results(p) {
		if rc.Op != rulekit.OpValidate || rc.RequestError {
			continue
		}
		valid, diags := rc.Content.Get("valid"), rc.Content.Get("diagnostics")
		if !valid.IsBool() || !diags.IsArray() {
			continue
		}
		errs, unknown := 0, false
		for _, d := range diags.Objects() {
			sev, _ := d.Str("severity")
			switch sev {
			case string(types.SeverityError):
				errs++
			case string(types.SeverityWarning):
			default:
				unknown = true
			}
		}
		// A later minor may reserve another severity (§11.1), which may
		// make a program invalid.
		if unknown && laterMinor(p) {
			continue
		}
		switch {
		case valid.Truth() && errs > 0:
			p.Report(valid, "valid is true but %d diagnostic(s) have severity error; a program with an error diagnostic is invalid, so set valid to false", errs)
		case !valid.Truth() && errs == 0:
			p.Report(valid, "valid is false but no diagnostic has severity error (warnings do not make a program invalid); set valid to true or report the error")
		}
	}
}

func checkResultPlanMissing(p *lint.Pass) {
	for _, rc := range results(p) {
		if rc.Op != rulekit.OpValidate || rc.RequestError || rc.Lang == nil || !rc.Lang.Caps.Declared(string(types.CapPlan)) {
			continue
		}
		if rulekit.True(rc.Content.Get("valid")) && !rc.Content.Has("plan") {
			p.ReportMissing(rc.Content, "Language %s declares plan and this program is valid, but the result has no plan; add the plan the Host's risk gate needs", rc.Lang.Name)
		}
	}
}

// resultDiagnostics returns the diagnostics of validate results and of
// execute results refused with validation_error.
func resultDiagnostics(rc *rulekit.Result) []*source.Node {
	if rc.RequestError {
		return nil
	}
	switch rc.Op {
	case rulekit.OpValidate:
		return rc.Content.Get("diagnostics").Objects()
	case rulekit.OpExecute:
		if st, _ := rc.Content.Path("outcome", "status").Value().(string); st == string(types.StatusValidationError) {
			return rc.Content.Get("diagnostics").Objects()
		}
	}
	return nil
}

func checkResultBindingCode(p *lint.Pass) {
	for _, rc := range results(p) {
		if rc.Op != rulekit.OpValidate {
			continue
		}
		for _, d := range resultDiagnostics(rc) {
			if c := d.Get("code"); c.IsString() && c.Text() == types.CodeInputBinding {
				p.Report(c, "an input_binding diagnostic in a %s (validate) result points into an input that validate never receives; use constraint or a Language code for the program, context_binding for context", rc.Name)
			}
		}
	}
}

// checkResultDiagnosticPaths checks the form of paths (resolve false) or
// that json-pointer paths resolve in the recorded request (resolve true).
// checkResultDiagnosticPaths judges a diagnostic path by its syntax in
// the Language's locator dialect. Whether it resolves in the recorded
// program is not judged: Part II §5.5 asks for a location, and a finding
// about a missing member may point any depth into it.
func checkResultDiagnosticPaths(p *lint.Pass) {
	for _, rc := range results(p) {
		ds := resultDiagnostics(rc)
		if len(ds) == 0 {
			continue
		}
		locator := ""
		if rc.Lang != nil {
			locator, _ = rc.Lang.Node.Str("locator")
		}
		for _, d := range ds {
			path := d.Get("path")
			if path == nil {
				continue // a missing member is the schema's finding
			}
			code, _ := d.Str("code")
			what := "program"
			pointer := locator == string(types.LocatorJSONPointer)
			switch code {
			case types.CodeInputBinding:
				what, pointer = "input", true
			case types.CodeContextBinding:
				what, pointer = "context", true
			}
			switch {
			case pointer && (!path.IsString() || !types.IsJSONPointer(path.Text())):
				p.Report(path, "diagnostic path %s is not an RFC 6901 JSON Pointer into the %s; write it like \"/steps/1\" (\"\" for the whole %s)", rulekit.QuoteJSON(path), what, what)
			case !pointer && locator == string(types.LocatorTextRange) && !(path.Get("start").IsObject() && path.Get("end").IsObject()):
				p.Report(path, "diagnostic path %s is not a text range; with locator text-range write {\"start\": {\"line\", \"column\"}, \"end\": {\"line\", \"column\"}}", rulekit.QuoteJSON(path))
			}
		}
	}
}

// resultPlans returns the plans of recorded validate results.
func resultPlans(calls []*rulekit.Result) []*source.Node {
	return resultMembers(calls, rulekit.OpValidate, "plan", source.Object)
}

func checkResultPlanMaxRisk(p *lint.Pass) {
	for _, pl := range resultPlans(results(p)) {
		max := pl.Get("max_risk_hints")
		steps := pl.Get("steps")
		if !max.IsObject() || !steps.IsArray() {
			continue
		}
		// Member by member, where the maximum and every listed step state
		// it: a missing member is a shape fault, not a computation. Only a
		// maximum less restrictive than its listed steps is wrong: a plan
		// MAY omit steps with no externally visible effect (§5.6), whose
		// hints the maximum still counts, so it may be more restrictive.
		var under []string
		for _, m := range []string{"readOnly", "destructive", "openWorld"} {
			got := max.Get(m)
			if !got.IsBool() {
				continue
			}
			// readOnly is the AND of the steps', the others the OR.
			agg, stated := m == "readOnly", true
			for _, s := range steps.Objects() {
				v := s.Path("risk_hints", m)
				if !v.IsBool() {
					stated = false
					break
				}
				if m == "readOnly" {
					agg = agg && v.Truth()
				} else {
					agg = agg || v.Truth()
				}
			}
			if !stated {
				continue
			}
			if m == "readOnly" && got.Truth() && !agg || m != "readOnly" && !got.Truth() && agg {
				under = append(under, fmt.Sprintf("%s: %t where its steps give %t", m, got.Truth(), agg))
			}
		}
		if len(under) > 0 {
			p.Report(max, "max_risk_hints understates its steps' risk_hints (%s; readOnly is the AND of the steps', destructive and openWorld the OR); the Host gate acts on this value, so compute it from the steps", strings.Join(under, ", "))
		}
	}
}

// resultControlFlow returns the ids of plan steps that are branches or
// loops: those other steps name in arm.branch or loop.
func resultControlFlow(pl *source.Node) map[string]bool {
	cf := map[string]bool{}
	for _, s := range pl.Get("steps").Objects() {
		if b, ok := s.Path("arm", "branch").Value().(string); ok {
			cf[b] = true
		}
		if l, ok := s.Str("loop"); ok {
			cf[l] = true
		}
	}
	return cf
}

func checkResultPlanControlFlow(p *lint.Pass) {
	for _, pl := range resultPlans(results(p)) {
		cf := resultControlFlow(pl)
		for _, s := range pl.Get("steps").Objects() {
			if id, _ := s.Str("id"); cf[id] && s.Has("calls") {
				p.ReportKey(s.Get("calls"), "plan step %q is a branch or loop (other steps name it in arm.branch or loop) and must not carry calls; move the invocation into a step of its own", id)
			}
		}
	}
}
