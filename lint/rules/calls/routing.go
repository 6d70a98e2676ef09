package calls

import (
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The call rules judge a recorded request and its response together, and
// against the other recorded calls of the snapshot: most server duties are
// "when asked X, answer Y", which no single result shows. They read the
// classified view snapshot.CallView.

func callRoutingRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-carrier-error-loop-fault", Severity: lint.Error, Spec: "Part III §4.6, §7.1",
			Quote:   "A Server MUST NOT return a protocol error for a loop-tool value or eligibility fault.",
			Keyword: "MUST NOT",
			Summary: "A loop-tool request with no structural fault was answered with a JSON-RPC invalid-params or invalid-request error.",
			Doc:     "Only structural faults (a missing schema-required member, a wrong JSON type) may surface as JSON-RPC errors on a loop tool; every value or eligibility fault, an invalid program and a failed Run travel as a request error or in structuredContent (Part III §4.6, §7.1). The rule validates the whole recorded arguments object against the tool's own inputSchema with the schema library, as an SDK would, $ref, allOf and nullable anyOf included: when nothing in it is missing or of the wrong JSON type at any depth and the server still answered -32602 or -32600, the Client loses the error kind or the diagnostics it needs to fix its request. Arguments that fail the schema only by a value constraint it should not carry (an enum on trace_level) are a value fault answered on the carrier too, and the message names it. Internal errors (-32603) and other codes are left alone, since a client-side timeout is recorded the same way.",
			Bad:     `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "mode": "immediate", "trace_level": "verbose"}, "error": {"code": -32602, "message": "trace_level must be one of none, summary, full"}}`,
			Good:    `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "mode": "immediate", "trace_level": "verbose"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "unknown trace_level"}}}}`,
			Scope:   "Recorded calls to a validate, execute or trace-fetch tool that the recorded listing carries, answered with JSON-RPC -32602 or -32600, in any Language and manifest version. Not judged: other codes (-32603 and the like, which is also what a client-side timeout records); the fixed access tools, whose binding schemas are strict on purpose; arguments with a structural fault anywhere in them; and a call whose inputSchema cannot be judged offline (it does not compile, or holds an external $ref or a keyword no engine here evaluates). A format draft-07 leaves to the validator is a value fault whether or not it asserts, so it excuses nothing.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "good-missing-required"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "good-composed-schema"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "good-nested-type"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "good-program-wrong-type"},
				{Spec: "Part III §7.1", Quote: "A schema violation against those access tools is carrier-level.", Fixture: "good-access-tool"},
			},
			Check: checkCallCarrierLoopFault,
		},
		{
			ID: "call-execute-request-fault-accepted", Severity: lint.Error, Spec: "Part II §6.5.1, §6.5.2",
			Quote:   "The Server MUST process execute requests in the following order.",
			Keyword: "MUST",
			Summary: "An execute request that fails the request well-formedness check was answered with a Run instead of a request error.",
			Doc:     "The first check of an execute request is its well-formedness: exactly one runnable, a recognized trace_level, test_run only where execute.test_run is declared, no idempotency_key reused with a different runnable or input; a failure there is a request error and nothing runs (Part II §6.5.1, §6.5.2, §6.5.6). A server that runs such a request anyway has ignored a member the Client meant (a test run executed for real, both runnables with one silently dropped).",
			Bad:     `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "program_ref": "auto_001", "mode": "immediate"}, "result": {"structuredContent": {"run_id": "run_9", "outcome": {"ok": true, "status": "success", "error": null}}}}`,
			Good:    `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "program_ref": "auto_001", "mode": "immediate"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "send flow or program_ref, not both"}}}}`,
			Scope:   "Execute calls answered with a Run, started or refused: both runnables, more than one program-bearing argument, neither runnable, an unknown trace_level, test_run: true without execute.test_run, or an idempotency_key that a deduplication window certainly covering both holds for another runnable or input. A replay is not judged; under a later minor neither is an unknown trace_level, nor a request without a runnable that carries a member 1.1 does not define.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "An idempotency replay is not an error.", Fixture: "good-replay"},
				{Spec: "Part II §11.1", Quote: "They may add: - OPTIONAL fields; - sub-features; - reserved values.", Fixture: "good-later-minor"},
				{Spec: "Part II §6.5.6", Quote: "The Server's deduplication window MUST be at least as long as the declared retention period.", Fixture: "good-window-closed"},
			},
			Check: checkCallExecuteRequestFault,
		},
		{
			ID: "call-store-unsupported", Severity: lint.Error, Spec: "Part II §6.5; Part III §7.2",
			Quote:   "A Server whose declared retention is `\"none\"` MUST reject the request with a request error of kind `unsupported`.",
			Keyword: "MUST",
			Summary: "An execute request with store: true to a Language with retention \"none\" was not rejected with a request error of kind unsupported.",
			Doc:     "store: true asks the Engine to keep the run record for the fetch door; under declared retention \"none\" it cannot, and the Server must say so with the unsupported kind rather than run and silently drop the record (Part II §6.5, Part III §7.2). The Client then knows its later trace fetch would fail before it lets side effects happen.",
			Bad:     `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "store": true}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}`,
			Good:    `{"name": "run_flow", "arguments": {"flow": {"steps": []}, "store": true}, "result": {"isError": true, "structuredContent": {"error": {"kind": "unsupported", "message": "this Engine retains no runs"}}}}`,
			Scope:   "Execute calls with store: true to a Language declaring retention \"none\", answered with a result, or with a request error of another kind than unsupported when no earlier well-formedness check could fail (whatever minor the manifest declares), the kind is not internal (a malfunction), and, under a later minor, the kind is one 1.1 defines. Not judged: a replay, and under a later minor a call whose request or Language carries what 1.1 does not define.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
				{Spec: "Part II §6.5.2", Quote: "The first failing check determines the response.", Fixture: "good-earlier-fault"},
			},
			Check: checkCallStoreUnsupported,
		},
		{
			ID: "call-changed-since-baseline-kind", Severity: lint.Error, Spec: "Part II §6.3; Part III §7.2",
			Quote:   "When the Server cannot calculate changes from the supplied token, it MUST return a distinguishable unknown-baseline request error.",
			Keyword: "MUST",
			Summary: "A changed_since request for a known Language that declares the verb was refused as not_found instead of unknown_baseline.",
			Doc:     "A Client holding an old catalog_version asks what changed; when the Server cannot tell, the unknown_baseline kind tells the Client to fall back to a full listing (Part II §6.3). Answered not_found or internal instead, the Client cannot tell a lost baseline from a missing Language or a broken server. The rule judges only requests whose Language is in the manifest and declares catalog.changed_since and which carry a catalog_version string, so no other refusal applies.",
			Bad:     `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "changed_since", "catalog_version": "cv_old"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "unknown version"}}}}`,
			Good:    `{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "changed_since", "catalog_version": "cv_old"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "unknown_baseline", "message": "baseline too old"}}}}`,
			Scope:   "changed_since requests for a Language of the manifest that declares catalog.changed_since, carrying a catalog_version string, refused with kind not_found.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.3", Quote: "This verb is available only when `catalog.changed_since` is declared.", Fixture: "good-undeclared"},
				{Spec: "Part III §7.2", Quote: "Unknown guide, topic, catalog entry, Language, promoted reference, or Run", Fixture: "good-unknown-language"},
			},
			Check: checkCallChangedSinceKind,
		},
		{
			ID: "call-guide-index-refused", Severity: lint.Error, Spec: "Part II §6.2; Part III §4.1",
			Quote:   "A Server MUST support the index form so that a Client can choose which guides to retrieve without first loading their content.",
			Keyword: "MUST",
			Summary: "A pilotage_get_guide request without id, for a Language of the manifest, was refused.",
			Doc:     "The index form (pilotage_get_guide with language and no id) is how a Client learns which guides exist before loading any (Part II §6.2). A Server that refuses it, with a request error or a JSON-RPC error, leaves the Client to guess guide ids. Only requests carrying nothing but a language the manifest lists are judged.",
			Bad:     `{"name": "pilotage_get_guide", "arguments": {"language": "flow/1"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "id is required"}}}}`,
			Good:    `{"name": "pilotage_get_guide", "arguments": {"language": "flow/1"}, "result": {"structuredContent": {"guides": [{"id": "quickstart", "title": "First flow", "level": "core", "topics": ["steps"], "language": "flow/1", "version": "1", "size_bytes": 900}]}}}`,
			Scope:   "pilotage_get_guide requests carrying only a language the manifest lists, answered with a request error other than internal (a malfunction), or with JSON-RPC error -32602 or -32600 when the recording lists the tool; a request with a structural fault against the tool's inputSchema, validated whole with the schema library (a member an allOf part or a root $ref requires counts), is left out, and so is one whose inputSchema cannot be judged offline; so are other carrier codes, which a recording client also writes for its own timeout.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.1", Quote: "An unknown: - `language`; - `id`; - `topic` is a request error under Section 7.", Fixture: "good-unknown-language"},
				{Spec: "Part III §1.3", Quote: "A Server MAY hide those tools from Clients that did not declare Pilotage.", Fixture: "good-hidden"},
			},
			Check: checkCallGuideIndexRefused,
		},
	}
}

