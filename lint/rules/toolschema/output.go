package toolschema

import (
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"slices"
	"strings"
	"sync"
	"weak"

	"github.com/go-openapi/jsonpointer"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Output schemas (Part III §6): MCP requires structuredContent to satisfy a
// declared outputSchema even on isError results, so a schema describing
// only the success shape makes a Host or SDK reject the first request error
// (Part IV §11). The schema is compiled offline: every external reference
// is refused, never fetched.

func outputSchemaRules() []*lint.Rule {
	const spec = "Part III §6"
	return []*lint.Rule{
		&lint.Rule{
			ID: "toolschema-output-schema-missing", Severity: lint.Warning, Spec: spec,
			Quote:   "Servers SHOULD declare an MCP `outputSchema` for every Pilotage tool.",
			Keyword: "SHOULD",
			Summary: "A Pilotage tool declares no outputSchema.",
			Doc:     "Servers SHOULD declare an MCP outputSchema for every Pilotage tool (Part III §6): the fixed access tools and every loop tool. It tells a Host the shape of structuredContent, the machine contract, without a call; Part III publishes ready JSON Schemas in the required anyOf form.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object"}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object"}, "outputSchema": {"anyOf": [{"type": "object", "required": ["valid", "diagnostics"]}, {"type": "object", "required": ["error"]}]}}`,
			Check:   checkOutputSchemaMissing,
		},
		&lint.Rule{
			ID: "toolschema-output-schema-invalid", Severity: lint.Error, Spec: spec,
			Quote:   "Because MCP requires `structuredContent` to satisfy the declared output schema even for request-error results, the schema MUST accept every possible `structuredContent` shape produced by that tool.",
			Keyword: "MUST",
			Summary: "A Pilotage tool's outputSchema cannot be compiled.",
			Doc:     "A Host validates every structuredContent against the declared outputSchema; a schema that does not compile (a malformed keyword value, a $ref that resolves nowhere or loops without consuming input) fails every call or is silently dropped, depending on the SDK. pilotage-lint compiles it as JSON Schema 2020-12 unless $schema says otherwise, offline, and reports where compilation failed; the other checks of the tool still run. A pattern that is not ECMA-262 at all is such a failure. A keyword the linter cannot evaluate (a pattern that may be valid ECMA-262 but that its engines do not support, a $schema dialect it does not know) is no proof of a defect: toolschema-output-schema-unchecked names it at info.",
			Bad:     `{"outputSchema": {"type": "object", "properties": {"run_id": {"type": "strng"}}}}`,
			Good:    `{"outputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}}`,
			Scope:   "The outputSchema each fixed access tool and loop tool declares, compiled offline as JSON Schema 2020-12 unless $schema names another dialect. A keyword the linter cannot evaluate is toolschema-output-schema-unchecked's info, an external reference toolschema-output-schema-external-ref's. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §6", Quote: "Servers SHOULD declare an MCP `outputSchema` for every Pilotage tool.", Fixture: "good-undeclared"},
			},
			Check: checkOutputSchemaInvalid,
		},
		&lint.Rule{
			ID: "toolschema-output-schema-unchecked", Severity: lint.Info, Spec: spec,
			Keyword: "",
			Summary: "A Pilotage tool's outputSchema uses a keyword pilotage-lint cannot evaluate.",
			Doc:     "JSON Schema patterns are ECMA-262 regular expressions and $schema may name any dialect; a pattern neither of the linter's engines supports (RE2, then an ECMA-262 engine, which lacks long Unicode property names such as \\p{Script=Latin}) or a dialect it does not know is not thereby wrong. pilotage-lint never claims an error on what it could not evaluate: it names the keyword, checks the rest of the schema (the shapes included) as if that keyword accepted anything, and says so here, at info. Whether every Host can evaluate the keyword is worth a look: Go-based Hosts whose validator uses RE2 reject lookaround.",
			Bad:     `{"outputSchema": {"$schema": "https://example.com/dialect", "anyOf": [{"type": "object"}]}}`,
			Good:    `{"outputSchema": {"anyOf": [{"type": "object", "properties": {"retention": {"type": "string", "pattern": "^P"}}}]}}`,
			Check:   checkOutputSchemaUnchecked,
		},
		&lint.Rule{
			ID: "toolschema-output-schema-external-ref", Severity: lint.Info, Spec: spec,
			Keyword: "",
			Summary: "A Pilotage tool's outputSchema references an external document.",
			Doc:     "An outputSchema whose $ref points outside the schema makes every Host fetch that document to validate a result, which offline, sandboxed or air-gapped Hosts cannot do, and it can change under the Server's feet. pilotage-lint never follows such a reference: it reports it and checks the rest of the schema as if the reference accepted anything. Copy the definition under $defs and reference it as #/$defs/name.",
			Bad:     `{"outputSchema": {"anyOf": [{"$ref": "https://example.com/pilotage/validate.json"}]}}`,
			Good:    `{"outputSchema": {"anyOf": [{"$ref": "#/$defs/validate"}], "$defs": {"validate": {"type": "object"}}}}`,
			Check:   checkOutputSchemaExternalRef,
		},
		&lint.Rule{
			ID: "toolschema-output-schema-rejects-shape", Severity: lint.Error, Spec: spec,
			Quote:   "Because MCP requires `structuredContent` to satisfy the declared output schema even for request-error results, the schema MUST accept every possible `structuredContent` shape produced by that tool.",
			Keyword: "MUST",
			Summary: "A Pilotage tool's outputSchema rejects a structuredContent shape the tool can return.",
			Doc:     "A declared outputSchema MUST accept every structuredContent shape its tool can produce: every Part II success shape, every operation-specific shape (all three catalog verbs, valid and invalid validation results, started and refused Runs) and the Part III §7.2 request-error shape (Part III §6). pilotage-lint validates a minimal valid instance of each shape, built for the tool's stage and its Languages' capabilities (catalog_version, plan, locator dialect), against the tool's own schema and names each one it rejects; without a manifest, a shape passes when any capability variant of it does. The request-error shape passes when the schema admits it with any kind of the closed set: which kinds a tool can produce is the Server's to know (pilotage_manifest looks nothing up, a validate tool reports unknown names as diagnostics), so a schema may admit only those. The finding sits at the schema keyword that rejected the instance.",
			Bad:     `{"name": "trace_run", "outputSchema": {"type": "object", "required": ["run_id", "trace"]}}`,
			Good:    `{"name": "trace_run", "outputSchema": {"anyOf": [{"type": "object", "required": ["run_id", "trace"]}, {"type": "object", "required": ["error"]}]}}`,
			Scope:   "The outputSchema each Pilotage tool declares, against a minimal instance of every shape the tool can return: the fixed tools' published shapes (all three catalog verbs, with their request errors), and for a loop tool the shapes of each stage it serves, completed for its Languages' capabilities (without a manifest a shape passes when any capability variant does). Values the instance invents (run_id, names, tokens) may be constrained by the server; an optional array member may be required of a server that always sends it; a request error's kind may be limited to the kinds the tool produces, as long as one of the closed set is admitted. Every manifest version.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §6", Quote: "Servers SHOULD declare an MCP `outputSchema` for every Pilotage tool.", Fixture: "good-undeclared"},
				{Spec: "Part II §1.4", Quote: "Receivers MUST treat them identically. Senders MAY use either representation.", Fixture: "good-optional-array"},
				{Spec: "Part III §6", Quote: "the schema MUST accept every possible `structuredContent` shape produced by that tool.", Fixture: "good-audit-kinds-the-tool-produces"},
			},
			Check: checkOutputSchemaRejectsShape,
		},
	}
}

