package calls

import (
	"slices"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func callRunRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-unstored-run-fetched", Severity: lint.Error, Spec: "Part II §6.5, §6.6",
			Quote:   "A Run executed with `store: false` MUST NOT be retrievable through the fetch door.",
			Keyword: "MUST NOT",
			Summary: "A Run executed with store: false was later returned by the trace-fetch tool.",
			Doc:     "store: false forbids retaining the run record beyond the execute response (Part II §6.5); a Client sends it for runs whose inputs or outputs must not outlive the call. A later trace fetch of that run_id answered with the Run shows the record was kept anyway; the fetch must answer not_found, like any non-retained Run.",
			Bad:     `[{"name": "run_flow", "arguments": {"flow": {}, "store": false}, "result": {"structuredContent": {"run_id": "run_7", "outcome": {"ok": true, "status": "success", "error": null}}}}, {"name": "trace_run", "arguments": {"run_id": "run_7"}, "result": {"structuredContent": {"run_id": "run_7", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_7", "level": "full", "steps": []}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"flow": {}, "store": false}, "result": {"structuredContent": {"run_id": "run_7", "outcome": {"ok": true, "status": "success", "error": null}}}}, {"name": "trace_run", "arguments": {"run_id": "run_7"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "unknown run"}}}}]`,
			Scope:   "Trace fetches answered with a Run for a run_id that a new Run executed with store: false returned, with the same outcome (and, at one level, the same trace). A replay's store is not judged: the Run it returns keeps its original's.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			},
			Check: checkCallUnstoredFetched,
		},
		{
			ID: "call-refused-run-fetched", Severity: lint.Error, Spec: "Part II §6.5, §6.6",
			Quote:        "The following conditions MUST produce the same request error, of kind `not_found`: - unknown `run_id`; - expired Run; - non-retained Run; - unauthorized Run.",
			Keyword:      "MUST",
			Summary:      "The trace-fetch tool returned a Run that was refused at execute (validation_error, catalog_drift, promotion_drift) instead of not_found.",
			Doc:          "A refused Run never started and is never retained, whatever store says (Part II §6.5: \"A refused Run is never retained, regardless of store\"; §6.6: \"Refused Runs are not retrievable through the fetch door\"), so a fetch of its run_id is a fetch of a non-retained Run, which MUST answer the same request error of kind not_found as an unknown run_id (§6.6). A server that returns it keeps records of runs that did nothing, which a Client may mistake for executions, and tells apart a refused run_id from an unknown one. The rule reads the fetched outcome itself: a reserved refusal status on the fetch door is a refused Run, whether or not its execute call was recorded.",
			Bad:          `[{"name": "run_flow", "arguments": {"flow": {}, "expected_catalog_version": "cv_old"}, "result": {"structuredContent": {"run_id": "run_3", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}}}, {"name": "trace_run", "arguments": {"run_id": "run_3"}, "result": {"structuredContent": {"run_id": "run_3", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}}}]`,
			Good:         `[{"name": "run_flow", "arguments": {"flow": {}, "expected_catalog_version": "cv_old"}, "result": {"structuredContent": {"run_id": "run_3", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}}}, {"name": "trace_run", "arguments": {"run_id": "run_3"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "unknown run"}}}}]`,
			Scope:        "Trace-fetch results on the result channel whose outcome status is validation_error, catalog_drift or promotion_drift.",
			NoExceptions: "Part II §3.6, §6.5 (\"A refused Run is never retained, regardless of `store`\") and §6.6 (\"Refused Runs are not retrievable through the fetch door\") were read: no sentence lets the fetch door return a refused Run, whatever the execute request carried.",
			Check:        checkCallRefusedFetched,
		},
		{
			ID: "call-context-without-schema-accepted", Severity: lint.Error, Spec: "Part II §6.4, §6.5.5",
			Quote:   "A Language without `context_schema` MUST reject supplied context through a `context_binding` diagnostic.",
			Keyword: "MUST",
			Summary: "Context sent to a Language without context_schema was accepted: valid: true, or a Run with ok: true.",
			Doc:     "A Language that declares no context_schema takes no context, and supplied context must fail validation with a context_binding diagnostic, at validate and at execute alike (Part II §6.4, §6.5.5). Accepting it lets a Client believe its bindings were used when the Engine ignored them. Context sent as null or as an empty object is not judged, since a Client may send either for \"none\".",
			Bad:     `{"name": "validate_flow", "arguments": {"flow": {"steps": []}, "context": {"site": "north"}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}}`,
			Good:    `{"name": "validate_flow", "arguments": {"flow": {"steps": []}, "context": {"site": "north"}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "context_binding", "path": "", "message": "this Language takes no context"}]}}}`,
			Scope:   "Validate and execute calls of a Language without context_schema, answered valid: true or with a Run whose outcome is ok, that supply context other than null or an empty object. Not judged: a replay, and under a later minor a call whose request or Language carries what 1.1 does not define.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
				{Spec: "Part II §11.1", Quote: "They may add: - OPTIONAL fields; - sub-features; - reserved values.", Fixture: "good-later-minor"},
			},
			Check: checkCallContextWithoutSchema,
		},
		{
			ID: "call-stale-token-ran", Severity: lint.Error, Spec: "Part II §6.5.2, §6.5.3",
			Quote:   "The Server MUST NOT ignore a supplied token.",
			Keyword: "MUST NOT",
			Summary: "An execute request whose expected_catalog_version differs from the catalog_version the server reported just before and just after it was run anyway.",
			Doc:     "A Client supplies the catalog_version it validated against; when the catalog has moved since, the Server must refuse with catalog_drift before any side effect (Part II §6.5.2, §6.5.3), so that a program checked against one vocabulary never runs against another. The current token is read from the same Language's recorded results that carry one (catalog and validate responses): a recording may miss the call that moved the catalog, so the rule reports only when the nearest one before and the nearest one after the execute call agree with each other, differ from the supplied token, and no later one equals it.",
			Bad:     `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [], "catalog_version": "cv_2"}}}, {"name": "run_flow", "arguments": {"flow": {}, "expected_catalog_version": "cv_1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [], "catalog_version": "cv_2"}}}, {"name": "run_flow", "arguments": {"flow": {}, "expected_catalog_version": "cv_1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}}}}]`,
			Scope:   "Execute calls that started a new Run with an expected_catalog_version, when the nearest earlier catalog_version of the same Language, with only reads between it and the Run, and the nearest later one agree, differ from the token, and no later answer names the token. A replay is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			},
			Check: checkCallStaleToken,
		},
		{
			ID: "call-idempotent-replay-new-run", Severity: lint.Error, Spec: "Part II §6.5.6",
			Quote:   "Two requests with the same: `idempotency_key`; runnable; input MUST be treated as one execution.",
			Keyword: "MUST",
			Summary: "A repeated execute request with the same idempotency_key, runnable and input started a second Run.",
			Doc:     "With execute.idempotency declared, a retry carrying the same key, runnable and input must return the recorded result of the first Run (Part II §6.5.6): that is what makes a timeout retry safe. A second run_id means the side effects happened twice. A refused first request is not recorded for replay, so only a started first Run is compared, and only for a Language whose retention is not \"none\" (the deduplication window is at least the retention period, which \"none\" leaves unbounded below). A snapshot has no timestamps, so a replay is judged anywhere in the recording when the retention is a session or a day or more, and under any other retention only when it is the probe call sent right after the first (execute-idempotent-replay after execute-idempotent-first), which no declared duration falls between.",
			Bad:     `[{"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}, {"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_2", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}, {"name": "run_flow", "arguments": {"flow": {"steps": []}, "idempotency_key": "k1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Scope:   "Execute calls of a Language declaring execute.idempotency that repeat a started Run's idempotency_key, runnable and input (and its mode, test_run and context) inside a deduplication window that certainly covers both (retention \"session\" outside a stateless deployment, a day or more, or the probe sent right after the first under any retention but \"none\", which sets the window no minimum), and start a Run with another run_id.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.6", Quote: "Refused Runs MUST NOT be recorded for replay because no side effects occurred.", Fixture: "good-refused-first"},
				{Spec: "Part II §6.5.6", Quote: "The Server's deduplication window MUST be at least as long as the declared retention period.", Fixture: "good-short-retention-not-adjacent"},
				{Spec: "Part II §6.5.6", Quote: "The Server's deduplication window MUST be at least as long as the declared retention period.", Fixture: "good-retention-none-adjacent"},
				{Spec: "Part II §6.5.6", Quote: "A request using the same key with a different runnable or different input is a request error.", Fixture: "good-conflict"},
				{Spec: "Part II §6.5.6", Quote: "When `execute.idempotency` is not declared: - a Client MUST NOT assume that retrying execute is safe;", Fixture: "good-not-declared"},
			},
			Check: checkCallIdempotentReplay,
		},
		{
			ID: "call-output-on-failure", Severity: lint.Error, Spec: "Part II §6.5",
			Quote:        "`output` MUST appear only when: `outcome.ok` is true; the Language produces a result.",
			Keyword:      "MUST",
			Summary:      "An execute or trace-fetch result carries output although its outcome has ok: false.",
			Doc:          "output is the Run's successful result (for a deploy Run, the installation result); it appears only when outcome.ok is true (Part II §6.5). A failed or refused Run that still carries output invites a Client to use a result that the outcome says does not exist, such as the reference of an automation that was never installed. An output member that is null is judged too: the member appears, and a Client that tests for it finds it.",
			Bad:          `{"run_id": "run_2", "outcome": {"ok": false, "status": "partial", "error": "lock.dock_door did not answer"}, "output": {"ref": "auto_002"}}`,
			Good:         `{"run_id": "run_2", "outcome": {"ok": false, "status": "partial", "error": "lock.dock_door did not answer"}}`,
			Scope:        "Execute and trace-fetch results on the result channel whose outcome has ok: false, replays included: a replay returns its original's result, which breaks the same sentence.",
			NoExceptions: "Part II §5.7, §6.5 (execute response, store) and §6.6 (\"`output` is returned where it was retained\") were read: none lets output appear beside ok: false, and a member sent as null is present.",
			Check:        checkCallOutputOnFailure,
		},
		{
			ID: "call-success-status", Severity: lint.Error, Spec: "Part II §5.7",
			Quote:   "It MUST NOT substitute engine-specific names for those conditions.",
			Keyword: "MUST NOT",
			Summary: "A Run outcome with ok: true carries an engine-defined status instead of success.",
			Doc:     "success is the reserved status for a program that completed successfully, and the Server must use it exactly for that condition; engine-defined statuses are for failed started Runs (Part II §5.7). An ok: true outcome under another name (completed, done) makes Clients that branch on status treat a success as an unknown status, which they must read as a possible partial failure.",
			Bad:     `{"run_id": "run_1", "outcome": {"ok": true, "status": "completed", "error": null}}`,
			Good:    `{"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}`,
			Scope:   "Execute and trace-fetch results on the result channel whose outcome has ok: true and a status other than a reserved one.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.7", Quote: "For a failed started Run, an Engine MAY use a more specific engine-defined status, such as:", Fixture: "good-engine-failure-status"},
			},
			Check: checkCallSuccessStatus,
		},
		{
			ID: "call-drifted-ref-ran", Severity: lint.Warning, Spec: "Part II §5.4, §5.7, §6.5.2", Policy: lint.PolicyContradiction,
			Quote:   "A mismatch is terminal for that reference.",
			Summary: "A program_ref refused with promotion_drift was later run under the same reference.",
			Doc:     "A promoted program records a baseline of the catalog fields it depends on; once execute finds a difference and refuses with promotion_drift, the reference is dead, and only a new promotion, with a new reference, may run the program again (Part II §5.4). A later Run under the old reference executes a program whose assumptions the Server itself declared broken. That the reference is dead is stated without a keyword (\"A mismatch is terminal for that reference\", §5.4; \"The reference is no longer runnable\", §5.7); the MUST beside it binds the re-promotion, not the Server's refusal, so the rule warns.",
			Bad:     `[{"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_2", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_2", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}]`,
			Scope:   "Execute calls of one tool with the same program_ref: a new Run started after a promotion_drift refusal of that reference, with only reads between the two. A replay of an earlier Run of the reference is not judged, nor a Run after a call that may have written (which may have promoted a program under the same string).",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
			},
			Check: checkCallDriftedRefRan,
		},
	}
}