// callIsLoop reports whether a call went to a loop tool.
func callIsLoop(c *snapshot.Call) bool {
	return c.Op == snapshot.OpValidate || c.Op == snapshot.OpExecute || c.Op == snapshot.OpTraceFetch
}

func checkCallCarrierLoopFault(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		if !callIsLoop(c) || c.Channel != snapshot.ChannelCarrier {
			continue
		}
		t := p.Snap.Tool(c.Name)
		code := c.Error.Get("code")
		if t == nil || code == nil || code.Text() != "-32602" && code.Text() != "-32600" {
			continue
		}
		// MCP's arguments member is optional; an SDK validates its
		// absence as {}.
		var args any = map[string]any{}
		if c.Arguments != nil {
			args = c.Arguments.Value()
		}
		// A format the dialect leaves to the validator is a value fault
		// either way, so it never excuses a protocol error.
		structural, decided, err := schemacheck.Structural(t.InputSchema, args)
		switch {
		case !decided || structural:
		case err == nil:
			p.Report(code, "%s answered a request that satisfies its inputSchema with JSON-RPC error %s: return value and eligibility faults as a request error (isError: true, structuredContent.error.kind) and invalid programs as diagnostics", c.Name, code.Text())
		default:
			p.Report(code, "%s answered a request whose only fault against its inputSchema is a value fault (%s) with JSON-RPC error %s: only a missing required member or a wrong JSON type may be a protocol error, so return the fault as a request error (isError: true, structuredContent.error.kind) and drop the value constraint from the schema", c.Name, schemacheck.FaultText(err), code.Text())
		}
	}
}