// pilotageTools returns the fixed access tools present and every loop tool
// present, each once, with the loop tool's stages when it is one.
func pilotageTools(p *lint.Pass) []pilotageTool {
	var out []pilotageTool
	seen := map[*snapshot.Tool]bool{}
	for _, name := range types.FixedTools {
		if t := p.Snap.Tool(name); t != nil && !seen[t] {
			seen[t] = true
			out = append(out, pilotageTool{Tool: t})
		}
	}
	for _, lt := range p.Snap.LoopTools() {
		if lt.Tool != nil && !seen[lt.Tool] {
			seen[lt.Tool] = true
			out = append(out, pilotageTool{Tool: lt.Tool, loop: lt})
		}
	}
	return out
}

type pilotageTool struct {
	*snapshot.Tool
	loop *snapshot.LoopTool
}

func checkOutputSchemaMissing(p *lint.Pass) {
	for _, t := range pilotageTools(p) {
		if t.OutputSchema == nil {
			p.ReportMissing(t.Node, "Pilotage tool %q declares no outputSchema; add one that is an anyOf of its Part II response shapes and the Part III §7.2 request-error shape", t.Name)
		}
	}
}

func checkOutputSchemaInvalid(p *lint.Pass) {
	reportOutputSchemaIssues(p, issueInvalid, "in the outputSchema of %q, %s")
}

