package toolschema

import (
	"strconv"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Reserved argument names (Part III §4.4): a generic Client forms every
// loop request from the manifest, the inputSchema, the program declaration
// and the reserved-name table alone, so each reserved member must be where
// the table says, with the type it says.

func reservedRules() []*lint.Rule {
	const spec = "Part III §4.4"
	return []*lint.Rule{
		&lint.Rule{
			ID: "toolschema-reserved-misused", Severity: lint.Error, Spec: spec,
			Quote:   "3. A Server MUST NOT use a reserved name for another purpose on a loop tool.",
			Keyword: "MUST NOT",
			Summary: "A loop tool uses a reserved argument name for another purpose.",
			Doc:     "Part III §4.4 reserves argument names on loop tools (program_ref, input, context, trace_level, expected_catalog_version, idempotency_key, test_run, mode, store, run_id, question) and gives each a JSON type; a Server MUST NOT use them for anything else. A generic Client sends, say, trace_level as a string because the table says so: a tool that declares it as an integer, or that names its program argument input, receives requests it cannot interpret. The type is read as a validator applies the schema, through $ref, allOf and Pydantic's nullable anyOf (Optional[int] admits integers and null, not a boolean). The finding sits at the conflicting \"type\" value, at the member when the type comes from elsewhere, or at the program declaration's argument name.",
			Bad:     `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"trace_level": {"type": "integer"}}}}`,
			Good:    `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"trace_level": {"type": "string"}}}}`,
			Scope:   "Each declaration of a reserved member whose table entry has a JSON type, on a loop tool of a stage the name is reserved on, with its type read through $ref, allOf and nullable unions (a type list or a union that includes the reserved type is fine); and a program declaration naming a reserved name as its argument. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.4", Quote: "| `input` | execute | Program input |", Fixture: "good-other-stage"},
			},
			Check: checkReservedMisused,
		},
		&lint.Rule{
			ID: "toolschema-reserved-missing", Severity: lint.Error, Spec: spec,
			Quote:   "2. The member MUST appear in the tool's `inputSchema`.",
			Keyword: "MUST",
			Summary: "A loop tool's inputSchema lacks a reserved member its stage or its Language's capabilities require.",
			Doc:     "Every execute tool MUST declare trace_level, and expected_catalog_version when it serves a catalog-bearing Language; an execute tool MUST accept mode for a Language with execution \"both\", test_run where execute.test_run is declared and idempotency_key where execute.idempotency is declared; every trace-fetch tool MUST declare run_id, and question where trace_fetch.narrate is declared; the validate and execute tools of a Language with a context_schema MUST declare context (Part III §4.4 rules 1, 2, 4-7). A Client builds requests from the inputSchema, so a capability without its member cannot be used. Without a manifest only trace_level and run_id are checked and the manifest-dependent members are listed as skipped.",
			Bad:     `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}}}}`,
			Good:    `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}, "trace_level": {"type": "string"}}}}`,
			Scope:   "Loop tools the listing carries, for the members their stage requires (trace_level on execute, run_id on trace fetch) and, with a manifest, those their Languages' declarations require (context for a context_schema, expected_catalog_version for catalog, mode for execution \"both\", test_run, idempotency_key and question for their sub-features). A member declared in a root $ref's target or an allOf part appears in the inputSchema. Without a manifest the manifest-dependent members are named as skipped. A later minor's capabilities are not read.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.4", Quote: "1. When a loop tool supports one of these members, it MUST use the reserved name.", Fixture: "good-not-supported"},
				{Spec: "Part III §4.4", Quote: "| `idempotency_key` | execute | Idempotency key, where declared |", Fixture: "good-not-supported"},
				{Spec: "Part III §4.4", Quote: "| `mode` | execute | `\"immediate\"` or `\"deploy\"` for a Language with `execution: \"both\"` |", Fixture: "good-not-supported"},
			},
			Check: checkReservedMissing,
		},
		&lint.Rule{
			ID: "toolschema-run-id-not-required", Severity: lint.Error, Spec: spec,
			Quote:        "7. Every trace-fetch tool MUST declare `run_id` and mark it required.",
			Keyword:      "MUST",
			Summary:      "A trace-fetch tool does not mark run_id required.",
			Doc:          "Part III §4.4 rule 7: every trace-fetch tool MUST declare run_id and mark it required. A fetch without a run identifier has nothing to fetch; requiring it in the schema makes the omission a structural fault a Client's SDK catches before sending.",
			Bad:          `{"name": "trace_run", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}}`,
			Good:         `{"name": "trace_run", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}, "required": ["run_id"]}}`,
			Scope:        "Every trace-fetch tool that declares run_id: a required entry in the root, a root $ref's target or an allOf part satisfies it. A trace-fetch tool lacking run_id altogether is toolschema-reserved-missing's finding. Every manifest version.",
			NoExceptions: "Part III §4.4 rule 7 binds every trace-fetch tool, and neither §4.6 (whose runnable selection concerns execute tools) nor Part II §6.6 (run_id is M in the fetch request) leaves a trace-fetch tool free to leave run_id optional.",
			Check:        checkRunIDRequired,
		},
		&lint.Rule{
			ID: "toolschema-validate-program-required", Severity: lint.Error, Spec: spec,
			Quote:   "8. A validate tool serving one Language MUST mark its program-bearing argument required.",
			Keyword: "MUST",
			Summary: "A validate tool's program argument is required when shared, or optional when it serves one Language.",
			Doc:     "Part III §4.4 rules 8 and 9: a validate tool serving one Language MUST mark its program-bearing argument required, and a shared validate tool MUST mark none of its program arguments required, because exactly one of them is supplied per request and the selection is checked after schema validation. A tool is shared when two Languages share it (Part III §4.3), so which rule applies is read from how many Languages the tool serves: those naming it as their validate tool in the manifest, and the distinct languages of its program declaration. The form of the declaration does not decide it: a framework that always writes the languages array serves one Language with a one-entry array. When the manifest and the declaration disagree (one Language in one, several in the other) neither rule is applied; the binding rules report the disagreement.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}, "required": ["flow"]}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "buildingflow/1"}}}`,
			Scope:   "Validate tools that do not also execute, with a program declaration: one serving one Language (one Language names it in the manifest, its declaration names one Language and one program argument, in either form) must require its program argument (in the root, a root $ref's target or an allOf part; a nullable program still counts); one shared by two or more Languages (in the manifest and in its declaration) must require none. A tool the manifest and its declaration count differently is not judged. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.4", Quote: "9. A shared validate tool MUST mark none of its program-bearing arguments required; selection is enforced after schema validation.", Fixture: "good-shared"},
				{Spec: "Part III §4.6", Quote: "An execute tool's schema MUST NOT mark either: - the program-bearing argument; - `program_ref` as required.", Fixture: "good-combined"},
				{Spec: "Part III §4.3", Quote: "Two Languages MAY share one loop tool only by using distinct program-bearing argument names.", Fixture: "lookalikes/good-audit-one-entry-array"},
			},
			Check: checkValidateProgramRequired,
		},
		&lint.Rule{
			ID: "toolschema-mode-not-both", Severity: lint.Info, Spec: spec,
			Keyword: "",
			Summary: "An execute tool declares mode although none of its Languages has execution \"both\".",
			Doc:     "The mode selector exists only for a Language with execution \"both\"; supplying it for any other Language is an invalid_request (Part III §4.4, \"mode\"). Declaring it in the schema invites a Client to send a member that can only be refused. The check needs the manifest.",
			Bad:     `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"mode": {"type": "string"}}}}   (its Language says "execution": "immediate")`,
			Good:    `{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"mode": {"type": "string"}}}}   (its Language says "execution": "both")`,
			Check:   checkModeNotBoth,
		},
		&lint.Rule{
			ID: "toolschema-reserved-wrong-stage", Severity: lint.Warning, Spec: "Part II §6.4; Part III §4.4",
			Quote:   "Server-specific request fields not declared by this specification are prohibited.",
			Keyword: "", Policy: lint.PolicyContradiction,
			Summary: "A validate tool declares a reserved member of another stage.",
			Doc:     "Each reserved name belongs to given stages (Part III §4.4): run_id and question to trace fetch, program_ref, input, mode, store and the like to execute, trace_level to execute and trace fetch. A validate request is the program and context only, and Part II §6.4 prohibits Server-specific request fields, so a validate tool declaring program_ref or run_id offers a member the operation forbids. The sentence carries no requirement keyword and program_ref is declared by the specification, for execute: the declaration contradicts the definition of the validate request, a warning by the severity policy. Only validate tools are checked: Part II states that prohibition for validate alone, so an execute or trace-fetch tool declaring another stage's member draws nothing.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}}}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "context": {"type": "object"}}}}`,
			Check:   checkReservedWrongStage,
		},
	}
}