// checkCallRefusedFetched reads the fetched outcome: the reserved refusal
// statuses name exactly the refusals (Part II §5.7), so a fetch answered
// with one returned a refused Run, recorded execute call or not.
func checkCallRefusedFetched(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpTraceFetch) {
		st := c.StructuredContent.Path("outcome", "status")
		if !c.Succeeded() || !st.IsString() || !types.OutcomeStatus(st.Text()).IsRefusal() {
			continue
		}
		id := "its run"
		if a := c.Arg(types.ArgRunID); a.IsString() {
			id = "run " + a.Text()
		}
		p.Report(st, "%s returned %s with the refusal status %q: a refused Run is never retained, so a fetch of its run_id must answer the request error of kind not_found that an unknown run_id gets (Part II §6.6)", c.Name, id, st.Text())
	}
}

func checkCallUnstoredFetched(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	unstored := map[string]*snapshot.Call{}
	for _, c := range p.Snap.Calls {
		switch c.Op {
		case snapshot.OpExecute:
			// A replay executed nothing: its store is no Run's (Part II
			// §6.5.2), and the Run it returns keeps its original's.
			if st := c.Arg(types.ArgStore); st.IsBool() && !st.Truth() && m.NewRun(c) && rulekit.RunID(c) != "" {
				unstored[rulekit.RunID(c)] = c
			}
		case snapshot.OpTraceFetch:
			id := c.Arg(types.ArgRunID)
			if !id.IsString() || unstored[id.Text()] == nil || !c.Succeeded() || !callSameRun(unstored[id.Text()], c) {
				continue
			}
			p.Report(id, "%s returned run %s, which was executed with store: false: a Run executed with store: false is not retained, so answer a request error of kind not_found", c.Name, id.Text())
		}
	}
}

