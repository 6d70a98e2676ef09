package probe

import (
	"reflect"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func probeRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: probe.ExpectationRule, Severity: lint.Error, Spec: "Part III §7, §10.1",
			Quote:    "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements.",
			Keyword:  "MUST",
			Fallback: true,
			// A specific call rule may point at the request (the store flag
			// it should have refused) while this verdict sits on the answer:
			// anything it reports inside the same call replaces this finding.
			FallbackScope: callScope,
			Summary:       "A probe call recorded by snapshot --probe drew an answer other than the one the spec requires for its deliberate defect.",
			Doc:           "`pilotage-lint snapshot --probe` sends requests that each carry at most one deliberate defect and tags each recorded call with the probe's name, the official conformance vector and the defect. This rule judges the answer against the spec sentence that decides that probe (the finding quotes it): the channel of Part III §7.1 (result, request error with isError: true, or JSON-RPC error), the request-error kind of §7.2, the catalog_version an unknown catalog id still carries, an execute refusal's validation_error, the whole-result indistinguishability of an unknown and a refused run_id, a catalog cursor that repeats, and a probe the server never answered (a call the snapshot's own session --timeout cut short, tagged cut: session, is not judged: the server was not given its wait). An agent recovers from a refusal by its kind; the wrong channel or kind sends it down the wrong path. A more specific rule reporting at or inside the same call replaces this one. A probe request the tool's inputSchema rejects for a missing member or a wrong JSON type (validated with the schema library, $defs and nullable unions included) is not the request its vector describes, and the server may rightly refuse it with a JSON-RPC error: its answer is not judged: the run names it among the checks not run, and the probe coverage counts its vector partly probed, never passed.",
			Bad:           `{"name": "run_flow", "arguments": {"flow": "…", "trace_level": "pilotage-probe-verbose"}, "error": {"code": -32602, "message": "bad trace_level"}, "probe": {"name": "execute-unknown-trace-level", "vector": "PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B", "defect": "unknown_trace_level"}}`,
			Good:          `{"name": "run_flow", "arguments": {"flow": "…", "trace_level": "pilotage-probe-verbose"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "unknown trace_level"}}}, "probe": {"name": "execute-unknown-trace-level", "vector": "PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B", "defect": "unknown_trace_level"}}`,
			Scope:         "Calls recorded by snapshot --probe and tagged with a probe of the table, each judged against that probe's expectation for its deliberate defect, in any Language. Not judged: a call whose request the tool's inputSchema rejects for a missing required member or a wrong JSON type (the probe could not send the request its vector describes), a JSON-RPC answer when that schema cannot be judged offline, and, under a manifest of a later minor version, a request-error kind 1.1 does not define. Untagged calls are the call rules' to judge.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.6", Quote: "Those faults are carrier-level.", Fixture: "good-structural-fault"},
				{Spec: "Part III §7.2", Quote: "A minor revision MAY add request-error kinds, under Part II's unknown-value convention.", Fixture: "good-later-minor-kind"},
			},
			Check: checkProbeExpectation,
		},
	}
}

// probeCall is a recorded call with its probe tag read.
type probeCall struct {
	call     *snapshot.Call
	probe    *probe.Probe
	language string
}

func probeCalls(s *snapshot.Snapshot) []probeCall {
	var out []probeCall
	for _, c := range s.Calls {
		tag := c.Node.Get("probe")
		name, _ := tag.Str("name")
		p := probe.ByName(name)
		if p == nil {
			continue
		}
		lang, _ := tag.Str("language")
		out = append(out, probeCall{c, p, lang})
	}
	return out
}