func checkReservedMisused(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		for _, m := range lt.members {
			ra, ok := lt.reserved(m.Key())
			if !ok || ra.JSONType == "" {
				continue
			}
			if t := m.Get("type"); t != nil {
				if ts, ok := jsonTypesOf(t); ok && !schemacheck.AdmitsType(ts, ra.JSONType) {
					p.Report(t, "the reserved member %q of loop tool %q is typed %s, but Part III §4.4 reserves it as a %s; use \"type\": %q or rename the member if it means something else", m.Key(), lt.Name, typeText(t), ra.JSONType, ra.JSONType)
					continue
				}
			}
			// The type may come through a $ref, allOf or a nullable
			// union (Pydantic's Optional[int] for test_run).
			// A member that admits nothing is toolschema-reserved-constrained's.
			if ts, ok := lt.res.Types(m); ok && len(ts) > 0 && !schemacheck.AdmitsType(ts, ra.JSONType) {
				p.Report(m, "the reserved member %q of loop tool %q admits only %s values through its schema, but Part III §4.4 reserves it as a %s; type it %q or rename the member if it means something else", m.Key(), lt.Name, typeList(ts), ra.JSONType, ra.JSONType)
			}
		}
		for _, b := range rulekit.ProgramBindings(lt.Tool.ProgramDeclaration()) {
			a := b.Get("argument")
			if !a.IsString() {
				continue
			}
			ra, ok := types.LookupReservedArg(a.Text())
			if !ok {
				continue
			}
			for s := range lt.Stages {
				if ra.ReservedOn(s) {
					p.Report(a, "loop tool %q carries its program in %q, a name Part III §4.4 reserves on %s tools for another member; name the program argument after the Language's program instead (for example \"flow\" or \"query\")", lt.Name, a.Text(), stageNoun(s))
					break
				}
			}
		}
	}
}