func checkOutputSchemaExternalRef(p *lint.Pass) {
	reportOutputSchemaIssues(p, issueExternal, "in the outputSchema of %q, %s")
}

func checkOutputSchemaUnchecked(p *lint.Pass) {
	reportOutputSchemaIssues(p, issueUnchecked, "in the outputSchema of %q, pilotage-lint could not check this keyword: %s; the rest of the schema, shapes included, was checked as if it accepted anything")
}

// issueClass sorts compile issues between the three rules that report them.
type issueClass int

const (
	issueInvalid issueClass = iota
	issueExternal
	// issueUnchecked is a keyword the schema library could not evaluate,
	// which is no proof of a defect.
	issueUnchecked
)

func classOf(k schemacheck.IssueKind) issueClass {
	switch k {
	case schemacheck.ExternalRef:
		return issueExternal
	case schemacheck.UncheckedRegex, schemacheck.UnknownDialect:
		return issueUnchecked
	}
	return issueInvalid
}

// reportOutputSchemaIssues reports the compile issues of one class of every
// Pilotage tool's outputSchema.
func reportOutputSchemaIssues(p *lint.Pass, class issueClass, format string) {
	for _, t := range pilotageTools(p) {
		if t.OutputSchema == nil {
			continue
		}
		for _, is := range compileOutputSchema(t.OutputSchema).issues {
			if classOf(is.kind) == class {
				is.report(p, t.OutputSchema, format, t.Name, is.msg)
			}
		}
	}
}

func checkOutputSchemaRejectsShape(p *lint.Pass) {
	for _, t := range pilotageTools(p) {
		if t.OutputSchema == nil {
			continue
		}
		c := compileOutputSchema(t.OutputSchema)
		if c.schema == nil {
			continue
		}
		for _, sh := range shapesOf(p.Snap, t) {
			var first error
			accepted := false
			for _, inst := range sh.alts {
				err := c.schema.Validate(inst)
				// A Server MAY send an optional array member as [] rather
				// than leave it out (Part II §1.4): a schema requiring it
				// of a Server that always sends it admits all it returns.
				if err != nil {
					if full := withEmptyArrays(toolOrStageOf(t, sh.name), sh.name, inst); full != nil && c.schema.Validate(full) == nil {
						err = nil
					}
				}
				// A cycle met only along this instance's path says
				// nothing about the shape; do not blame the shape for it.
				// Nor does a constraint on a value the instance invented
				// (a run_id pattern, a length): the server picks its own
				// run_ids and names, and may constrain them.
				if err == nil || refCycle(err) != nil || onlyInventedValues(err) {
					accepted = true
					break
				}
				if first == nil {
					first = err
				}
			}
			if accepted {
				continue
			}
			ptr, why := rejection(first)
			p.Report(rulekit.At(t.OutputSchema, ptr), "the outputSchema of %q rejects the %q shape the tool can return (%s), so Hosts refuse that result; make the schema an anyOf that also admits this shape", t.Name, sh.name, why)
		}
	}
}

var printer = message.NewPrinter(language.English)

// onlyInventedValues reports whether a validation error refuses nothing but
// the values of an instance the rule made up: string formats, patterns and
// lengths, and numeric bounds. A union fails that way when one branch does;
// any other node when all its causes do.
func onlyInventedValues(err error) bool {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	var walk func(*jsonschema.ValidationError) bool
	walk = func(ve *jsonschema.ValidationError) bool {
		switch ve.ErrorKind.(type) {
		case *kind.Pattern, *kind.Format, *kind.MinLength, *kind.MaxLength,
			*kind.Minimum, *kind.Maximum, *kind.ExclusiveMinimum, *kind.ExclusiveMaximum, *kind.MultipleOf:
			return true
		case *kind.AnyOf, *kind.OneOf:
			return slices.ContainsFunc(ve.Causes, walk)
		}
		return len(ve.Causes) > 0 && !slices.ContainsFunc(ve.Causes, func(c *jsonschema.ValidationError) bool { return !walk(c) })
	}
	return walk(ve)
}