// callSameRun reports whether a trace fetch returned the Run an execute
// response carried: the same outcome, and the same trace where both carry
// one at the same level. Run ids are unique only within a Server's memory,
// and a merged snapshot may hold two sessions that both numbered from 1.
func callSameRun(exec, fetch *snapshot.Call) bool {
	a, b := exec.StructuredContent, fetch.StructuredContent
	if !b.Get("outcome").IsObject() || !source.Equal(a.Get("outcome"), b.Get("outcome")) {
		return false
	}
	ta, tb := a.Get("trace"), b.Get("trace")
	if ta.IsObject() && tb.IsObject() && source.Equal(ta.Get("level"), tb.Get("level")) {
		return sameEnvelope(ta, tb)
	}
	return true
}

// callContextSupplied reports whether a request supplies context: null
// and an empty object are read as none.
func callContextSupplied(c *snapshot.Call) *source.Node {
	v := rulekit.Present(c, types.ArgContext)
	if v == nil || v.IsObject() && len(v.Kids()) == 0 {
		return nil
	}
	return v
}

func checkCallContextWithoutSchema(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.Calls {
		if c.Op != snapshot.OpValidate && c.Op != snapshot.OpExecute || c.Lang == nil || c.Lang.Node.Has("context_schema") || !c.Succeeded() {
			continue
		}
		// A replay returns its original's answer without processing its
		// context; what a later minor added may carry context's schema.
		if m.ReplayOf(c) != nil || m.Extended(c) {
			continue
		}
		ctx := callContextSupplied(c)
		if ctx == nil {
			continue
		}
		if rulekit.Accepted(c) {
			p.Report(ctx, "%s accepted context although %s declares no context_schema: reject supplied context with a context_binding diagnostic (valid: false, or outcome validation_error at execute)", c.Name, c.Lang.Label())
		}
	}
}