func typeText(t *source.Node) string {
	if t.IsString() {
		return `"` + t.Text() + `"`
	}
	ts, _ := jsonTypesOf(t)
	return `["` + strings.Join(ts, `", "`) + `"]`
}

// jsonTypesOf reads a "type" keyword's names in document order; false when
// the value is malformed.
func jsonTypesOf(t *source.Node) ([]string, bool) {
	if t.IsString() {
		return []string{t.Text()}, true
	}
	var out []string
	for _, e := range t.Items() {
		if !e.IsString() {
			return nil, false
		}
		out = append(out, e.Text())
	}
	return out, t.IsArray()
}

// typeList names JSON types for a message: "integer or null".
func typeList(ts []string) string {
	if len(ts) == 0 {
		return "no"
	}
	return strings.Join(ts, " or ")
}

// requirement is one reserved member a loop tool must declare and why.
type requirement struct {
	name, why string
}

func checkReservedMissing(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		var reqs []requirement
		add := func(name, why string) {
			for _, r := range reqs {
				if r.name == name {
					return
				}
			}
			reqs = append(reqs, requirement{name, why})
		}
		for _, st := range []types.Stage{types.StageValidate, types.StageExecute} {
			for _, l := range lt.languages(st) {
				if l.Node.Has("context_schema") {
					add(types.ArgContext, "Language "+strconv.Quote(l.Name)+" declares context_schema, so its requests carry context (rules 2 and 4)")
				}
			}
		}
		if lt.Serves(types.StageExecute) {
			add(types.ArgTraceLevel, "every execute tool must declare it (rule 5)")
			for _, l := range lt.languages(types.StageExecute) {
				if l.Caps.Declared(string(types.CapCatalog)) {
					add(types.ArgExpectedCatalogVersion, "Language "+strconv.Quote(l.Name)+" declares catalog (rule 6)")
				}
				if e, _ := l.Node.Str("execution"); e == string(types.ExecutionBoth) {
					add(types.ArgMode, "Language "+strconv.Quote(l.Name)+" has execution \"both\"")
				}
				if l.Caps.SubFeature(string(types.CapExecute), types.SubTestRun) {
					add(types.ArgTestRun, "Language "+strconv.Quote(l.Name)+" declares execute.test_run")
				}
				if l.Caps.SubFeature(string(types.CapExecute), types.SubIdempotency) {
					add(types.ArgIdempotencyKey, "Language "+strconv.Quote(l.Name)+" declares execute.idempotency")
				}
			}
		}
		if lt.Serves(types.StageTraceFetch) {
			add(types.ArgRunID, "every trace-fetch tool must declare it (rule 7)")
			for _, l := range lt.languages(types.StageTraceFetch) {
				if l.Caps.SubFeature(string(types.CapTraceFetch), types.SubNarrate) {
					add(types.ArgQuestion, "Language "+strconv.Quote(l.Name)+" declares trace_fetch.narrate")
				}
			}
		}
		at := lt.propertiesAt()
		for _, r := range reqs {
			if lt.member(r.name) != nil {
				continue
			}
			if !lt.res.Whole(lt.root) {
				p.Skip(lt.opaque("whether it declares " + r.name))
				continue
			}
			ra, _ := types.LookupReservedArg(r.name)
			schema := "{}"
			if ra.JSONType != "" {
				schema = `{"type": "` + ra.JSONType + `"}`
			}
			p.ReportMissing(at, "loop tool %q lacks the reserved member %q although %s; add \"%s\": %s to its inputSchema properties", lt.Name, r.name, r.why, r.name, schema)
		}
	}
}

