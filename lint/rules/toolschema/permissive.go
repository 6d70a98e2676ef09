package toolschema

import (
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Permissive loop schemas (Part III §4.6): many MCP SDKs validate tool
// arguments against inputSchema before the handler runs (Part IV §11), so
// anything but a missing required member or a wrong JSON type that the
// schema rejects lands on the carrier channel instead of coming back as a
// Pilotage request error or diagnostic.

func permissiveRules() []*lint.Rule {
	const spec = "Part III §4.6"
	return []*lint.Rule{
		&lint.Rule{
			ID: "toolschema-loop-schema-closed", Severity: lint.Error, Spec: spec,
			Quote:   "Loop-tool `inputSchema` definitions MUST therefore remain permissive.",
			Keyword: "MUST",
			Summary: "A loop tool's inputSchema rejects unknown members or constrains members across each other.",
			Doc:     "Loop-tool inputSchema definitions MUST remain permissive (Part III §4.6): only structural faults, a missing schema-required member or an incorrect JSON type, may be expressed by the schema, and a loop-tool schema MUST NOT set additionalProperties: false. So nothing at its top level (the root, a root $ref's target, each member of a top-level allOf) may reject a request for what it contains rather than for a missing required member or a wrong JSON type: unevaluatedProperties, propertyNames, minProperties above 0, maxProperties, dependentRequired, dependentSchemas, dependencies, patternProperties mapping to false, and oneOf/anyOf/allOf/not/if over the members. A combinator (oneOf, anyOf, not, if) is reported only when the schema library shows it refusing a request the rest of the schema accepts: a request holding the required members and each member the schema or the combinator names, with values of every JSON type; an anyOf one of whose branches accepts every object, or an if whose then asserts nothing, expresses no fault and is not reported. SDKs enforce these before the Pilotage handler runs (Part IV §11), so a member supplied outside the selected capability, both or neither runnable, or a newer Client's member comes back as a carrier error instead of an invalid_request. The finding sits at the offending keyword's value.",
			Bad:     `{"type": "object", "properties": {"flow": {}}, "additionalProperties": false}`,
			Good:    `{"type": "object", "properties": {"flow": {}}}`,
			Scope:   "The inputSchema of every validate, execute and trace-fetch tool the listing carries (a manifest's loop members, or the stage a listing shows), read as a validator applies it: the root, a root $ref's target and each member of a top-level allOf are judged keyword by keyword, and a nullable union's object member likewise. A oneOf, anyOf, not or if counts only when the schema library finds a request it refuses that the schema without it accepts (a schema that cannot be compiled offline is judged by the keyword alone). The fixed access tools are not loop tools. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §7.1", Quote: "For the fixed access tools, their binding-defined schemas are intentionally strict for structural routing.", Fixture: "good-access-tool-strict"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type.", Fixture: "lookalikes/good-allof"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema.", Fixture: "good-audit-anyof-accepts-every-object"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema.", Fixture: "good-if-then-annotation"},
			},
			Check: checkLoopSchemaClosed,
		},
		&lint.Rule{
			ID: "toolschema-reserved-constrained", Severity: lint.Error, Spec: spec,
			Quote:   "A loop-tool schema: - MUST NOT set `additionalProperties: false`; - MUST NOT constrain reserved members beyond their JSON type.",
			Keyword: "MUST NOT",
			Summary: "A reserved member of a loop tool is constrained beyond its JSON type.",
			Doc:     "Part III §4.6: a loop-tool schema MUST NOT constrain reserved members beyond their JSON type. An enum of trace levels, a pattern on idempotency_key, a const mode or a $ref to a constraining definition makes the SDK refuse an unknown trace_level or an unsupported mode at the carrier level, where Part III §7.1 routes them to invalid_request. The member's schema is read as a validator applies it: through $ref into $defs, allOf, and Pydantic's nullable anyOf [X, {\"type\": \"null\"}], which widens the JSON type and constrains nothing when X does not. A keyword counts only when the schema library shows it refusing, on its own (with the keywords it depends on, such as if for then), a value of the member's JSON type: \"minLength\": 0 or a pattern every string matches constrains nothing. Annotations (description, title, default, examples, deprecated, $comment, readOnly, writeOnly) and \"type\" are fine, and so is format where the schema's dialect makes it an annotation: 2020-12 unless the meta-schema requires the format-assertion vocabulary, and draft-07, which leaves asserting it to each validator. Marking an optional reserved member required is toolschema-reserved-required's finding. The finding sits at each offending keyword's value.",
			Bad:     `{"trace_level": {"type": "string", "enum": ["none", "summary", "full"]}}`,
			Good:    `{"trace_level": {"type": "string", "description": "none, summary or full"}}`,
			Scope:   "Each declaration of a reserved member (Part III §4.4's table) on a loop tool of a stage the name is reserved on, other than the tool's program argument; declarations in a root $ref's target and allOf parts count, and a member's schema is followed through $ref, allOf and nullable unions. format counts only where the library compiles it as an assertion for the schema's dialect: 2020-12 under a meta-schema requiring format-assertion (one the document carries is read), not 2020-12 by default nor draft-07, which leaves asserting it to each validator. A keyword no value of the member's JSON type fails (the values tried include strings of many forms up to 65,536 characters) is not reported; one in a schema that cannot be compiled offline is judged by its name alone. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.4", Quote: "| `input` | execute | Program input |", Fixture: "good-other-stage"},
				{Spec: "Part III §4.6", Quote: "MUST NOT constrain reserved members beyond their JSON type.", Fixture: "good-audit-min-length-zero"},
			},
			Check: checkReservedConstrained,
		},
		&lint.Rule{
			ID: "toolschema-reserved-required", Severity: lint.Warning, Spec: "Part II §1.1; Part III §4.4, §4.6",
			Quote:   "- **O**: the field MAY be present.",
			Keyword: "", Policy: lint.PolicyContradiction,
			Summary: "A loop tool marks an optional reserved member required.",
			Doc:     "Part II defines trace_level, store, mode, test_run and the other reserved request members as optional (O: the field MAY be present), and Part III §4.4 makes an absent mode for a Language with execution \"both\" an invalid_request; a loop-tool schema that marks one required turns a request Part II defines as valid, or one Pilotage must refuse with its own kind, into a carrier-level schema failure. No sentence forbids it with a keyword: Part III §4.6 forbids constraining a reserved member beyond its JSON type, and lists a missing schema-required member among the structural faults a schema may express. So the schema contradicts the definitions of the request, a warning by the severity policy. run_id (which §4.4 rule 7 requires) and the runnable members (see toolschema-execute-runnable-required) are not reported here. The finding sits at the required entry, in whichever part of the schema (a root $ref's target, an allOf member) holds it.",
			Bad:     `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "trace_level": {"type": "string"}}, "required": ["trace_level"]}}`,
			Good:    `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "trace_level": {"type": "string"}}}}`,
			Check:   checkReservedRequired,
		},
		&lint.Rule{
			ID: "toolschema-execute-runnable-required", Severity: lint.Error, Spec: spec,
			Quote:        "An execute tool's schema MUST NOT mark either: - the program-bearing argument; - `program_ref`",
			Keyword:      "MUST NOT",
			Summary:      "An execute tool marks its program argument or program_ref required.",
			Doc:          "Exactly one of the inline program and program_ref is supplied to an execute tool, and runnable selection is enforced after schema validation (Part III §4.6, \"Runnable selection\"): an execute tool's schema MUST NOT mark either required. Requiring the program argument makes promoted programs impossible to run; requiring both makes every request invalid.",
			Bad:          `{"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}}, "required": ["flow"]}`,
			Good:         `{"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}}}`,
			Scope:        "The required entries of every execute tool's inputSchema, in the root, a root $ref's target or an allOf part, naming program_ref or an argument of the tool's program declaration. Every manifest version.",
			NoExceptions: "Part III §4.6 states it for every execute tool, shared or not, and nothing in §4.3, §4.4 or §5 narrows it: rule 8 of §4.4 (a validate tool serving one Language requires its program argument) is not applied to a tool that also executes, which toolschema-validate-program-required leaves to this rule.",
			Check:        checkRunnableRequired,
		},
		&lint.Rule{
			ID: "toolschema-program-schema-strict", Severity: lint.Error, Spec: spec,
			Quote:   "Invalid program content MUST be reported through diagnostics, not as a tool-schema failure.",
			Keyword: "MUST",
			Summary: "A program argument's schema is strict: closed properties, required members or enumerated values.",
			Doc:     "The program-bearing argument SHOULD use a permissive schema such as {} or a broad type constraint, because invalid program content MUST be reported through diagnostics, with a locator the agent can act on, not as a tool-schema failure (Part III §4.6, \"Program-bearing schema\"). additionalProperties or unevaluatedProperties false, required lists, enum and const anywhere in the program schema, including a model it refers to under $defs (Pydantic's program class), turn a program mistake into a bare carrier error. The finding sits at each such keyword's value.",
			Bad:     `{"flow": {"type": "object", "properties": {"steps": {"type": "array"}}, "required": ["steps"], "additionalProperties": false}}`,
			Good:    `{"flow": {"type": "object"}}`,
			Scope:   "The schema of each program argument named by a loop tool's program declaration, in whatever part of the inputSchema declares it, with every subschema under it and every local definition it refers to (Pydantic's program model under $defs). A top-level JSON type is not reported. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.6", Quote: "or a broad type constraint.", Fixture: "good-broad-type"},
			},
			Check: checkProgramSchemaStrict,
		},
	}
}

