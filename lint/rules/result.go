package rules

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The result rules check recorded tool results: the "calls" of a snapshot
// (pilotage-lint snapshot --calls) or the tools/call exchanges of a
// JSON-RPC capture. They judge what a server actually answered, which no
// static surface shows.

// resultOp is the Pilotage operation a recorded call performed.
type resultOp int

const (
	resultOther resultOp = iota
	resultGuideIndex
	resultGuideFetch
	resultCatalog
	resultValidate
	resultExecute
	resultTraceFetch
)

// resultCall is one recorded call with what the rules need to know about
// it.
type resultCall struct {
	*snapshot.Call
	op resultOp
	// sc is the structuredContent; nil when absent.
	sc *source.Node
	// requestError is true for a result carrying the §7.2 request-error
	// shape (an "error" object at the top of structuredContent).
	requestError bool
	// lang is the Language the call addressed, when it can be told.
	lang *snapshot.Language
	// program is the program argument of a validate or execute call.
	program *source.Node
}

// resultCalls classifies the recorded calls. The tool name decides for the
// fixed tools and the manifest's loop tools; otherwise the shape of the
// structuredContent does, so a capture without a manifest is still
// checked. pilotage_manifest and calls that drew a JSON-RPC error are left
// out: the manifest has its own rules, and a carrier error has no result.
func resultCalls(s *snapshot.Snapshot) []*resultCall {
	if len(s.Calls) == 0 {
		// A listing holds no call; its loop tools are no reason to build
		// the map below for each of the rules that ask (a 10,000-tool
		// listing: 2 MB of its peak RSS).
		return nil
	}
	stages := map[string]*snapshot.LoopTool{}
	for _, lt := range s.LoopTools() {
		stages[lt.Name] = lt
	}
	var out []*resultCall
	for _, c := range s.Calls {
		if c.Name == types.ToolManifest || !c.Result.IsObject() {
			continue
		}
		rc := &resultCall{Call: c, sc: c.Result.Get("structuredContent")}
		rc.requestError = rc.sc.Get("error").IsObject()
		lt := stages[c.Name]
		switch {
		case c.Name == types.ToolGetGuide:
			rc.op = resultGuideIndex
			if c.Arguments.Has("id") {
				rc.op = resultGuideFetch
			}
		case c.Name == types.ToolCatalog:
			rc.op = resultCatalog
		case lt != nil && lt.Serves(types.StageValidate) && len(lt.Stages) == 1:
			rc.op = resultValidate
		case lt != nil && lt.Serves(types.StageExecute) && len(lt.Stages) == 1:
			rc.op = resultExecute
		case lt != nil && lt.Serves(types.StageTraceFetch) && len(lt.Stages) == 1:
			rc.op = resultTraceFetch
		case lt == nil:
			rc.op = resultOpByShape(rc)
		}
		if rc.op == resultOther {
			continue
		}
		rc.lang, rc.program = resultLanguage(s, rc, s.Tool(c.Name), lt)
		out = append(out, rc)
	}
	return out
}

func resultOpByShape(rc *resultCall) resultOp {
	sc := rc.sc
	switch {
	case sc.Get("valid").IsBool():
		return resultValidate
	case sc.Get("outcome").IsObject() && rc.Arguments.Has(types.ArgRunID):
		return resultTraceFetch
	case sc.Get("outcome").IsObject():
		return resultExecute
	case sc.Get("guides").IsArray():
		return resultGuideIndex
	case sc.Get("guide").IsObject():
		return resultGuideFetch
	case sc.Has("items") || sc.Has("entry") || sc.Has("changes"):
		return resultCatalog
	}
	return resultOther
}

