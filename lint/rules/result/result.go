package result

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The result rules check recorded tool results: the "calls" of a snapshot
// (pilotage-lint snapshot --calls) or the tools/call exchanges of a
// JSON-RPC capture. They judge what a server actually answered, which no
// static surface shows.

func resultRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-structured-content-missing", Severity: lint.Error, Spec: "Part III §6",
			Quote:   "`structuredContent` is REQUIRED.",
			Keyword: "REQUIRED",
			Summary: "A recorded Pilotage tool result has no structuredContent object.",
			Doc:     "structuredContent is the machine-readable Pilotage contract: Pilotage-aware clients read the Part II response from it and must not parse the human-readable content (Part III §6). A result that carries its response only as text leaves every agent without the answer.",
			Bad:     `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"content": [{"type": "text", "text": "valid"}]}}`,
			Good:    `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "content": [{"type": "text", "text": "valid"}]}}`,
			Scope:   "Every recorded result of a Pilotage tool other than pilotage_manifest (whose text-only result is judged here too): the fixed access tools and the manifest's loop tools by name, other tools by the shape of their structuredContent; when the recording holds a tools/list, only tools it lists. Calls answered with a JSON-RPC error have no result and are not judged, and neither is an isError result to a request the tool's inputSchema refuses where the binding makes the refusal carrier-level: a structural fault (a missing required member, a wrong JSON type, at any depth) on a loop tool, any schema fault on a fixed access tool. On MCP 2025-11-25 SDKs answer those with a tool execution error carrying only text (SEP-1303), which is the carrier's answer, not a Pilotage result.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4", Quote: "All Pilotage tools: - appear in tools/list;", Fixture: "good-unlisted-tool"},
				{Spec: "Part III §4", Quote: "All Pilotage tools: - appear in tools/list;", Fixture: "good-empty-listing"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type. Those faults are carrier-level.", Fixture: "good-audit-sdk-structural-fault"},
				{Spec: "Part III §7.1", Quote: "A schema violation against those access tools is carrier-level.", Fixture: "good-audit-sdk-structural-fault"},
			},
			Check: checkResultStructuredContent,
		},
		&lint.Rule{
			ID: "result-is-error-misused", Severity: lint.Error, Spec: "Part III §6, §7.1",
			Quote:        "For both, `isError` MUST be `false`.",
			Keyword:      "MUST",
			Summary:      "A validation result or a Run outcome is returned with isError: true.",
			Doc:          "An invalid program (valid: false) and a failed Run (ok: false) are successful tool results: the diagnostics and the outcome are the answer, and isError MUST be false (Part III §6, §7.1). MCP hosts treat isError: true as a tool failure and may hide the result from the model or retry, so the agent never sees the diagnostics it needs to fix its program.",
			Bad:          `{"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}, "isError": true}`,
			Good:         `{"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}, "isError": false}`,
			Scope:        "Recorded results of Pilotage tools whose structuredContent is a validation result (valid is a boolean) or carries a Run outcome, and is not a request error; every Language, every manifest version.",
			NoExceptions: "Part III §6 (isError), §7.1 (channel mapping, mandatory prohibitions) and Part II §8 were read: each routes an invalid program and a failed Run to a successful result, and no sentence lets either travel with isError true. A result with structuredContent.error is a request error and is left to the request-error rules.",
			Check:        checkResultIsErrorMisused,
		},
		&lint.Rule{
			ID: "result-request-error-unflagged", Severity: lint.Error, Spec: "Part III §7.1, §7.2, §10.1",
			Quote:        "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword:      "MUST",
			Summary:      "A request error ({error: {kind, message}}) is returned without isError: true.",
			Doc:          "A request error (unknown guide, bad verb, expired run) travels as a CallToolResult with isError: true (Part III §7.1). Without the flag, hosts and agents take the error object for a successful answer of an unexpected shape.",
			Bad:          `{"structuredContent": {"error": {"kind": "not_found", "message": "unknown guide"}}, "isError": false}`,
			Good:         `{"structuredContent": {"error": {"kind": "not_found", "message": "unknown guide"}}, "isError": true}`,
			Scope:        "Recorded results of Pilotage tools whose structuredContent carries a request-error object (a top-level error object); every Language, every manifest version; when the recording holds a tools/list, only tools it lists.",
			NoExceptions: "Part III §7.1 and §7.2 were read: a request error is a CallToolResult with isError true, and no sentence lets one travel without it; the operation-mandated sibling fields (a failed get's catalog_version) do not change the channel. Part II §8 assigns every request error to that channel.",
			Check:        checkResultRequestErrorUnflagged,
		},
		&lint.Rule{
			ID: "result-request-error-shape", Severity: lint.Error, Spec: "Part III §7.2, §10.1",
			Quote:   "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword: "MUST",
			Summary: "A result with isError: true lacks the request-error shape {error: {kind, message}}.",
			Doc:     "Clients branch on structuredContent.error.kind (Part III §7.2): a request error without it, with the kind elsewhere, or with only text content cannot be told apart from a malfunction, so the agent cannot decide whether to fix its request, retry or give up.",
			Bad:     `{"structuredContent": {"message": "no such guide"}, "isError": true}`,
			Good:    `{"structuredContent": {"error": {"kind": "not_found", "message": "no such guide"}}, "isError": true}`,
			Scope:   "Recorded results of Pilotage tools that set isError true and are neither a validation result nor a Run outcome (those are result-is-error-misused's); when the recording holds a tools/list, only tools it lists. An isError result to a request the tool's inputSchema refuses where the binding makes the refusal carrier-level (a structural fault on a loop tool, any schema fault on a fixed access tool) is the carrier's answer and not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type. Those faults are carrier-level.", Fixture: "lookalikes/good-carrier-answer"},
				{Spec: "Part III §7.2", Quote: "When Part II requires additional data on a request error, that data appears as a top-level sibling of `error`.", Fixture: "lookalikes/good-lookalike-listing-differs-across-removal"},
				{Spec: "Part III §4", Quote: "All Pilotage tools: - appear in tools/list;", Fixture: "lookalikes/good-unlisted-tool"},
			},
			Check: checkResultRequestErrorShape,
		},
		&lint.Rule{
			ID: "result-error-kind-unknown", Severity: lint.Error, Spec: "Part III §7.2, §10.1",
			Quote:   "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword: "MUST",
			Summary: "A request error's kind is not in the closed set of Part III §7.2.",
			Doc:     "The kind belongs to a closed set: not_found, invalid_request, unknown_baseline, idempotency_conflict, bounds_exceeded, unsupported, internal. A client receiving another value treats it as internal, so an agent that could have fixed its request (invalid_request) or fallen back to a full listing (unknown_baseline) gives up instead.",
			Bad:     `{"structuredContent": {"error": {"kind": "bad_request", "message": "verb get needs id"}}, "isError": true}`,
			Good:    `{"structuredContent": {"error": {"kind": "invalid_request", "message": "verb get needs id"}}, "isError": true}`,
			Scope:   "The kind of every recorded request error of a Pilotage tool, under a manifest declaring Pilotage 1.1 or earlier (or none); under a later minor the kind may be one that minor added and is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §7.2", Quote: "A Client receiving an unrecognized kind MUST treat it as:", Fixture: "good-lookalike-v12-new-request-error-kind"},
				{Spec: "Part III §7.2", Quote: "A minor revision MAY add request-error kinds, under Part II's unknown-value convention.", Fixture: "good-later-minor"},
			},
			Check: checkResultErrorKind,
		},
	}
}