func checkLoopSchemaClosed(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		r := lt.reader()
		// The schema's parts apply together: a root $ref's target and the
		// members of a top-level allOf are judged keyword by keyword, as
		// the root's own keywords are.
		for _, part := range lt.res.Parts(lt.root) {
			if part.IsBool() {
				if !part.Truth() {
					p.Report(part, "loop tool %q composes its inputSchema with false, which rejects every request at the carrier level; remove it", lt.Name)
				}
				continue
			}
			nullable := lt.res.NonNull(part) != nil
			for _, k := range part.Kids() {
				switch k.Key() {
				case "additionalProperties", "unevaluatedProperties":
					if !r.permissive(k) {
						p.Report(k, "loop tool %q sets %s to a schema that rejects members it does not list, so an SDK refuses newer or out-of-capability members before Pilotage can answer invalid_request; remove %s or set it to true", lt.Name, k.Key(), k.Key())
					}
				case "propertyNames":
					if !r.permissive(k) {
						p.Report(k, "loop tool %q restricts its member names with propertyNames, which rejects unknown members at the carrier level; remove propertyNames", lt.Name)
					}
				case "maxProperties":
					p.Report(k, "loop tool %q caps its member count with maxProperties, which rejects requests for what they contain rather than for a missing member or a wrong type; remove maxProperties", lt.Name)
				case "minProperties":
					// A count the required members already meet restates
					// required (generators write both).
					if k.Kind == source.Number && k.Text() != "0" && !restatesRequired(lt, k) {
						p.Report(k, "loop tool %q demands members with minProperties, so an empty request fails at the carrier level instead of drawing invalid_request; remove minProperties", lt.Name)
					}
				case "dependentRequired", "dependentSchemas", "dependencies":
					if !(k.IsObject() && len(k.Kids()) == 0) {
						p.Report(k, "loop tool %q ties members to each other with %s, an eligibility rule that Pilotage must answer as invalid_request rather than the SDK as a schema failure; remove %s", lt.Name, k.Key(), k.Key())
					}
				case "patternProperties":
					for _, pp := range k.Kids() {
						if pp.IsBool() && !pp.Truth() {
							p.Report(pp, "loop tool %q forbids members matching %q with patternProperties false, which rejects unknown members at the carrier level; remove the pattern", lt.Name, pp.Key())
						}
					}
				case "oneOf", "anyOf", "not", "if":
					// A nullable union's object member is one of the
					// parts, judged above; null itself is no member
					// combination. A combinator that refuses no request
					// the rest of the schema lets through (a branch
					// accepting every object, an if whose then asserts
					// nothing) expresses no fault at all.
					if nullable && (k.Key() == "oneOf" || k.Key() == "anyOf") {
						continue
					}
					if rejects, decided := lt.rejectsRequests(k); decided && !rejects {
						continue
					}
					p.Report(k, "loop tool %q applies %s over its members, which enforces runnable selection or member combinations in the schema; remove it and let the tool answer invalid_request after schema validation", lt.Name, k.Key())
				}
			}
		}
	}
}