// resultLanguage finds the Language of a call: the "language" argument of
// the fixed tools, or the program argument present in a loop tool call, or
// the only Language a loop tool serves.
func resultLanguage(s *snapshot.Snapshot, rc *resultCall, t *snapshot.Tool, lt *snapshot.LoopTool) (*snapshot.Language, *source.Node) {
	if name, ok := rc.Arguments.Str("language"); ok && (rc.op == resultGuideIndex || rc.op == resultGuideFetch || rc.op == resultCatalog) {
		return s.Language(name), nil
	}
	if decl := t.ProgramDeclaration(); decl != nil {
		pairs := []*source.Node{decl}
		if ls := decl.Get("languages"); ls.IsArray() {
			pairs = ls.Kids()
		}
		for _, pr := range pairs {
			arg, _ := pr.Str("argument")
			lang, _ := pr.Str("language")
			if v := rc.Arguments.Get(arg); arg != "" && v != nil {
				return s.Language(lang), v
			}
		}
	}
	if lt != nil {
		for _, ls := range lt.Stages {
			if len(ls) == 1 {
				return ls[0], nil
			}
		}
	}
	if len(s.Languages) == 1 {
		return s.Languages[0], nil
	}
	return nil, nil
}

// resultDecode decodes a node into v through its plain value.
func resultDecode(n *source.Node, v any) bool {
	b, err := json.Marshal(n.Value())
	return err == nil && json.Unmarshal(b, v) == nil
}

func resultTrue(n *source.Node) bool { return n.IsBool() && n.Truth() }

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
	if mr := p.Snap.ManifestResult; mr != nil && !resultTrue(mr.Get("isError")) && mr.Get("structuredContent") == nil {
		p.ReportMissing(mr, "the %s result has no structuredContent, so no Client may read the manifest from it; put the manifest in structuredContent and keep content as a text rendering of it", types.ToolManifest)
	}
	for _, rc := range resultCalls(p.Snap) {
		switch {
		case rc.sc == nil:
			p.ReportMissing(rc.Result, "the %s result has no structuredContent; put the Part II response object in structuredContent and keep content as a text rendering of it", rc.Name)
		case !rc.sc.IsObject():
			p.Report(rc.sc, "the structuredContent of the %s result is %s; it must be the Part II response object", rc.Name, rc.sc.Kind.Article())
		}
	}
}

func checkResultIsErrorMisused(p *lint.Pass) {
	for _, rc := range resultCalls(p.Snap) {
		isErr := rc.Result.Get("isError")
		if !resultTrue(isErr) || rc.requestError {
			continue
		}
		switch {
		case rc.sc.Get("valid").IsBool():
			p.Report(isErr, "the %s result is a validation result (valid: %t) but sets isError: true; diagnostics are a successful tool result, so set isError to false", rc.Name, rc.sc.Get("valid").Truth())
		case rc.sc.Get("outcome").IsObject():
			p.Report(isErr, "the %s result carries a Run outcome but sets isError: true; a failed Run is a successful tool result, so set isError to false", rc.Name)
		}
	}
}

func checkResultRequestErrorUnflagged(p *lint.Pass) {
	for _, rc := range resultCalls(p.Snap) {
		if !rc.requestError || resultTrue(rc.Result.Get("isError")) {
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
	for _, rc := range resultCalls(p.Snap) {
		if !resultTrue(rc.Result.Get("isError")) || !rc.sc.IsObject() {
			continue
		}
		if rc.sc.Get("valid").IsBool() || rc.sc.Get("outcome").IsObject() {
			continue // result-is-error-misused explains it
		}
		e := rc.sc.Get("error")
		switch {
		case e == nil:
			p.ReportMissing(rc.sc, "the %s result sets isError: true but its structuredContent has no \"error\" object; return {\"error\": {\"kind\": ..., \"message\": ...}}", rc.Name)
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
	for _, rc := range resultCalls(p.Snap) {
		if !rc.requestError {
			continue
		}
		if k := rc.sc.Path("error", "kind"); k.IsString() && !types.ErrorKind(k.Text()).IsKnown() {
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
func resultLookupKey(rc *resultCall) string {
	switch rc.op {
	case resultTraceFetch:
		return types.ArgRunID
	case resultExecute:
		if rc.Arguments.Get(types.ArgProgramRef).IsString() {
			return types.ArgProgramRef
		}
	case resultCatalog:
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
	first := map[string]*resultCall{}
	for _, rc := range resultCalls(p.Snap) {
		key := resultLookupKey(rc)
		if key == "" || !rc.requestError {
			continue
		}
		if kind, _ := rc.sc.Path("error", "kind").Value().(string); kind != string(types.ErrNotFound) {
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