func checkResultStructuredContent(p *lint.Pass) {
	// A text-only pilotage_manifest result carries no manifest a Client
	// may read (it MUST NOT parse content), so nothing else about the
	// manifest can be judged; this is the one finding. An isError result
	// is binding-manifest-tool's.
	if mr := p.Snap.ManifestResult; mr != nil && !rulekit.True(mr.Get("isError")) && mr.Get("structuredContent") == nil {
		p.ReportMissing(mr, "the %s result has no structuredContent, so no Client may read the manifest from it; put the manifest in structuredContent and keep content as a text rendering of it", types.ToolManifest)
	}
	for _, rc := range envelopes(p) {
		if rulekit.CarrierAnswer(p.Snap, rc.Call) {
			continue
		}
		switch {
		case rc.Content == nil:
			p.ReportMissing(rc.Result, "the %s result has no structuredContent; put the Part II response object in structuredContent and keep content as a text rendering of it", rc.Name)
		case !rc.Content.IsObject():
			p.Report(rc.Content, "the structuredContent of the %s result is %s; it must be the Part II response object", rc.Name, rc.Content.Kind.Article())
		}
	}
}

func checkResultIsErrorMisused(p *lint.Pass) {
	for _, rc := range envelopes(p) {
		isErr := rc.Result.Get("isError")
		if !rulekit.True(isErr) || rc.RequestError {
			continue
		}
		switch {
		case rc.Content.Get("valid").IsBool():
			p.Report(isErr, "the %s result is a validation result (valid: %t) but sets isError: true; diagnostics are a successful tool result, so set isError to false", rc.Name, rc.Content.Get("valid").Truth())
		case rc.Content.Get("outcome").IsObject():
			p.Report(isErr, "the %s result carries a Run outcome but sets isError: true; a failed Run is a successful tool result, so set isError to false", rc.Name)
		}
	}
}

