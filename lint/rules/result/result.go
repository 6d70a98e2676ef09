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

// resultDecode decodes a node into v through its plain value.
func resultDecode(n *source.Node, v any) bool {
	b, err := json.Marshal(n.Value())
	return err == nil && json.Unmarshal(b, v) == nil
}

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
			Check:   checkResultStructuredContent,
		},
		&lint.Rule{
			ID: "result-is-error-misused", Severity: lint.Error, Spec: "Part III §6, §7.1",
			Quote:   "For both, `isError` MUST be `false`.",
			Keyword: "MUST",
			Summary: "A validation result or a Run outcome is returned with isError: true.",
			Doc:     "An invalid program (valid: false) and a failed Run (ok: false) are successful tool results: the diagnostics and the outcome are the answer, and isError MUST be false (Part III §6, §7.1). MCP hosts treat isError: true as a tool failure and may hide the result from the model or retry, so the agent never sees the diagnostics it needs to fix its program.",
			Bad:     `{"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}, "isError": true}`,
			Good:    `{"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "constraint", "path": "", "message": "empty flow"}]}, "isError": false}`,
			Check:   checkResultIsErrorMisused,
		},
		&lint.Rule{
			ID: "result-request-error-unflagged", Severity: lint.Error, Spec: "Part III §7.1, §7.2, §10.1",
			Quote:   "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword: "MUST",
			Summary: "A request error ({error: {kind, message}}) is returned without isError: true.",
			Doc:     "A request error (unknown guide, bad verb, expired run) travels as a CallToolResult with isError: true (Part III §7.1). Without the flag, hosts and agents take the error object for a successful answer of an unexpected shape.",
			Bad:     `{"structuredContent": {"error": {"kind": "not_found", "message": "unknown guide"}}, "isError": false}`,
			Good:    `{"structuredContent": {"error": {"kind": "not_found", "message": "unknown guide"}}, "isError": true}`,
			Check:   checkResultRequestErrorUnflagged,
		},
		&lint.Rule{
			ID: "result-request-error-shape", Severity: lint.Error, Spec: "Part III §7.2, §10.1",
			Quote:   "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword: "MUST",
			Summary: "A result with isError: true lacks the request-error shape {error: {kind, message}}.",
			Doc:     "Clients branch on structuredContent.error.kind (Part III §7.2): a request error without it, with the kind elsewhere, or with only text content cannot be told apart from a malfunction, so the agent cannot decide whether to fix its request, retry or give up.",
			Bad:     `{"structuredContent": {"message": "no such guide"}, "isError": true}`,
			Good:    `{"structuredContent": {"error": {"kind": "not_found", "message": "no such guide"}}, "isError": true}`,
			Check:   checkResultRequestErrorShape,
		},
		&lint.Rule{
			ID: "result-error-kind-unknown", Severity: lint.Error, Spec: "Part III §7.2, §10.1",
			Quote:   "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements. [...] 9. Error mapping: It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2.",
			Keyword: "MUST",
			Summary: "A request error's kind is not in the closed set of Part III §7.2.",
			Doc:     "The kind belongs to a closed set: not_found, invalid_request, unknown_baseline, idempotency_conflict, bounds_exceeded, unsupported, internal. A client receiving another value treats it as internal, so an agent that could have fixed its request (invalid_request) or fallen back to a full listing (unknown_baseline) gives up instead.",
			Bad:     `{"structuredContent": {"error": {"kind": "bad_request", "message": "verb get needs id"}}, "isError": true}`,
			Good:    `{"structuredContent": {"error": {"kind": "invalid_request", "message": "verb get needs id"}}, "isError": true}`,
			Check:   checkResultErrorKind,
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
	for _, rc := range rulekit.Results(p.Snap) {
		switch {
		case rc.Content == nil:
			p.ReportMissing(rc.Result, "the %s result has no structuredContent; put the Part II response object in structuredContent and keep content as a text rendering of it", rc.Name)
		case !rc.Content.IsObject():
			p.Report(rc.Content, "the structuredContent of the %s result is %s; it must be the Part II response object", rc.Name, rc.Content.Kind.Article())
		}
	}
}