// restatesRequired reports whether minProperties k asks for no more
// members than the schema's required lists name.
func restatesRequired(lt loopTool, k *source.Node) bool {
	n, err := strconv.Atoi(k.Text())
	if err != nil {
		return false
	}
	return n <= len(lt.res.RequiredNames(lt.root))
}

func checkReservedConstrained(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		r := lt.reader()
		for _, m := range lt.members {
			ra, ok := lt.reserved(m.Key())
			if !ok {
				continue
			}
			for _, c := range r.constraints(m, true) {
				if c == m {
					p.Report(c, "loop tool %q declares the reserved member %q as false, which rejects every value at the carrier level; give it its JSON type instead", lt.Name, m.Key())
					continue
				}
				if c.Key() == "$ref" && lt.res.Target(c) == nil {
					p.Report(c, "loop tool %q types the reserved member %q through $ref %s, which names no definition inside the inputSchema, so SDKs reject the schema or the value; inline the member as {\"type\": ...} with a description", lt.Name, m.Key(), c.Text())
					continue
				}
				// A keyword that refuses no value of the member's JSON
				// type ("minLength": 0) constrains nothing beyond it.
				if rejects, decided := lt.constrainsMember(m, c, ra); decided && !rejects {
					continue
				}
				if c.Key() == "$ref" {
					p.Report(c, "loop tool %q types the reserved member %q through $ref %q, whose target constrains it beyond its JSON type so an SDK rejects values Pilotage must answer itself; inline the member as {\"type\": ...} with a description", lt.Name, m.Key(), c.Text())
					continue
				}
				p.Report(c, "loop tool %q constrains the reserved member %q with %s, so an SDK rejects values Pilotage must answer itself; keep only its JSON type and describe the accepted values in description", lt.Name, m.Key(), c.Key())
			}
		}
	}
}