func checkResultRequestErrorUnflagged(p *lint.Pass) {
	for _, rc := range envelopes(p) {
		if !rc.RequestError || rulekit.True(rc.Result.Get("isError")) {
			continue
		}
		if isErr := rc.Result.Get("isError"); isErr != nil {
			p.Report(isErr, "the %s result is a request error (structuredContent.error) but isError is not true; set isError: true", rc.Name)
		} else {
			p.ReportMissing(rc.Result, "the %s result is a request error (structuredContent.error) but has no isError; add \"isError\": true", rc.Name)
		}
	}
}

func checkResultRequestErrorShape(p *lint.Pass) {
	for _, rc := range envelopes(p) {
		if !rulekit.True(rc.Result.Get("isError")) || !rc.Content.IsObject() || rulekit.CarrierAnswer(p.Snap, rc.Call) {
			continue
		}
		if rc.Content.Get("valid").IsBool() || rc.Content.Get("outcome").IsObject() {
			continue // result-is-error-misused explains it
		}
		e := rc.Content.Get("error")
		switch {
		case e == nil:
			p.ReportMissing(rc.Content, "the %s result sets isError: true but its structuredContent has no \"error\" object; return {\"error\": {\"kind\": ..., \"message\": ...}}", rc.Name)
		case !e.IsObject():
			p.Report(e, "the error of the %s result is %s; it must be an object {\"kind\", \"message\"}", rc.Name, e.Kind.Article())
		case !e.Get("kind").IsString():
			p.ReportMissing(e, "the request error of the %s result has no string \"kind\"; add one from the Part III §7.2 set", rc.Name)
		case !e.Get("message").IsString():
			p.ReportMissing(e, "the request error of the %s result has no string \"message\"; add a short explanation", rc.Name)
		}
	}
}

func checkResultErrorKind(p *lint.Pass) {
	// A later minor may add kinds; manifest-version-newer names them.
	if laterMinor(p) {
		return
	}
	for _, rc := range envelopes(p) {
		if !rc.RequestError {
			continue
		}
		if k := rc.Content.Path("error", "kind"); k.IsString() && !types.ErrorKind(k.Text()).IsKnown() {
			p.Report(k, "request-error kind %q is not in the Part III §7.2 set (not_found, invalid_request, unknown_baseline, idempotency_conflict, bounds_exceeded, unsupported, internal), so clients read it as internal; use the kind that fits", k.Text())
		}
	}
}

func resultNotFoundRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "result-not-found-distinguishable", Severity: lint.Error, Spec: "Part II §6.6; Part III §7.2",
			Quote:   "The following conditions MUST produce the same request error, of kind `not_found`: - unknown `run_id`; - expired Run; - non-retained Run; - unauthorized Run.",
			Keyword: "MUST",
			Summary: "Recorded not_found results of the trace fetch door differ beyond the run_id asked for.",
			Doc:     "An unknown run_id, an expired Run, a non-retained Run and an unauthorized Run MUST produce the same request error (Part II §6.6), and where Part II requires conditions to be indistinguishable the entire result must match: kind, message, content and every other field (Part III §7.2). Every not_found of the trace fetch door is one of those four conditions, so the linter compares the recorded not_found results of trace fetches made with the same other arguments, after replacing the run_id each asked for: a message like \"run expired\" next to \"no such run\" tells a caller which Runs existed. Catalog names and program references are result-not-found-message-differs's warning, since a close-match hint may legitimately differ from name to name there.",
			Bad:     `trace_run {"run_id": "r1"} -> {"error": {"kind": "not_found", "message": "run r1 expired"}}   trace_run {"run_id": "r9"} -> {"error": {"kind": "not_found", "message": "no run r9"}}`,
			Good:    `trace_run {"run_id": "r1"} -> {"error": {"kind": "not_found", "message": "unknown run r1"}}   trace_run {"run_id": "r9"} -> {"error": {"kind": "not_found", "message": "unknown run r9"}}`,
			Scope:   "Pairs of recorded not_found request errors of a trace-fetch tool made with the same arguments but run_id, compared as whole CallToolResults with each run_id masked and the catalog token left out. A call between the two may change which condition a run_id is in (a Run stored, expired), but the result must not depend on the condition, so the pair is compared across it. Catalog get by id and execute by program_ref are left to result-not-found-message-differs (a warning); guide lookups, which no sentence requires to be indistinguishable, are not compared.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5", Quote: "`store` applies only to started Runs. A refused Run is never retained, regardless of `store`.", Fixture: "lookalikes/good-lookalike-not-retrievable-runs"},
				{Spec: "Part II §10.3", Quote: "Close-match hints MUST identify only entries visible to the caller.", Fixture: "good-close-match-hint"},
			},
			Check: checkResultNotFound,
		},
		&lint.Rule{
			ID: "result-not-found-message-differs", Severity: lint.Warning, Spec: "Part II §6.3, §6.5.2, §10.3; Part III §7.2", Policy: lint.PolicyContradiction,
			Quote:   "Using one `not_found` kind is necessary but not sufficient for the indistinguishability Part II requires (Sections 6.6 and 10.3).",
			Summary: "Recorded not_found results of one catalog get or program_ref lookup differ beyond the identifier asked for.",
			Doc:     "An unauthorized catalog name or program reference MUST be indistinguishable from a nonexistent one, message and content included (Part II §6.3, §6.5.2; Part III §7.2). A recording does not say which of two unknown names is unauthorized and which nonexistent, and two nonexistent names need not draw the same answer: a Server may add a close-match hint computed within the caller's scope (Part II §10.3), which differs from name to name without telling the conditions apart. So a result that differs beyond the identifier is a warning, and the message says what was inferred: that the difference may reveal which names exist for someone else. A fixed result with only the identifier changed is never wrong. Lookups made with different other arguments (another Language) are not compared.",
			Bad:     `get {"id": "secret.valve"} -> {"error": {"kind": "not_found", "message": "not authorized"}}   get {"id": "nope"} -> {"error": {"kind": "not_found", "message": "unknown entry"}}`,
			Good:    `get {"id": "secret.valve"} -> {"error": {"kind": "not_found", "message": "unknown entry"}}   get {"id": "nope"} -> {"error": {"kind": "not_found", "message": "unknown entry"}}`,
			Check:   checkResultNotFoundMessage,
		},
	}
}

// resultLookupKey returns the argument that names what a call looked up,
// for the lookups whose not_found results must be indistinguishable.
func resultLookupKey(rc *rulekit.Result) string {
	switch rc.Op {
	case rulekit.OpTraceFetch:
		return types.ArgRunID
	case rulekit.OpExecute:
		if rc.Arguments.Get(types.ArgProgramRef).IsString() {
			return types.ArgProgramRef
		}
	case rulekit.OpCatalog:
		if verb, _ := rc.Arguments.Str("verb"); verb == string(types.VerbGet) {
			return "id"
		}
	}
	return ""
}

