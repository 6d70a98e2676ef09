package plans

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// callDeterminismRules judge a validate request repeated with nothing that
// could change its answer in between (the probes validate-unparsable-again
// and validate-program-again are such): the same program, context and
// catalog snapshot must draw the same plan identifiers, the same validity
// and, as advice, the same diagnostics.
func callDeterminismRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-validate-step-ids-unstable", Severity: lint.Error, Spec: "Part II §3.4, §5.6",
			Quote:   "For a Language whose grammar does not define program step identifiers, such as a Language represented by a SQL string, the Engine MUST generate deterministic identifiers.",
			Keyword: "MUST",
			Summary: "The same program validated twice with the same context at the same catalog_version drew plans whose corresponding steps carry different identifiers.",
			Doc:     "A plan step's id is the program step identifier: the program's own, or one the Engine generates deterministically where the grammar has none (Part II §3.4, §5.6). The identifiers are how a Client pairs the plan it approved with the trace it verifies (§5.8.4); an identifier that changes between two validations of one program makes that pairing a matter of luck. The rule compares two validate calls of the same Language with equal program and context, when both name the same catalog_version with no other one recorded between them, or neither names one and only reads lie between them. It compares only plans with the same number of steps whose steps name the same entries position by position, since a plan MAY omit steps without visible effect.",
			Bad:     `[{"name": "validate_sql", "arguments": {"sql": "UPDATE t SET a = 1"}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1", "plan": {"steps": [{"id": "stmt-1", "calls": "t"}]}}}}, {"name": "validate_sql", "arguments": {"sql": "UPDATE t SET a = 1"}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1", "plan": {"steps": [{"id": "stmt-8f3a", "calls": "t"}]}}}}]`,
			Good:    `[{"name": "validate_sql", "arguments": {"sql": "UPDATE t SET a = 1"}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1", "plan": {"steps": [{"id": "stmt-1", "calls": "t"}]}}}}, {"name": "validate_sql", "arguments": {"sql": "UPDATE t SET a = 1"}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1", "plan": {"steps": [{"id": "stmt-1", "calls": "t"}]}}}}]`,
			Scope:   "Pairs of successful validate calls of one Language with equal program and context, at one catalog_version with no other recorded between them (or both without one and only reads between), whose plans have as many steps naming the same entries position by position.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §3.4", Quote: "- MUST produce identical identifiers in the validation plan and execution trace for the same program text at the same `catalog_version`.", Fixture: "good-other-catalog-version"},
			},
			Check: checkCallValidateStepIDs,
		},
		{
			ID: "call-validate-validity-unstable", Severity: lint.Warning, Spec: "Part II §3.2, §6.4, §6.5.2", Policy: lint.PolicyContradiction,
			Quote:   "A Language has **environment-bound names** if and only if the validity of its programs depends on runtime Server state rather than on the grammar alone.",
			Keyword: "",
			Summary: "The same program validated twice with the same context at the same catalog_version was once valid and once not.",
			Doc:     "Validity is a property of the program, its context and the catalog snapshot: a Language whose validity depends on live Server state must declare a catalog (Part II §3.2), validation operates against the current catalog snapshot (§6.4), whose token changes whenever a visible entry does (§5.4), and execute re-validates {program, context} \"exactly as validate would\" (§6.5.2), which presumes one answer. A verdict that flips between two identical requests tells a Client nothing it can rely on, and leaves the execute guard undefined. The spec states no keyword for this, so the rule warns. It compares the same pairs as call-validate-step-ids-unstable.",
			Bad:     `[{"name": "validate_flow", "arguments": {"flow": {"steps": []}}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1"}}}, {"name": "validate_flow", "arguments": {"flow": {"steps": []}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}], "catalog_version": "cv_1"}}}]`,
			Good:    `[{"name": "validate_flow", "arguments": {"flow": {"steps": []}}, "result": {"structuredContent": {"valid": true, "diagnostics": [], "catalog_version": "cv_1"}}}, {"name": "validate_flow", "arguments": {"flow": {"steps": []}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}], "catalog_version": "cv_2"}}}]`,
			Check:   checkCallValidateValidity,
		},
		{
			ID: "call-validate-diagnostics-unstable", Severity: lint.Info, Spec: "Part II §6.4",
			Quote:   "be safe to repeat any number of times.",
			Keyword: "",
			Summary: "The same program validated twice with the same context at the same catalog_version drew different diagnostics, with the same validity.",
			Doc:     "Validation is safe to repeat (Part II §6.4), and a Client that fixes a program diagnostic by diagnostic expects the same findings for the same request: findings that come and go, or messages that change (a counter, a timestamp), make it chase differences that are not in its program. The spec requires no identical diagnostics, so this is advice. Diagnostics are compared as a multiset of whole objects; only pairs that agree on valid are judged (call-validate-validity-unstable reports the others).",
			Bad:     `[{"name": "validate_flow", "arguments": {"flow": "\u0000((("}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "cannot parse (check 1)"}]}}}, {"name": "validate_flow", "arguments": {"flow": "\u0000((("}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "cannot parse (check 2)"}]}}}]`,
			Good:    `[{"name": "validate_flow", "arguments": {"flow": "\u0000((("}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "cannot parse"}]}}}, {"name": "validate_flow", "arguments": {"flow": "\u0000((("}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "cannot parse"}]}}}]`,
			Check:   checkCallValidateDiagnostics,
		},
	}
}

