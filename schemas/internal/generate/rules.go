package generate

import (
	"fmt"
	"strings"

	"github.com/invopop/jsonschema"

	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// handWritten are the definitions of types whose JSON form reflection
// cannot see (custom marshalers) or that have no Go type of their own.
func handWritten() map[string]*jsonschema.Schema {
	var props []string
	for _, c := range types.Capabilities {
		var subs []string
		for _, s := range types.SubFeatures[c] {
			subs = append(subs, fmt.Sprintf(`%q:{"type":"boolean"}`, s))
		}
		props = append(props, fmt.Sprintf(`%q:{"anyOf":[{"type":"boolean"},{"type":"object","properties":{%s},"additionalProperties":{"type":"boolean"}}]}`, c, strings.Join(subs, ",")))
	}
	return map[string]*jsonschema.Schema{
		// Unknown capability identifiers are allowed (Part II §1.3 treats
		// them as undeclared), so they only get the generic value shape.
		"CapabilityDeclaration": must(`{"type":"object","description":"Map from capability identifier to true, false, or an object of boolean sub-features (Part II §4.2).","properties":{` + strings.Join(props, ",") + `},"additionalProperties":{"$ref":"#/$defs/CapabilityValue"}}`),
		"CapabilityValue":       must(`{"anyOf":[{"type":"boolean"},{"type":"object","additionalProperties":{"type":"boolean"}}]}`),
		"DiagnosticPath":        must(fmt.Sprintf(`{"description":"JSON Pointer (json-pointer dialect) or text range (text-range dialect), Part II §5.5.","anyOf":[{"type":"string","pattern":%q},{"$ref":"#/$defs/TextRange"}]}`, types.JSONPointerPattern)),
		"Retention": must(fmt.Sprintf(`{"type":"string","description":"none, session, or an ISO 8601 duration (Part II §6.6).","anyOf":[{"enum":["none","session"]},{"allOf":[{"pattern":%q},{"not":{"pattern":%q}},{"not":{"pattern":%q}}]}]}`,
			types.DurationPattern, types.DurationEmptyPattern, types.DurationFractionPattern)),
		"JSONSchema": must(`{"description":"A JSON Schema: an object or a boolean.","anyOf":[{"type":"object"},{"type":"boolean"}]}`),
	}
}

func prop(s *jsonschema.Schema, name string) *jsonschema.Schema {
	p, ok := s.Properties.Get(name)
	if !ok {
		panic("generate: no property " + name)
	}
	return p
}

func setProp(s *jsonschema.Schema, name string, v *jsonschema.Schema) {
	if _, ok := s.Properties.Get(name); !ok {
		panic("generate: no property " + name)
	}
	s.Properties.Set(name, v)
}

func addAll(s *jsonschema.Schema, frags ...string) {
	for _, f := range frags {
		s.AllOf = append(s.AllOf, must(f))
	}
}

func u64(n uint64) *uint64 { return &n }

// patch adds patterns, bounds and conditional rules to reflected defs.
func patch(defs map[string]*jsonschema.Schema) error {
	get := func(n string) *jsonschema.Schema {
		d, ok := defs[n]
		if !ok {
			panic("generate: no definition " + n)
		}
		return d
	}

	m := get("Manifest")
	prop(m, "pilotage").Pattern = types.VersionPattern
	prop(m, "languages").MinItems = u64(1)
	addAll(m, manifestRules()...)

	l := get("Language")
	prop(l, "name").Pattern = types.LanguageIDPattern
	setProp(l, "context_schema", ref("JSONSchema"))
	// The MCP binding fixes the reference fields to the access tools
	// (Part III §4, "Manifest reference-field binding").
	setProp(l, "guides", must(fmt.Sprintf(`{"const":%q,"description":"Bound to the fixed access tool in the MCP binding (Part III §4)."}`, types.ToolGetGuide)))
	setProp(l, "catalog", must(fmt.Sprintf(`{"const":%q,"description":"Bound to the fixed access tool in the MCP binding (Part III §4); present iff catalog is declared."}`, types.ToolCatalog)))
	// locator is "M when validate is declared" (Part II §5.1), and the
	// capability floor (§4.3) makes every Language declare validate.
	l.Required = append(l.Required, "locator")

	g := get("GuideMeta")
	// The index form carries every guide field except the body (Part III
	// §4.1).
	g.Not = must(`{"required":["body"]}`)
	for _, d := range []*jsonschema.Schema{g, get("Guide")} {
		prop(d, "size_bytes").Minimum = "0"
		prop(d, "tokens_estimate").Minimum = "0"
	}

	ce := get("CatalogEntry")
	setProp(ce, "input_schema", ref("JSONSchema"))
	setProp(ce, "output_schema", must(`{"anyOf":[{"$ref":"#/$defs/JSONSchema"},{"type":"null"}]}`))

	pos := get("Position")
	prop(pos, "line").Minimum = "1"
	prop(pos, "column").Minimum = "1"

	// With the text-range dialect the range lives in path and the separate
	// range member is not used (Part II §5.5).
	addAll(get("Diagnostic"), `{"if":{"required":["path"],"properties":{"path":{"type":"object"}}},"then":{"not":{"required":["range"]}}}`)

	o := get("Outcome")
	o.Required = append(o.Required, "error")
	addAll(o,
		// error is null iff ok is true (Part II §5.7).
		`{"if":{"required":["ok"],"properties":{"ok":{"const":true}}},"then":{"properties":{"error":{"type":"null"}}},"else":{"properties":{"error":{"type":"string"}}}}`,
		// Reserved statuses carry fixed ok values (Part II §5.7).
		`{"if":{"required":["status"],"properties":{"status":{"const":"success"}}},"then":{"properties":{"ok":{"const":true}}}}`,
		`{"if":{"required":["status"],"properties":{"status":{"enum":["validation_error","catalog_drift","promotion_drift","partial","error"]}}},"then":{"properties":{"ok":{"const":false}}}}`)

	ts := get("TraceStep")
	prop(ts, "t_ms").Minimum = "0"
	// Control-flow entries carry decisions and never input/output
	// (Part II §5.8).
	addAll(ts, `{"if":{"required":["decisions"]},"then":{"not":{"anyOf":[{"required":["input"]},{"required":["output"]}]}}}`)

	tr := get("Trace")
	prop(tr, "stats").Type = "object"
	addAll(tr,
		// full: non-control-flow steps carry input and output.
		`{"if":{"required":["level"],"properties":{"level":{"const":"full"}}},"then":{"properties":{"steps":{"items":{"if":{"not":{"required":["decisions"]}},"then":{"required":["input","output"]}}}}}}`,
		// summary: no step carries input.
		`{"if":{"required":["level"],"properties":{"level":{"const":"summary"}}},"then":{"properties":{"steps":{"items":{"not":{"required":["input"]}}}}}}`)

	// valid follows the validity rule exactly (Part II §5.5, §6.4).
	addAll(get("ValidateResponse"), `{"if":{"required":["valid"],"properties":{"valid":{"const":true}}},"then":{"properties":{"diagnostics":{"not":{"contains":{"required":["severity"],"properties":{"severity":{"const":"error"}}}}}}},"else":{"properties":{"diagnostics":{"contains":{"required":["severity"],"properties":{"severity":{"const":"error"}}}}}}}`)

	er := get("ExecuteRequest")
	setProp(er, "trace_level", enum(types.RequestTraceLevels))
	// Exactly one runnable (Part II §6.5.1).
	er.OneOf = []*jsonschema.Schema{must(`{"required":["program"]}`), must(`{"required":["program_ref"]}`)}

	refused := `["validation_error","catalog_drift","promotion_drift"]`
	addAll(get("ExecuteResponse"),
		`{"if":{"required":["outcome"],"properties":{"outcome":{"required":["status"],"properties":{"status":{"const":"validation_error"}}}}},"then":{"required":["diagnostics"]}}`,
		`{"if":{"required":["outcome"],"properties":{"outcome":{"required":["ok"],"properties":{"ok":{"const":false}}}}},"then":{"not":{"required":["output"]}}}`,
		`{"if":{"required":["outcome"],"properties":{"outcome":{"required":["status"],"properties":{"status":{"enum":`+refused+`}}}}},"then":{"not":{"required":["trace"]}}}`)
	addAll(get("TraceFetchResponse"),
		`{"if":{"required":["outcome"],"properties":{"outcome":{"required":["ok"],"properties":{"ok":{"const":false}}}}},"then":{"not":{"required":["output"]}}}`)

	prop(get("CatalogRequest"), "limit").Minimum = "1"

	pd := get("ProgramDeclaration")
	prop(pd, "language").Pattern = types.LanguageIDPattern
	prop(pd, "languages").MinItems = u64(1)
	pd.AnyOf = []*jsonschema.Schema{must(`{"required":["argument","language"]}`), must(`{"required":["languages"]}`)}
	prop(get("ProgramBinding"), "language").Pattern = types.LanguageIDPattern

	get("InitializeMeta").AnyOf = []*jsonschema.Schema{must(`{"required":["manifest"]}`), must(`{"required":["manifest_uri"]}`)}
	return nil
}

const declared = `{"anyOf":[{"const":true},{"type":"object"}]}`

// declares matches an object (manifest root or Language entry) whose own
// capabilities member declares cap.
func declares(cap string) string {
	return fmt.Sprintf(`{"required":["capabilities"],"properties":{"capabilities":{"required":[%q],"properties":{%q:%s}}}}`, cap, cap, declared)
}

// mentions matches an object whose capabilities member has cap at all.
func mentions(cap string) string {
	return fmt.Sprintf(`{"required":["capabilities"],"properties":{"capabilities":{"required":[%q]}}}`, cap)
}

// crossLevel expresses a rule over the effective capability map of every
// Language (Part II §4.2). A schema applied to an array item cannot see
// the manifest root, so the rule is written once per combination of
// root-level declarations of the capabilities it uses: under each
// combination the effective value of cap in an item is known as a
// predicate on the item alone ("the item mentions cap and declares it", or
// "the item does not mention cap or declares it").
func crossLevel(caps []string, body func(eff func(string) string) string) []string {
	var out []string
	for mask := 0; mask < 1<<len(caps); mask++ {
		var cond []string
		rootHas := map[string]bool{}
		for i, c := range caps {
			rootHas[c] = mask&(1<<i) != 0
			if rootHas[c] {
				cond = append(cond, declares(c))
			} else {
				cond = append(cond, `{"not":`+declares(c)+`}`)
			}
		}
		eff := func(c string) string {
			if rootHas[c] {
				return `{"anyOf":[{"not":` + mentions(c) + `},` + declares(c) + `]}`
			}
			return declares(c)
		}
		out = append(out, fmt.Sprintf(`{"if":{"allOf":[%s]},"then":{"properties":{"languages":{"items":%s}}}}`, strings.Join(cond, ","), body(eff)))
	}
	return out
}

func ifThenElse(cond, then, els string) string {
	return fmt.Sprintf(`{"if":%s,"then":%s,"else":%s}`, cond, then, els)
}

// manifestRules are the Part II §4.2/§4.3 rules that span both levels.
func manifestRules() []string {
	var r []string
	// At least one declaration per Language (§4.2).
	r = append(r, `{"if":{"not":{"required":["capabilities"]}},"then":{"properties":{"languages":{"items":{"required":["capabilities"]}}}}}`)
	// Minimum floor (§4.3 rule 1); it also settles validate->guides,
	// plan->validate and execute->validate.
	r = append(r, crossLevel([]string{"guides", "validate"}, func(e func(string) string) string {
		return `{"allOf":[` + e("guides") + `,` + e("validate") + `]}`
	})...)
	// trace_fetch requires execute (§4.3 rule 3).
	r = append(r, crossLevel([]string{"trace_fetch", "execute"}, func(e func(string) string) string {
		return `{"if":` + e("trace_fetch") + `,"then":` + e("execute") + `}`
	})...)
	// catalog reference iff catalog (§4.3 rule 7).
	r = append(r, crossLevel([]string{"catalog"}, func(e func(string) string) string {
		return ifThenElse(e("catalog"), `{"required":["catalog"]}`, `{"not":{"required":["catalog"]}}`)
	})...)
	// locator when validate is declared (§5.1).
	r = append(r, crossLevel([]string{"validate"}, func(e func(string) string) string {
		return `{"if":` + e("validate") + `,"then":{"required":["locator"]}}`
	})...)
	// execute: loop.execute iff declared; execution, trace, retention
	// required (§4.3 rule 7, §5.1).
	r = append(r, crossLevel([]string{"execute"}, func(e func(string) string) string {
		return ifThenElse(e("execute"),
			`{"required":["execution","trace","retention"],"properties":{"loop":{"required":["execute"]}}}`,
			`{"properties":{"loop":{"not":{"required":["execute"]}}}}`)
	})...)
	// trace_fetch: loop.trace iff declared; never with retention none
	// (§4.3 rules 5 and 7).
	r = append(r, crossLevel([]string{"trace_fetch"}, func(e func(string) string) string {
		return ifThenElse(e("trace_fetch"),
			`{"properties":{"loop":{"required":["trace"]},"retention":{"not":{"const":"none"}}}}`,
			`{"properties":{"loop":{"not":{"required":["trace"]}}}}`)
	})...)
	return r
}