func checkRunIDRequired(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		if !lt.Serves(types.StageTraceFetch) || lt.member(types.ArgRunID) == nil || lt.required(types.ArgRunID) != nil {
			continue
		}
		if !lt.res.Whole(lt.root) {
			p.Skip(lt.opaque("whether it requires run_id"))
			continue
		}
		if at := lt.requiredAt(); at != lt.schema {
			p.Report(at, "trace-fetch tool %q declares run_id but does not list it in required; add \"run_id\" to this array", lt.Name)
			continue
		}
		p.ReportMissing(lt.schema, "trace-fetch tool %q declares run_id but does not mark it required; add \"required\": [\"run_id\"] to its inputSchema", lt.Name)
	}
}

func checkValidateProgramRequired(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		if !lt.Serves(types.StageValidate) || lt.Serves(types.StageExecute) || len(lt.programArgs) == 0 {
			continue
		}
		switch lt.validateServes() {
		case servesMany:
			for _, a := range lt.programArgs {
				if r := lt.required(a); r != nil {
					p.Report(r, "shared validate tool %q marks its program argument %q required, but exactly one program argument is sent per request; remove it from required and let the tool answer invalid_request when none or several are supplied", lt.Name, a)
				}
			}
		case servesOne:
			a := lt.programArgs[0]
			if lt.required(a) != nil {
				continue
			}
			if !lt.res.Whole(lt.root) {
				p.Skip(lt.opaque("whether it requires " + a))
				continue
			}
			if at := lt.requiredAt(); at != lt.schema {
				p.Report(at, "validate tool %q serves one Language but does not list its program argument %q in required; add %q to this array", lt.Name, a, a)
				continue
			}
			p.ReportMissing(lt.schema, "validate tool %q serves one Language but does not mark its program argument %q required; add \"required\": [%q] to its inputSchema", lt.Name, a, a)
		}
	}
}

// serving says how many Languages a validate tool serves, as far as the
// manifest and the tool's program declaration agree.
type serving int8

const (
	// servesUnclear: the manifest and the declaration disagree (one names
	// one Language, the other several, or one Language has several
	// program arguments), which the binding rules report; neither rule 8
	// nor rule 9 of Part III §4.4 can be applied.
	servesUnclear serving = iota
	servesOne
	servesMany
)

// validateServes counts the Languages the tool serves on validate: those
// naming it in their loop, and the distinct languages of its program
// declaration. Part III §4.3 calls a tool shared when two Languages share
// it, so the count decides, not the declaration's form: a framework that
// always writes the languages array for one Language serves one.
func (lt loopTool) validateServes() serving {
	inManifest := map[string]bool{}
	for _, l := range lt.languages(types.StageValidate) {
		inManifest[l.Name] = true
	}
	declared := map[string]bool{}
	for _, b := range rulekit.ProgramBindings(lt.Tool.ProgramDeclaration()) {
		if l, ok := b.Str("language"); ok {
			declared[l] = true
		}
	}
	switch {
	case len(inManifest) > 1 && len(declared) > 1:
		return servesMany
	case len(inManifest) <= 1 && len(declared) <= 1 && len(lt.programArgs) == 1:
		return servesOne
	}
	return servesUnclear
}

func checkModeNotBoth(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		mode := lt.member(types.ArgMode)
		if !lt.Serves(types.StageExecute) || mode == nil || lt.isProgramArg(types.ArgMode) {
			continue
		}
		both := false
		for _, l := range lt.languages(types.StageExecute) {
			if e, _ := l.Node.Str("execution"); e == string(types.ExecutionBoth) {
				both = true
			}
		}
		if !both {
			p.ReportKey(mode, "execute tool %q declares mode, but none of its Languages has execution \"both\", so any mode it receives is an invalid_request; remove the member or declare execution \"both\"", lt.Name)
		}
	}
}

func checkReservedWrongStage(p *lint.Pass) {
	for _, lt := range loopTools(p) {
		if !lt.Serves(types.StageValidate) {
			continue
		}
		seen := map[string]bool{}
		for _, m := range lt.members {
			ra, ok := types.LookupReservedArg(m.Key())
			if !ok || lt.isProgramArg(m.Key()) || seen[m.Key()] {
				continue
			}
			seen[m.Key()] = true
			if _, onStage := lt.reserved(m.Key()); onStage {
				continue
			}
			var on []string
			for _, s := range ra.Stages {
				on = append(on, stageNoun(s))
			}
			var served []string
			for _, s := range types.Stages {
				if lt.Serves(s) {
					served = append(served, stageNoun(s))
				}
			}
			p.ReportKey(m, "%s tool %q declares %q, which Part III §4.4 reserves for %s tools only; remove it, since Part II §6.4 prohibits request fields a %s request does not define", strings.Join(served, "/"), lt.Name, m.Key(), strings.Join(on, " and "), strings.Join(served, "/"))
		}
	}
}