// rejection finds the schema keyword that refused an instance: it follows
// the error tree while it has one cause (or an anonymous group), so an
// anyOf with several failing branches is reported at the anyOf.
func rejection(err error) (ptr, why string) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return "", err.Error()
	}
	for len(ve.Causes) == 1 || (len(ve.Causes) > 1 && len(ve.ErrorKind.KeywordPath()) == 0) {
		ve = ve.Causes[0]
	}
	_, frag, _ := strings.Cut(ve.SchemaURL, "#")
	ptr = unescapeFragment(frag)
	for _, k := range ve.ErrorKind.KeywordPath() {
		ptr += "/" + jsonpointer.Escape(k)
	}
	why = reason(ve)
	if len(ve.Causes) > 1 {
		// Name each cause's own complaint: "anyOf failed" alone does not
		// say what the union lacks.
		kw := ve.ErrorKind.KeywordPath()
		union := len(kw) > 0 && (kw[len(kw)-1] == "anyOf" || kw[len(kw)-1] == "oneOf")
		var parts []string
		for i, c := range ve.Causes {
			for len(c.Causes) > 0 {
				c = c.Causes[0]
			}
			if union {
				parts = append(parts, fmt.Sprintf("branch %d %s", i+1, reason(c)))
			} else {
				parts = append(parts, reason(c))
			}
		}
		why += ": " + strings.Join(parts, ", ")
	}
	return ptr, why
}

// reason is the validator's complaint about one value, with the value's
// location inside the instance.
func reason(ve *jsonschema.ValidationError) string {
	why := ve.ErrorKind.LocalizedString(printer)
	if len(ve.InstanceLocation) > 0 {
		why = fmt.Sprintf("at /%s: %s", strings.Join(ve.InstanceLocation, "/"), why)
	}
	return why
}

// refCycle returns the reference cycle somewhere in a validation error.
func refCycle(err error) *kind.RefCycle {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil
	}
	if rc, ok := ve.ErrorKind.(*kind.RefCycle); ok {
		return rc
	}
	for _, c := range ve.Causes {
		if rc := refCycle(c); rc != nil {
			return rc
		}
	}
	return nil
}

func displayPtr(p string) string {
	if p == "" {
		return "the root"
	}
	return p
}

func unescapeFragment(frag string) string {
	if u, err := url.PathUnescape(frag); err == nil {
		return u
	}
	return frag
}

// compiledSchema is the result of compiling one outputSchema with
// schemacheck, the linter's one offline compiler. It holds pointers
// relative to the schema rather than nodes, so the cache does not keep
// parsed files alive.
type compiledSchema struct {
	// schema is nil when the schema does not compile even without its
	// external references, unknown dialect and bad patterns.
	schema *jsonschema.Schema
	issues []schemaIssue
}

type schemaIssue struct {
	kind schemacheck.IssueKind
	ptr  string
	key  bool
	msg  string
}

type compileOnce struct {
	once sync.Once
	c    *compiledSchema
}

// compiled caches compilations by outputSchema node for as long as the
// node lives, so the rules of this family compile each schema once per run
// even though each rule walks the tools separately.
var compiled sync.Map // weak.Pointer[source.Node] -> *compileOnce

func compileOutputSchema(n *source.Node) *compiledSchema {
	key := weak.Make(n)
	v, loaded := compiled.LoadOrStore(key, &compileOnce{})
	if !loaded {
		runtime.AddCleanup(n, func(k weak.Pointer[source.Node]) { compiled.Delete(k) }, key)
	}
	e := v.(*compileOnce)
	e.once.Do(func() {
		sch, issues := schemacheck.Compile(n)
		c := &compiledSchema{schema: sch}
		for _, is := range issues {
			c.issues = append(c.issues, schemaIssue{is.Kind, strings.TrimPrefix(is.Node.Pointer(), n.Pointer()), is.Key, is.Message})
		}
		// A $ref cycle that consumes no input compiles but fails every
		// validation; it is the schema's defect, not a rejected shape.
		if sch != nil {
			if rc := refCycle(sch.Validate(map[string]any{})); rc != nil {
				c.schema = nil
				c.issues = append(c.issues, schemaIssue{schemacheck.Invalid, rc.KeywordLocation1, false,
					fmt.Sprintf("its $ref chain loops without consuming input (evaluation path %s comes back to %s), so no value can ever be validated; break the cycle", displayPtr(rc.KeywordLocation1), displayPtr(rc.KeywordLocation2))})
			}
		}
		e.c = c
	})
	return e.c
}

// report puts an issue at its node, by name when the name is the defect.
func (is schemaIssue) report(p *lint.Pass, schema *source.Node, format string, args ...any) {
	n := rulekit.At(schema, is.ptr)
	if is.key {
		p.ReportKey(n, format, args...)
		return
	}
	p.Report(n, format, args...)
}