// callValidatePairs pairs each successful validate call with the nearest
// earlier one of the same request (Language, program and context) when
// nothing that could change the answer lies between them: both name one
// catalog_version and no other one of the Language is recorded in between,
// or neither names one and only reads lie in between.
func callValidatePairs(s *snapshot.Snapshot) [][2]*snapshot.Call {
	// Bucketing by a cheap key keeps a recording of many different
	// programs from comparing each with all the others.
	type bucket struct {
		lang       *snapshot.Language
		arg, text  string
		kind, kids int
	}
	earlier := map[bucket][]int{}
	var out [][2]*snapshot.Call
	calls := s.Calls
	for j, w := range calls {
		if !callValidated(w) {
			continue
		}
		k := bucket{w.Lang, w.ProgramArg, "", int(w.Program.Kind), len(w.Program.Kids())}
		if w.Program.IsString() {
			k.text = w.Program.Text()
		}
		prev := earlier[k]
		earlier[k] = append(prev, j)
		for n := len(prev) - 1; n >= 0; n-- {
			i := prev[n]
			v := calls[i]
			if !source.Equal(v.Program, w.Program) || !source.Equal(rulekit.Present(v, types.ArgContext), rulekit.Present(w, types.ArgContext)) {
				continue
			}
			if callSameSnapshot(rulekit.Of(s), calls[i:j+1]) {
				out = append(out, [2]*snapshot.Call{v, w})
			}
			break
		}
	}
	return out
}

func callValidated(c *snapshot.Call) bool {
	return c.Op == snapshot.OpValidate && c.Succeeded() && c.Program != nil && c.Lang != nil
}

// callSameSnapshot reports whether the first and last calls of span, two
// validate calls of one Language, were answered against the same catalog
// snapshot.
func callSameSnapshot(m *rulekit.Model, span []*snapshot.Call) bool {
	first, last := span[0], span[len(span)-1]
	a, okA := first.StructuredContent.Str("catalog_version")
	b, okB := last.StructuredContent.Str("catalog_version")
	if okA != okB || a != b {
		return false
	}
	for _, c := range span[1 : len(span)-1] {
		if okA {
			if v, ok := rulekit.CatalogVersion(c); ok && c.Lang == first.Lang && v != a {
				return false
			}
			continue
		}
		if m.Writes(c) || c.Op == snapshot.OpCatalog && c.Lang == first.Lang {
			return false
		}
	}
	return true
}

func checkCallValidateStepIDs(p *lint.Pass) {
	for _, pr := range callValidatePairs(p.Snap) {
		v, w := pr[0], pr[1]
		a, b := v.StructuredContent.Path("plan", "steps"), w.StructuredContent.Path("plan", "steps")
		if !a.IsArray() || !b.IsArray() || len(a.Kids()) != len(b.Kids()) {
			continue
		}
		for k, sb := range b.Kids() {
			sa := a.Kids()[k]
			ia, ib := sa.Get("id"), sb.Get("id")
			if !ia.IsString() || !ib.IsString() || ia.Text() == ib.Text() || !source.Equal(sa.Get("calls"), sb.Get("calls")) {
				continue
			}
			p.Report(ib, "%s gave plan step %d the id %q where the same program, context and catalog snapshot drew %q at %s: derive step identifiers deterministically from the program text, so that plan and trace pair", w.Name, k, ib.Text(), ia.Text(), v.Node.Pointer())
			break
		}
	}
}

func checkCallValidateValidity(p *lint.Pass) {
	for _, pr := range callValidatePairs(p.Snap) {
		v, w := pr[0], pr[1]
		a, b := v.StructuredContent.Get("valid"), w.StructuredContent.Get("valid")
		if a.IsBool() && b.IsBool() && a.Truth() != b.Truth() {
			// The answer as a whole, not its valid member: a probe verdict
			// on that member (valid: true for a program that cannot parse)
			// is a fault of its own that this warning must not replace.
			p.Report(w.StructuredContent, "%s answered valid: %t for the program, context and catalog snapshot that drew valid: %t at %s: validity depends only on these, so answer the same request the same way", w.Name, b.Truth(), a.Truth(), v.Node.Pointer())
		}
	}
}

func checkCallValidateDiagnostics(p *lint.Pass) {
	for _, pr := range callValidatePairs(p.Snap) {
		v, w := pr[0], pr[1]
		if !source.Equal(v.StructuredContent.Get("valid"), w.StructuredContent.Get("valid")) {
			continue
		}
		a, b := v.StructuredContent.Get("diagnostics"), w.StructuredContent.Get("diagnostics")
		if !a.IsArray() || !b.IsArray() || sameMultiset(a.Kids(), b.Kids()) {
			continue
		}
		p.Report(b, "%s answered other diagnostics than the same request drew at %s: give the same findings for the same program, context and catalog snapshot, with no counter or timestamp in their messages", w.Name, v.Node.Pointer())
	}
}

// sameMultiset reports whether two lists hold equal values, in any order.
func sameMultiset(a, b []*source.Node) bool {
	if len(a) != len(b) {
		return false
	}
	used := make([]bool, len(b))
	for _, x := range a {
		found := false
		for k, y := range b {
			if !used[k] && source.Equal(x, y) {
				used[k], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}