func checkProbeExpectation(p *lint.Pass) {
	calls := probeCalls(p.Snap)
	cursors := map[string]map[string]bool{}
	for _, pc := range calls {
		c, pr, want := pc.call, pc.probe, pc.probe.Expect
		label := pr.Label()
		cite := pr.Spec + ": \u201c" + pr.Quote + "\u201d"
		if c.Result == nil && c.Error == nil {
			if cut, _ := c.Node.Get("probe").Str("cut"); cut == "session" {
				// The session's --timeout ended the wait, not the server.
				p.Skip("the answer to probe " + label + ", because the session's --timeout cut its wait short")
				continue
			}
			if ms := c.Node.Get("probe").Get("timeout_ms"); ms != nil {
				p.Report(ms, "probe %s got no answer within %s ms where the spec requires a %s: %s", label, ms.Text(), describe(want), cite)
			} else if why := c.Node.Get("probe").Get("failure"); why.IsString() {
				p.Report(why, "probe %s got no answer (%s) where the spec requires a %s: %s", label, why.Text(), describe(want), cite)
			}
			continue
		}
		got, at := channelOf(c)
		if why := unjudged(p.Snap, c, got); why != "" {
			// Not judged is not passed: the coverage counts the call so.
			p.SkipAt(c.Node, "the answer to probe "+label+", because "+why)
			continue
		}
		if got != want.Channel {
			p.Report(at, "probe %s drew a %s where the spec requires a %s: %s", label, got, describe(want), cite)
			continue
		}
		sc := c.Result.Get("structuredContent")
		if got == probe.RequestError && len(want.Kinds) > 0 {
			kind := sc.Get("error").Get("kind")
			// A later minor may add request-error kinds (Part III §7.2);
			// under its manifest a kind 1.1 does not know is not judged.
			later := kind.IsString() && !types.ErrorKind(kind.Text()).IsKnown() && rulekit.Of(p.Snap).LaterMinor()
			if !later && (kind == nil || !kind.IsString() || !slices.Contains(want.Kinds, kind.Text())) {
				where, drew := kind, "no kind"
				if kind.IsString() {
					drew = "kind " + kind.Text()
				}
				if where == nil {
					where = sc
				}
				if where == nil {
					where = c.Result
				}
				p.Report(where, "probe %s drew a request error with %s where the spec requires kind %s: %s", label, drew, strings.Join(want.Kinds, " or "), cite)
				continue
			}
		}
		if want.CatalogVersion && sc.IsObject() && !sc.Has("catalog_version") {
			p.ReportMissing(sc, "probe %s: the answer lacks catalog_version; add the current token: %s", label, cite)
		}
		// Only a garbage string (or array of one) certainly cannot parse; an
		// object program might be read with its unknown member ignored, as
		// an empty program, so its verdict is the Language's to give.
		if want.Invalid && garbageSent(c.Arguments) {
			if v := sc.Get("valid"); v.IsBool() && v.Truth() {
				p.Report(v, "probe %s sent a program that cannot parse and validation said valid: true; report it with valid: false and diagnostics (Part II §5.5).", label)
			}
		}
		// The drift check comes before re-validation (Part II §6.5.2 steps
		// 2 and 3), so a stale token draws catalog_drift whatever the
		// program, an object one read as empty included.
		if want.Status != "" && (garbageSent(c.Arguments) || want.Status == "catalog_drift" && c.Arg("expected_catalog_version").IsString()) {
			if st := sc.Get("outcome").Get("status"); st.IsString() && st.Text() != want.Status {
				if tok := c.Arg("expected_catalog_version"); tok.IsString() && want.Status == "catalog_drift" {
					p.Report(st, "probe %s sent the stale expected_catalog_version %q with a program that cannot parse, and the outcome status is %q: the drift check (Part II §6.5.2 step 2) comes before re-validation (step 3), so refuse with catalog_drift: %s", label, tok.Text(), st.Text(), cite)
				} else {
					p.Report(st, "probe %s sent a program that cannot parse and the outcome status is %q; refuse it with %s: %s", label, st.Text(), want.Status, cite)
				}
			}
		}
		if pr.Pages > 0 {
			// One chain of pages per probe and Language: two listings
			// (with and without a limit) may hand out the same cursors.
			next, ok := sc.Str("next_cursor")
			chain := pc.language + "\x00" + pr.Name
			seen := cursors[chain]
			if seen == nil {
				seen = map[string]bool{}
				cursors[chain] = seen
			}
			if ok && seen[next] {
				p.Report(sc.Get("next_cursor"), "probe %s: next_cursor %q repeats an earlier page's cursor, so following it lists the same entries again; a listing covers every entry exactly once (Part II §6.3, vector PIL-LOOKUP-PAGINATION-G), so give each page a new cursor.", label, next)
			}
			if ok {
				seen[next] = true
			}
		}
		if want.SameAs != "" {
			for _, other := range calls {
				if other.probe.Name != want.SameAs || other.language != pc.language || other.call.Result == nil {
					continue
				}
				if !reflect.DeepEqual(stripMeta(c.Result), stripMeta(other.call.Result)) {
					p.Report(c.Result, "probe %s: the result for this run_id differs from the result for an unknown run_id (call %s); return one identical not_found result, message and content included: %s", label, other.call.Node.Pointer(), cite)
				}
				break
			}
		}
	}
}