// resultNormalize renders a result with the looked-up identifier replaced
// and the catalog token dropped, for comparison.
func resultNormalize(n *source.Node, id string) any {
	switch n.Kind {
	case source.Object:
		m := map[string]any{}
		for _, k := range n.Kids() {
			if k.Key() == "catalog_version" {
				continue
			}
			m[k.Key()] = resultNormalize(k, id)
		}
		return m
	case source.Array:
		a := make([]any, len(n.Kids()))
		for i, k := range n.Kids() {
			a[i] = resultNormalize(k, id)
		}
		return a
	case source.String:
		if id == "" {
			return n.Text()
		}
		return strings.ReplaceAll(n.Text(), id, "\x00")
	}
	return n.Value()
}

// resultSame reports whether two values are equal once each one's
// looked-up identifier is masked; two absent values (content is only
// RECOMMENDED) are the same.
func resultSame(a, b *source.Node, ida, idb string) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	x, _ := json.Marshal(resultNormalize(a, ida))
	y, _ := json.Marshal(resultNormalize(b, idb))
	return string(x) == string(y)
}

// notFoundPair is a recorded not_found result and the earlier one of the
// same lookup it is compared with.
type notFoundPair struct {
	first, rc *rulekit.Result
	key       string
}

// resultNotFoundPairs pairs each not_found result of an indistinguishable
// lookup with the first earlier one of the same tool and the same other
// arguments. A write between the two is no reason to skip the pair: it may
// change which condition an identifier is in (a Run stored, an entry
// removed), and the result must not depend on the condition.
func resultNotFoundPairs(p *lint.Pass) []notFoundPair {
	first := map[string]*rulekit.Result{}
	var out []notFoundPair
	for _, rc := range results(p) {
		key := resultLookupKey(rc)
		if key == "" || !rc.RequestError {
			continue
		}
		if kind, _ := rc.Content.Path("error", "kind").Value().(string); kind != string(types.ErrNotFound) {
			continue
		}
		group := rc.Name + "\x00" + key + "\x00" + resultOtherArgs(rc, key)
		f := first[group]
		if f == nil {
			first[group] = rc
			continue
		}
		out = append(out, notFoundPair{f, rc, key})
	}
	return out
}

// resultOtherArgs renders a call's arguments other than key, so that only
// lookups differing in the identifier alone are compared.
func resultOtherArgs(rc *rulekit.Result, key string) string {
	m := map[string]any{}
	for _, a := range rc.Arguments.Items() {
		if a.Key() != key {
			m[a.Key()] = a.Value()
		}
	}
	b, _ := json.Marshal(m)
	return string(b)
}

func checkResultNotFound(p *lint.Pass) {
	for _, pr := range resultNotFoundPairs(p) {
		if pr.key == types.ArgRunID {
			resultReportDiffer(p, pr, "unknown, expired, non-retained and unauthorized Runs must look the same, so return one fixed result with only the run_id changed")
		}
	}
}

func checkResultNotFoundMessage(p *lint.Pass) {
	for _, pr := range resultNotFoundPairs(p) {
		if pr.key != types.ArgRunID {
			resultReportDiffer(p, pr, "if one name is unauthorized and the other nonexistent this tells them apart (inferred: the recording does not say which); return one fixed result with only the identifier changed, or a close-match hint computed only from entries the caller can see")
		}
	}
}

// resultReportDiffer reports the first place, message first, where a
// not_found result differs from the earlier one of its lookup beyond the
// identifier.
func resultReportDiffer(p *lint.Pass, pr notFoundPair, advice string) {
	fid, _ := pr.first.Arguments.Str(pr.key)
	id, _ := pr.rc.Arguments.Str(pr.key)
	for _, path := range [][]string{{"structuredContent", "error", "message"}, {"structuredContent"}, {"content"}, nil} {
		a, b := pr.first.Result.Path(path...), pr.rc.Result.Path(path...)
		if resultSame(a, b, fid, id) {
			continue
		}
		at := b
		if at == nil {
			at = pr.rc.Result
		}
		other := a
		if other == nil {
			other = pr.first.Result
		}
		p.With(lint.Also{Node: other, Note: fmt.Sprintf("the not_found result for %s %q, which it should match", pr.key, fid)}).Report(at, "this not_found result for %s %q differs from the one for %q beyond the identifier; %s", pr.key, id, fid, advice)
		return
	}
}