func checkCallStaleToken(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	calls := p.Snap.Calls
	for i, c := range calls {
		if c.Op != snapshot.OpExecute || c.Lang == nil || !m.NewRun(c) {
			continue
		}
		tok := c.Arg(types.ArgExpectedCatalogVersion)
		if !tok.IsString() {
			continue
		}
		var at *snapshot.Call
		before, after := "", []string{}
		for j := i - 1; j >= 0 && at == nil; j-- {
			if v, ok := rulekit.CatalogVersion(calls[j]); ok && calls[j].Lang == c.Lang {
				before, at = v, calls[j]
			}
		}
		for _, d := range calls[i+1:] {
			if v, ok := rulekit.CatalogVersion(d); ok && d.Lang == c.Lang {
				after = append(after, v)
			}
		}
		// The token is proved stale only when the catalog stood at one
		// other version just before the run, with nothing between that
		// could have moved it (to the supplied token, say), and just after
		// it; a recording may also miss a change made by someone else, so
		// no later answer may name the supplied token.
		if at == nil || before == tok.Text() || !m.ReadsBetween(at, c) || len(after) == 0 || after[0] != before || slices.Contains(after, tok.Text()) {
			continue
		}
		p.Report(tok, "%s ran although expected_catalog_version %q differs from the current catalog_version %q: refuse with outcome status catalog_drift before any side effect", c.Name, tok.Text(), before)
	}
}