// callExecuteFault returns the first well-formedness fault of an execute
// request that the snapshot can decide (Part II §6.5.2 step 1, less the
// store and idempotency checks, which have rules of their own), with the
// value to point at. With honourMinor, under a manifest of a later minor,
// a trace_level 1.1 does not know may be one that minor added, and a
// request carrying a member 1.1 does not define may select its runnable
// through it: neither is a fault. Without it, every fault that could have
// come first is named, as a rule excusing a later check needs.
func callExecuteFault(s *snapshot.Snapshot, c *snapshot.Call, honourMinor bool) (*source.Node, string) {
	m := rulekit.Of(s)
	later := honourMinor && m.LaterMinor()
	ref := rulekit.Present(c, types.ArgProgramRef)
	if s.Tool(c.Name).ProgramDeclaration() != nil {
		switch n := c.Programs; {
		case n > 0 && ref != nil:
			return ref, "both an inline program and program_ref"
		case n > 1:
			return c.Arguments, "more than one program-bearing argument"
		case n == 0 && ref == nil && c.Arguments.IsObject() && !(later && m.Extended(c)):
			return c.Arguments, "neither an inline program nor program_ref"
		}
	}
	if tl := c.Arg(types.ArgTraceLevel); tl.IsString() && !types.TraceLevel(tl.Text()).IsKnownRequest(types.StageExecute) && !later {
		return tl, "the unknown trace_level " + strconv.Quote(tl.Text())
	}
	// test_run: false asks for what the Server does anyway; only a
	// test run requested without the sub-feature is judged.
	if tr := c.Arg(types.ArgTestRun); rulekit.True(tr) && c.Lang != nil && c.Lang.Caps.Exists() && !c.Lang.Caps.SubFeature(string(types.CapExecute), types.SubTestRun) {
		return tr, "test_run, which " + c.Lang.Label() + " does not declare (execute.test_run)"
	}
	return nil, ""
}

func checkCallExecuteRequestFault(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		if !c.Succeeded() || !c.StructuredContent.Get("outcome").IsObject() {
			continue
		}
		// "An idempotency replay is not an error" (Part II §6.5.2): the
		// recorded result comes back without further processing.
		if m.ReplayOf(c) != nil {
			continue
		}
		if at, what := callExecuteFault(p.Snap, c, true); at != nil {
			p.Report(at, "%s ran a request carrying %s: reject it with a request error of kind invalid_request before anything runs", c.Name, what)
			continue
		}
		if f := m.Conflict(c); f != nil {
			p.With(lint.Also{Node: f.Arg(types.ArgIdempotencyKey), Note: "the earlier request that holds the key"}).Report(c.Arg(types.ArgIdempotencyKey), "%s answered a request that reuses idempotency_key %q with a different runnable or input: reject it with a request error of kind idempotency_conflict", c.Name, c.Arg(types.ArgIdempotencyKey).Text())
		}
	}
}

