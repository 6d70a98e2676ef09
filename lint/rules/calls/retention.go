package calls

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// callRetentionRules judge the fetch door against the retention a stored
// Run is owed.
func callRetentionRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-stored-run-missing", Severity: lint.Error, Spec: "Part II §6.5, §6.6",
			Quote:   "A Run executed with `store: true` MUST be retrievable within the scope of the declared retention value: within its Session for `\"session\"`, and for at least the declared duration otherwise.",
			Keyword: "MUST",
			Summary: "A trace fetch answered not_found for a Run that a recorded execute started with store: true, within the retention the Language declares.",
			Doc:     "store: true asks the Engine to keep the run record so that its trace can be fetched later (Part II §6.5); the record must stay retrievable for the Language's declared retention: within its Session for \"session\", for at least the declared duration otherwise (§6.6). A Client that stored a Run to audit it later finds nothing. A snapshot carries no timestamps, so the rule judges only what the recording shows to be within retention: the execute and the fetch are calls of one `snapshot --probe` run, with every call between them a probe call that was answered, so all were sent back to back in one Session; and the retention is \"session\" or a duration of at least an hour, which such a run cannot outlast.",
			Bad:     `[{"name": "run_calc", "arguments": {"program": {"steps": []}, "test_run": true, "store": true}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}, "probe": {"name": "execute-test-run-store"}}, {"name": "fetch_calc_trace", "arguments": {"run_id": "run_1"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "unknown run"}}}, "probe": {"name": "trace-fetch-retained"}}]`,
			Good:    `[{"name": "run_calc", "arguments": {"program": {"steps": []}, "test_run": true, "store": true}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}, "probe": {"name": "execute-test-run-store"}}, {"name": "fetch_calc_trace", "arguments": {"run_id": "run_1"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}, "trace": {"run_id": "run_1", "level": "full", "steps": []}}}, "probe": {"name": "trace-fetch-retained"}}]`,
			Scope:   "Trace fetches answered not_found for a run_id that a new Run of the same Language started with store: true, when both calls and every call between them are answered calls of one snapshot --probe run, under retention \"session\" (outside a stateless deployment) or a duration of an hour or more. A replay's store is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
				{Spec: "Part II §6.5", Quote: "`store` applies only to started Runs. A refused Run is never retained, regardless of `store`.", Fixture: "good-refused"},
				{Spec: "Part II §6.6", Quote: "Started Runs are retrievable only within the Session in which they executed.", Fixture: "good-not-probe"},
			},
			Check: checkCallStoredRunMissing,
		},
	}
}

func checkCallStoredRunMissing(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	calls := p.Snap.Calls
	stored := map[string]int{}
	for j, c := range calls {
		switch c.Op {
		case snapshot.OpExecute:
			// A replay's store asks nothing of the Run it returns, which
			// its original's store governs (Part II §6.5.2).
			if rulekit.True(c.Arg(types.ArgStore)) && m.NewRun(c) && rulekit.RunID(c) != "" {
				stored[rulekit.RunID(c)] = j
			}
		case snapshot.OpTraceFetch:
			id := c.Arg(types.ArgRunID)
			if !id.IsString() || c.Channel != snapshot.ChannelRequestError || c.ErrorKind != "not_found" {
				continue
			}
			i, ok := stored[id.Text()]
			if !ok || calls[i].Lang != c.Lang || !rulekit.WithinProbeRun(calls, i, j) {
				continue
			}
			if !m.RetainsFor(c.Lang, rulekit.ProbeRunSpan) {
				continue
			}
			ret, _, _ := rulekit.Retention(c.Lang)
			p.Report(rulekit.At(c.StructuredContent, "/error/kind"), "%s answered not_found for run %s, which %s started with store: true at %s in the same probe Session, under retention %q: retain a Run executed with store: true so that it can be fetched for the declared retention", c.Name, id.Text(), calls[i].Name, calls[i].Node.Pointer(), ret)
		}
	}
}