// unjudged says why the answer to a probe call cannot be judged against
// its expectation, or "". A probe's expectation assumes a request whose
// only defect is the deliberate one; a request the tool's inputSchema
// rejects for a missing member or a wrong JSON type (Pydantic's program
// declared anyOf [object, null], sent a string) carries a structural fault,
// which the server may rightly answer with a JSON-RPC error (Part III
// §4.6), so no answer to it says anything about the defect.
func unjudged(s *snapshot.Snapshot, c *snapshot.Call, got probe.Channel) string {
	t := s.Tool(c.Name)
	if t == nil || t.InputSchema == nil {
		return ""
	}
	var args any = map[string]any{}
	if c.Arguments != nil {
		args = c.Arguments.Value()
	}
	structural, decided, _ := schemacheck.Structural(t.InputSchema, args)
	switch {
	case structural:
		return "its request does not fit the inputSchema of " + c.Name + " (a missing required member or a wrong JSON type), so the probe could not send the request its vector describes"
	case !decided && got == probe.CarrierError:
		return "the inputSchema of " + c.Name + " cannot be judged offline, so whether the JSON-RPC error answers a structural fault is unknown"
	}
	return ""
}

// garbageSent reports whether the request carried probe.Garbage as a
// string or as the first element of an array.
func garbageSent(args *source.Node) bool {
	for _, a := range args.Items() {
		v := a
		if v.IsArray() && len(v.Kids()) > 0 {
			v = v.Kids()[0]
		}
		if v.IsString() && strings.HasPrefix(v.Text(), probe.Unparsable) {
			return true
		}
	}
	return false
}

// channelOf says where the answer came on (Part III §7.1) and which value
// to point at.
func channelOf(c *snapshot.Call) (probe.Channel, *source.Node) {
	if c.Error != nil {
		return probe.CarrierError, c.Error
	}
	if e := c.Result.Get("isError"); e.IsBool() && e.Truth() {
		return probe.RequestError, e
	}
	if e := c.Result.Get("isError"); e != nil {
		return probe.Result, e
	}
	return probe.Result, c.Result
}

func describe(e probe.Expect) string {
	switch e.Channel {
	case probe.RequestError:
		return "request error (isError: true) of kind " + strings.Join(e.Kinds, " or ")
	case probe.CarrierError:
		return "JSON-RPC error"
	}
	return "result with isError: false"
}

// stripMeta drops _meta, which carries transport details such as request
// timing rather than the answer.
func stripMeta(n *source.Node) any {
	v, _ := n.Value().(map[string]any)
	if v == nil {
		return n.Value()
	}
	out := make(map[string]any, len(v))
	for k, x := range v {
		if k != "_meta" {
			out[k] = x
		}
	}
	return out
}

// callScope is the scope of a probe verdict: the recorded call holding it.
func callScope(pointer string) string {
	if call := probe.CallOf(pointer); call != "" {
		return call
	}
	return pointer
}