// callCarrierRefusal reports whether a JSON-RPC error refuses the request
// itself: invalid params (-32602) or invalid request (-32600). Other codes
// are malfunctions, or what a client records for its own timeout.
func callCarrierRefusal(c *snapshot.Call) bool {
	code := c.Error.Get("code")
	return code != nil && (code.Text() == "-32602" || code.Text() == "-32600")
}

func checkCallStoreUnsupported(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		store := c.Arg(types.ArgStore)
		// A replay returns the original Run's recorded result without
		// further processing (Part II §6.5.2), its store unread.
		if !rulekit.True(store) || m.ReplayOf(c) != nil || m.Extended(c) {
			continue
		}
		_, pol, ok := rulekit.Retention(c.Lang)
		if !ok || pol.Kind != types.RetentionKindNone {
			continue
		}
		switch c.Channel {
		case snapshot.ChannelResult:
			p.Report(store, "%s accepted store: true although %s declares retention \"none\": reject the request with a request error of kind unsupported", c.Name, c.Lang.Label())
		case snapshot.ChannelRequestError:
			// An earlier well-formedness check fails first (Part II
			// §6.5.2): its kind is the right answer, whatever minor the
			// manifest declares. internal is a malfunction, not an
			// answer to store, and a later minor may add kinds.
			if at, _ := callExecuteFault(p.Snap, c, false); at != nil {
				continue
			}
			if c.ErrorKind == string(types.ErrNotFound) && rulekit.Present(c, types.ArgProgramRef) != nil || c.ErrorKind == string(types.ErrInternal) {
				continue
			}
			if m.LaterMinor() && !types.ErrorKind(c.ErrorKind).IsKnown() {
				continue
			}
			if c.ErrorKind != string(types.ErrUnsupported) {
				at := c.StructuredContent.Path("error", "kind")
				if at == nil {
					at = c.StructuredContent.Get("error")
				}
				p.Report(at, "%s refused store: true under retention \"none\" with kind %q: use the kind unsupported, which tells the Client the Engine retains nothing", c.Name, c.ErrorKind)
			}
		}
	}
}

func checkCallChangedSinceKind(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		if c.Verb != string(types.VerbChangedSince) || c.Channel != snapshot.ChannelRequestError || c.Lang == nil {
			continue
		}
		if !c.Arg("catalog_version").IsString() || !c.Lang.Caps.SubFeature(string(types.CapCatalog), types.SubChangedSince) {
			continue
		}
		// invalid_request stays possible (a member inapplicable to the verb)
		// and internal is a malfunction; not_found can only mean the
		// baseline, since the Language is known.
		if c.ErrorKind == string(types.ErrNotFound) {
			p.Report(c.StructuredContent.Path("error", "kind"), "pilotage_catalog refused changed_since with kind %q for a Language that declares it: when the baseline token cannot be used, answer kind unknown_baseline so the Client falls back to a full listing", c.ErrorKind)
		}
	}
}

func checkCallGuideIndexRefused(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpGuideIndex) {
		if c.Lang == nil || c.Channel != snapshot.ChannelRequestError && c.Channel != snapshot.ChannelCarrier {
			continue
		}
		// A refusal says the request was wrong: kind internal is a
		// malfunction, and a carrier error other than invalid params or
		// invalid request may be the recording client's own timeout.
		if c.ErrorKind == string(types.ErrInternal) || c.Channel == snapshot.ChannelCarrier && !callCarrierRefusal(c) {
			continue
		}
		// Any member besides language (a topic, say) may make the
		// request inapplicable; only the bare index form is judged.
		if len(c.Arguments.Items()) != 1 {
			continue
		}
		// A request with a structural fault against the tool's own schema
		// (validated whole, as an SDK does: a required member in an allOf
		// part or behind a root $ref counts) may be refused on that
		// ground; one whose schema cannot be judged offline is left out.
		t := p.Snap.Tool(c.Name)
		if t != nil && t.InputSchema != nil {
			if structural, decided, _ := schemacheck.Structural(t.InputSchema, c.Arguments.Value()); structural || !decided {
				continue
			}
		}
		// A Server MAY hide its Pilotage tools from a Client that did not
		// declare Pilotage (Part III §1.3): a carrier error for a tool the
		// recorded listing lacks is the unknown-tool error it owes.
		if t == nil && c.Channel == snapshot.ChannelCarrier {
			continue
		}
		at := c.Error
		if at == nil {
			at = c.StructuredContent.Get("error")
		}
		p.Report(at, "pilotage_get_guide refused the index form for %s: answer a request without id with the guide index, every guide's metadata without its body", c.Lang.Label())
	}
}
