package calls

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func callBindingRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-context-binding-accepted", Severity: lint.Error, Spec: "Part II §5.1, §6.4, §6.5.5",
			Quote:   "For such a Language: missing context; malformed context; context that does not satisfy the schema MUST produce a diagnostic with code `context_binding`.",
			Keyword: "MUST",
			Summary: "A Language with context_schema accepted a request without context, or with context that breaks that schema: valid: true, or a Run with ok: true.",
			Doc:     "For a Language that requires context, missing context, or context that does not satisfy its context_schema, must fail with a context_binding diagnostic, at validate and at execute alike (Part II §6.4, §6.5.5). Accepting it means the program was checked against bindings the Client never supplied. A Language that declares context_schema requires context: the Language-entry field table says context_schema \"MUST be present when the Language requires validation context. It MUST otherwise be absent\" (Part II §5.1), so a validate or inline execute without context (absent or null) that is accepted breaks §6.4. Supplied context is validated offline against the manifest's context_schema with the schema library (schemacheck.FitOf): a schema that cannot be judged offline (it does not compile, or holds an external $ref or a keyword no engine here evaluates) is not judged, and a format the schema's dialect leaves to each validator (draft-07, zod-to-json-schema's default) never causes a finding, since a correct server may ignore it.",
			Bad:     `{"name": "validate_query", "arguments": {"query": "select 1", "context": {"schema": 7}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}}`,
			Good:    `{"name": "validate_query", "arguments": {"query": "select 1", "context": {"schema": 7}}, "result": {"structuredContent": {"valid": false, "diagnostics": [{"severity": "error", "code": "context_binding", "path": "/schema", "message": "schema must be a string"}]}}}`,
			Scope:   "Validate calls and inline-program execute calls of a Language declaring context_schema, answered valid: true or with a Run whose outcome is ok, that carry no context (absent or null) or context the schema certainly rejects (whatever the validator does with a format draft-07 leaves to it). Not judged: a context_schema that cannot be judged offline, a program_ref execute (its body is not re-validated as an inline program is, Part II §6.5.2 step 3), a replay, a call of another Language on a shared tool, and under a later minor a call whose request or Language carries what 1.1 does not define.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "When the same key is supplied with the same runnable and input, the Server returns the recorded result of the original Run without further processing.", Fixture: "good-replay"},
				{Spec: "Part II §11.1", Quote: "They may add: - OPTIONAL fields; - sub-features; - reserved values.", Fixture: "good-later-minor"},
			},
			Check: checkCallContextBinding,
		},
		{
			ID: "call-promoted-input-unchecked", Severity: lint.Error, Spec: "Part II §6.5.2, §6.5.5",
			Quote:   "For a promoted program, `input` MUST be validated against the catalog entry's `input_schema`.",
			Keyword: "MUST",
			Summary: "An execute request with program_ref ran although its input breaks the input_schema of the promoted entry recorded in the same snapshot.",
			Doc:     "A promoted program declares its parameters as the input_schema of its catalog entry, and execute validates input against it before any side effect, refusing with validation_error and an input_binding diagnostic (Part II §6.5.2, §6.5.5). A Run that starts with input its own entry rejects executes with values nobody checked. The rule needs the promoted entry in a recorded catalog response of the same Language; a request without input is not judged. Input is validated with the schema library (schemacheck.FitOf): an input_schema that cannot be judged offline is not judged, and a format the schema's dialect leaves to each validator (draft-07) never causes a finding.",
			Bad:     `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "auto_001"}, "result": {"structuredContent": {"entry": {"id": "auto_001", "kind": "automation", "name": "Night lock", "risk": "write", "input_schema": {"type": "object", "properties": {"hour": {"type": "integer"}}}}, "catalog_version": "cv_1"}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001", "input": {"hour": "late"}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "auto_001"}, "result": {"structuredContent": {"entry": {"id": "auto_001", "kind": "automation", "name": "Night lock", "risk": "write", "input_schema": {"type": "object", "properties": {"hour": {"type": "integer"}}}}, "catalog_version": "cv_1"}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001", "input": {"hour": 22}}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Scope:   "program_ref executes that started a new Run with input, against the input_schema of the entry of that id last recorded for the Language, when the Run's expected_catalog_version is the token of the answer that showed the entry or only reads lie between the two, and the schema certainly rejects the input (whatever the validator does with a format draft-07 leaves to it). A replay is not judged, nor an input_schema that cannot be judged offline.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.5.2", Quote: "The first failing check determines the response.", Fixture: "good-refused"},
			},
			Check: checkCallPromotedInput,
		},
		{
			ID: "call-program-ref-undeclared", Severity: lint.Error, Spec: "Part III §4.6",
			Quote:        "An execute tool supporting promoted programs MUST still declare `program_ref` in `properties`.",
			Keyword:      "MUST",
			Summary:      "An execute tool answered a program_ref request with a Run, so it supports promoted programs, but its inputSchema does not declare program_ref.",
			Doc:          "A generic Client builds execute requests from the tool's inputSchema, so an execute tool that runs promoted programs must declare program_ref in properties even though the runnable selection is checked in the handler (Part III §4.4, §4.6). A recorded execute call whose program_ref was answered with a started Run, or refused with promotion_drift, shows the tool supports promoted programs; a not_found answer shows nothing, since an unknown reference draws it either way, nor does a validation_error or catalog_drift refusal, which a server that never read program_ref may give.",
			Bad:          `tools/list run_flow {"inputSchema": {"properties": {"flow": {}, "trace_level": {"type": "string"}}}}   run_flow {"program_ref": "auto_001"} -> {"run_id": "run_0005", "outcome": {"ok": true, ...}}`,
			Good:         `tools/list run_flow {"inputSchema": {"properties": {"flow": {}, "program_ref": {"type": "string"}, "trace_level": {"type": "string"}}}}   run_flow {"program_ref": "auto_001"} -> {"run_id": "run_0005", "outcome": {"ok": true, ...}}`,
			Scope:        "Execute tools of the recorded listing whose inputSchema, read as a validator applies it (a root $ref such as Pydantic's recursive model, allOf parts such as zod's .and()), declares members but not program_ref, when a recorded program_ref request to them was answered with a started Run or a promotion_drift refusal. A schema with a part behind an external $ref or a conditional branch (anyOf, if), which may declare program_ref, is not judged.",
			NoExceptions: "Part II §6.5.1 and Part III §4.4, §4.6 were read: a Server accepts program_ref exactly when it exposes promoted programs, and an execute tool that does MUST declare it; an answer of not_found shows no support and is not judged.",
			Check:        checkCallProgramRefUndeclared,
		},
	}
}

// callSchemaRejects reports whether a schema found in an input certainly
// rejects value, as the schema library validates it (schemacheck.FitOf): a
// schema that cannot be judged offline (it does not compile, holds an
// external $ref or a keyword no engine here evaluates) rejects nothing
// here, and neither does a format that the schema's dialect leaves to each
// validator (draft-07's), which a correct server may ignore.
func callSchemaRejects(schema, value *source.Node) bool {
	fit, _ := schemacheck.FitOf(schema, value.Value())
	return fit.Rejects()
}

func checkCallContextBinding(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.Calls {
		if c.Op != snapshot.OpValidate && c.Op != snapshot.OpExecute || c.Lang == nil || !rulekit.Accepted(c) {
			continue
		}
		schema := c.Lang.Node.Get("context_schema")
		// A promoted program is not re-validated as an inline program is
		// (Part II §6.5.2 step 3); a replay returns its original's answer
		// without processing its context; what a later minor added may
		// supply context another way.
		if !schema.IsObject() && !schema.IsBool() || c.Program == nil || m.ReplayOf(c) != nil || m.Extended(c) {
			continue
		}
		ctx := rulekit.Present(c, types.ArgContext)
		switch {
		case ctx == nil:
			p.With(lint.Also{Node: schema, Note: "the context_schema of the Language, present because it requires validation context"}).ReportMissing(c.Arguments, "%s accepted a request without context although %s declares context_schema, which is present only when the Language requires validation context: answer missing context with a context_binding diagnostic", c.Name, c.Lang.Label())
		case callSchemaRejects(schema, ctx):
			p.Report(ctx, "%s accepted context that does not satisfy the context_schema of %s: such context must fail with a context_binding diagnostic", c.Name, c.Lang.Label())
		}
	}
}

func checkCallPromotedInput(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		if !m.NewRun(c) || m.Extended(c) {
			continue
		}
		ref, in := rulekit.Present(c, types.ArgProgramRef), rulekit.Present(c, types.ArgInput)
		if !ref.IsString() || in == nil || c.Program != nil {
			continue
		}
		lang := c.Lang
		if lang == nil && len(p.Snap.Languages) == 1 {
			lang = p.Snap.Languages[0]
		}
		// The entry judges the Run only as the catalog stood when it ran:
		// the Run started under the token of the answer that showed the
		// entry (the Server vouching that nothing moved), or nothing
		// between them could have changed it.
		tok, _ := rulekit.Present(c, types.ArgExpectedCatalogVersion).Value().(string)
		e, ok := m.EntryAt(lang, ref.Text(), c, tok, "")
		if !ok {
			continue
		}
		if s := e.Node.Get("input_schema"); s != nil && callSchemaRejects(s, in) {
			p.Report(in, "%s ran promoted program %s with input its catalog entry's input_schema rejects: validate input against input_schema and refuse with validation_error and an input_binding diagnostic", c.Name, ref.Text())
		}
	}
}

func checkCallProgramRefUndeclared(p *lint.Pass) {
	reported := map[*snapshot.Tool]bool{}
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		ref := rulekit.Present(c, types.ArgProgramRef)
		t := p.Snap.Tool(c.Name)
		// Only a started Run or a promotion_drift refusal shows the
		// reference resolved: a validation_error or catalog_drift answer
		// may come from a server that never read program_ref at all.
		status, _ := c.StructuredContent.Path("outcome", "status").Value().(string)
		if !ref.IsString() || t == nil || reported[t] || !rulekit.Started(c) && status != string(types.StatusPromotionDrift) {
			continue
		}
		// Read as a validator applies the schema: a named root ($ref into
		// $defs, as Pydantic writes a recursive model) and allOf parts
		// (zod's .and()) declare members too. A schema that declares no
		// member at all is left alone, as is one with a part the Resolver
		// cannot see, which may declare program_ref.
		r := schemacheck.NewResolver(t.InputSchema)
		ps := r.Keywords(t.InputSchema, "properties")
		if len(ps) == 0 || !ps[0].IsObject() || len(r.Declarations(t.InputSchema, types.ArgProgramRef)) > 0 {
			continue
		}
		if !r.Whole(t.InputSchema) {
			p.Skip("program_ref among the members of " + c.Name + "'s inputSchema (part of it is behind a $ref outside the document or applies only under a condition)")
			continue
		}
		props := ps[0]
		reported[t] = true
		p.With(lint.Also{Node: ref, Note: "a recorded request it answered with a Run"}).Report(props, "%s answered a program_ref request with a Run, so it supports promoted programs, but its inputSchema does not declare program_ref: add \"program_ref\": {\"type\": \"string\"} to its properties", c.Name)
	}
}