func checkReservedRequired(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		for _, r := range lt.res.RequiredNames(lt.root) {
			if _, ok := lt.reserved(r.Text()); !ok {
				continue
			}
			if r.Text() == types.ArgRunID || r.Text() == types.ArgProgramRef && lt.Serves(types.StageExecute) {
				continue
			}
			p.Report(r, "loop tool %q marks the optional reserved member %q required, so a request omitting it fails at the carrier level instead of reaching Pilotage, which defines the member as optional or answers its absence itself; remove it from required", lt.Name, r.Text())
		}
	}
}

func checkRunnableRequired(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		if !lt.Serves(types.StageExecute) {
			continue
		}
		for _, r := range lt.res.RequiredNames(lt.root) {
			switch {
			case r.Text() == types.ArgProgramRef:
				p.Report(r, "execute tool %q marks program_ref required, so inline programs cannot be run; remove it from required and check runnable selection in the handler", lt.Name)
			case lt.isProgramArg(r.Text()):
				p.Report(r, "execute tool %q marks its program argument %q required, so promoted programs cannot be run by program_ref; remove it from required and check runnable selection in the handler", lt.Name, r.Text())
			}
		}
	}
}

// strictKeyword reports the keywords that make a program schema reject
// program content.
func strictKeyword(k *source.Node) bool {
	switch k.Key() {
	case "additionalProperties", "unevaluatedProperties":
		return k.IsBool() && !k.Truth()
	case "required":
		return k.IsArray() && len(k.Kids()) > 0
	case "enum", "const":
		return true
	}
	return false
}

func checkProgramSchemaStrict(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		for _, a := range lt.programArgs {
			seen := map[*source.Node]bool{}
			var walk func(n *source.Node)
			walk = func(n *source.Node) {
				if !n.IsObject() || seen[n] {
					return
				}
				seen[n] = true
				for _, k := range n.Kids() {
					if strictKeyword(k) {
						p.Report(k, "the program argument %q of loop tool %q uses %s, so program mistakes fail as tool-schema errors instead of diagnostics; relax the program schema to {} or a broad type", a, lt.Name, k.Key())
					}
				}
				// A model under $defs (Pydantic's program class) is the
				// program schema as much as an inline one.
				if ref := n.Get("$ref"); ref.IsString() {
					walk(lt.res.Target(ref))
				}
				for _, sub := range schemacheck.Subschemas(n) {
					walk(sub)
				}
			}
			for _, m := range lt.members {
				if m.Key() == a {
					walk(m)
				}
			}
		}
	}
}