func checkCallOutputOnFailure(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		if c.Op != snapshot.OpExecute && c.Op != snapshot.OpTraceFetch || !c.Succeeded() {
			continue
		}
		ok := c.StructuredContent.Path("outcome", "ok")
		out := c.StructuredContent.Get("output")
		// A present null is present: "appear only when" admits no member
		// at all, and a Client testing for the member finds it.
		if ok.IsBool() && !ok.Truth() && out != nil {
			p.Report(out, "%s returned output (%s) with outcome ok: false: output appears only for a Run whose outcome is ok, so leave the member out", c.Name, rulekit.QuoteJSON(out))
		}
	}
}

func checkCallSuccessStatus(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		if c.Op != snapshot.OpExecute && c.Op != snapshot.OpTraceFetch || !c.Succeeded() {
			continue
		}
		o := c.StructuredContent.Get("outcome")
		// A reserved status with the wrong ok is result-outcome-reserved-status's.
		if st := o.Get("status"); rulekit.True(o.Get("ok")) && st.IsString() && !types.OutcomeStatus(st.Text()).IsReserved() {
			p.Report(st, "the Run outcome has ok: true but status %q: a Run that completed successfully reports the reserved status success", st.Text())
		}
	}
}

func checkCallDriftedRefRan(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	drifted := map[string]*snapshot.Call{}
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		ref := rulekit.Present(c, types.ArgProgramRef)
		if !ref.IsString() || c.Program != nil || !c.Succeeded() {
			continue
		}
		key := c.Name + "\x00" + ref.Text()
		status, _ := c.StructuredContent.Path("outcome", "status").Value().(string)
		switch {
		case status == string(types.StatusPromotionDrift):
			drifted[key] = c
		case drifted[key] != nil && m.NewRun(c):
			// A write between the two may have promoted a program that
			// took the same reference string; only reads between them
			// leave the refused reference the one that ran.
			if !m.ReadsBetween(drifted[key], c) {
				continue
			}
			p.Report(ref, "%s ran %s after refusing it with promotion_drift: a drifted reference stays refused until the program is promoted again under a new reference", c.Name, ref.Text())
		}
	}
}