func checkResultIsErrorMisused(p *lint.Pass) {
	for _, rc := range rulekit.Results(p.Snap) {
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
	for _, rc := range rulekit.Results(p.Snap) {
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
	for _, rc := range rulekit.Results(p.Snap) {
		if !rulekit.True(rc.Result.Get("isError")) || !rc.Content.IsObject() {
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
	if rulekit.LaterMinor(p.Snap.Manifest) {
		return
	}
	for _, rc := range rulekit.Results(p.Snap) {
		if !rc.RequestError {
			continue
		}
		if k := rc.Content.Path("error", "kind"); k.IsString() && !types.ErrorKind(k.Text()).IsKnown() {
			p.Report(k, "request-error kind %q is not in the Part III §7.2 set (not_found, invalid_request, unknown_baseline, idempotency_conflict, bounds_exceeded, unsupported, internal), so clients read it as internal; use the kind that fits", k.Text())
		}
	}
}

func resultNotFoundRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "result-not-found-distinguishable", Severity: lint.Error, Spec: "Part III §7.2; Part II §6.3, §6.5.2, §6.6",
		Quote:   "Where Part II requires two conditions to be indistinguishable, the entire result MUST be indistinguishable, including: - `kind`; - `message`; - `content`; - every other field; - observable response structure.",
		Keyword: "MUST",
		Summary: "Recorded not_found results of one lookup differ in more than the identifier asked for.",
		Doc:     "An unauthorized catalog entry or program reference MUST be indistinguishable from a nonexistent one, and an expired or non-retained Run from an unknown one; the entire result must match, not just the kind: message, content and every other field (Part III §7.2). The linter compares the recorded not_found results of each such lookup (catalog get by id, execute by program_ref, trace fetch by run_id) after replacing the identifier each asked for: a message like \"run expired\" next to \"no such run\" tells a caller which Runs existed.",
		Bad:     `trace_run {"run_id": "r1"} -> {"error": {"kind": "not_found", "message": "run r1 expired"}}   trace_run {"run_id": "r9"} -> {"error": {"kind": "not_found", "message": "no run r9"}}`,
		Good:    `trace_run {"run_id": "r1"} -> {"error": {"kind": "not_found", "message": "unknown run r1"}}   trace_run {"run_id": "r9"} -> {"error": {"kind": "not_found", "message": "unknown run r9"}}`,
		Check:   checkResultNotFound,
	}}
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

func checkResultNotFound(p *lint.Pass) {
	first := map[string]*rulekit.Result{}
	for _, rc := range rulekit.Results(p.Snap) {
		key := resultLookupKey(rc)
		if key == "" || !rc.RequestError {
			continue
		}
		if kind, _ := rc.Content.Path("error", "kind").Value().(string); kind != string(types.ErrNotFound) {
			continue
		}
		group := rc.Name + "\x00" + key
		f := first[group]
		if f == nil {
			first[group] = rc
			continue
		}
		fid, _ := f.Arguments.Str(key)
		id, _ := rc.Arguments.Str(key)
		for _, path := range [][]string{{"structuredContent", "error", "message"}, {"structuredContent"}, {"content"}, nil} {
			a, b := f.Result.Path(path...), rc.Result.Path(path...)
			if !resultSame(a, b, fid, id) {
				at := b
				if at == nil {
					at = rc.Result
				}
				other := a
				if other == nil {
					other = f.Result
				}
				p.With(lint.Also{Node: other, Note: fmt.Sprintf("the not_found result for %s %q, which it should match", key, fid)}).Report(at, "this not_found result for %s %q differs from the one for %q beyond the identifier; unauthorized, expired and nonexistent must look the same, so return one fixed result with only the identifier changed", key, id, fid)
				break
			}
		}
	}
}
