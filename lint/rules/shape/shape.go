package shape

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
	"github.com/pilotagekit/pilotagekit/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// The shape rules validate recognized objects against the schemas generated
// from pkg/types. They are fallbacks: when a specific rule reports the same
// pointer, its finding explains the defect better and the shape finding is
// dropped.

// embeddedSchema compiles the generated schemas once per process, each on
// first use, without re-validating them against their meta-schema.
func embeddedSchema(name string) *jsonschema.Schema { return schemacheck.Embedded(name) }

var english = message.NewPrinter(language.English)

// validateShape validates n against the named schema and reports each leaf
// error at its instance location.
// Under a manifest of a later minor version (later), a string outside an
// enum is a value that minor may have added, and is not judged.
func validateShape(p *lint.Pass, n *source.Node, schemaName, what string, later bool) {
	if n == nil {
		return
	}
	ve := shapeError(p, n, schemaName)
	if ve == nil {
		return
	}
	reportSchemaError(p, n, ve, what, later)
}

// shapeErrors keeps validation outcomes by schema and value text: the same
// Language entry or declaration recurs across the files of a run, and
// validating it again was a tenth of the CPU of a run over 1,000 files.
// The outcome is a function of the text alone, and reportSchemaError only
// reads it and resolves its locations against the node at hand.
var (
	shapeErrors     sync.Map // [sha256.Size]byte -> *jsonschema.ValidationError
	shapeErrorsSize atomic.Int32
)

const maxShapeErrors = 4096

func shapeError(p *lint.Pass, n *source.Node, schemaName string) *jsonschema.ValidationError {
	validate := func() *jsonschema.ValidationError {
		ve, _ := embeddedSchema(schemaName).Validate(n.Value()).(*jsonschema.ValidationError)
		return ve
	}
	// Only a clean parse guarantees that equal text made an equal tree.
	var f *source.File
	if p.Snap != nil {
		f = p.Snap.FileOf(n)
	}
	if f == nil || len(f.Problems) > 0 || n.End <= n.Start || int(n.End) > len(f.Data) {
		return validate()
	}
	h := sha256.New()
	h.Write([]byte(schemaName))
	h.Write([]byte{0})
	h.Write([]byte(f.Data[n.Start:n.End]))
	var key [sha256.Size]byte
	h.Sum(key[:0])
	if v, ok := shapeErrors.Load(key); ok {
		return v.(*jsonschema.ValidationError)
	}
	ve := validate()
	if shapeErrorsSize.Load() < maxShapeErrors {
		if _, loaded := shapeErrors.LoadOrStore(key, ve); !loaded {
			shapeErrorsSize.Add(1)
		}
	}
	return ve
}

func reportSchemaError(p *lint.Pass, root *source.Node, ve *jsonschema.ValidationError, what string, later bool) {
	if undefinedMember(ve) || summarizedDecisions(ve.InstanceLocation) {
		return
	}
	at := root.Path(ve.InstanceLocation...)
	if at == nil {
		at = root
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			reportSchemaError(p, root, c, what, later)
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		// Descend into the one alternative whose type matched; when none or
		// several did, say plainly that no allowed form fits.
		if b := matchingBranch(ve); b != nil {
			reportSchemaError(p, root, b, what, later)
			return
		}
		if _, one := k.(*kind.OneOf); one && len(ve.Causes) == 0 {
			p.Report(at, "%s: this value matches more than one of the allowed forms; make it match exactly one", what)
			return
		}
		p.Report(at, "%s: this %s matches none of the shapes allowed here (%s); make it one of them", what, at.Kind, alternatives(ve))
	case *kind.Not, *kind.Contains:
		// The generated schemas encode cross-member rules (valid against
		// the diagnostics' severities, members present only with a
		// capability) with not and contains; the specific rules report
		// each in the spec's words, and the engine's "'not' failed" names
		// no fault a reader can act on.
		return
	case *kind.Required:
		p.ReportMissing(at, "%s: missing required %s %s; add %s", what, lint.Plural(len(k.Missing), "member"), rulekit.QuoteList(k.Missing), them(len(k.Missing)))
	case *kind.Type:
		p.Report(at, "%s: %s is %s but must be %s", what, rulekit.Label(at), article(k.Got), strings.Join(k.Want, " or "))
	case *kind.Pattern:
		if later && rulekit.ReservedWord(k.Got) {
			return
		}
		p.Report(at, "%s: %s: %s", what, rulekit.Label(at), ve.ErrorKind.LocalizedString(english))
	case *kind.Enum:
		if _, ok := k.Got.(string); ok && later {
			return
		}
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprintf("%v", jsonText(w)))
		}
		p.Report(at, "%s: %s is %s, which is not one of %s", what, rulekit.Label(at), jsonText(k.Got), strings.Join(want, ", "))
	case *kind.Const:
		p.Report(at, "%s: %s must be %s", what, rulekit.Label(at), jsonText(k.Want))
	case *kind.FalseSchema:
		p.Report(at, "%s: %s is not allowed here; remove it", what, rulekit.Label(at))
	default:
		p.Report(at, "%s: %s: %s", what, rulekit.Label(at), ve.ErrorKind.LocalizedString(english))
	}
}

// undefinedMember reports whether a validation error judges a member the
// schema does not define, through additionalProperties: the generated
// capability schemas type every unknown capability and sub-feature (Part
// II §4.2's "an object containing boolean sub-feature declarations"), but
// a receiver MUST ignore members it does not recognize (Part II §1.2) and
// a later minor may add members (§11.1). capability-unknown and
// capability-subfeature name such members at warning under 1.1, so the
// fallback never judges them, and a later minor is not judged more
// strictly than 1.1.
func undefinedMember(ve *jsonschema.ValidationError) bool {
	return strings.HasSuffix(ve.SchemaURL, "/additionalProperties")
}

// summarizedDecisions reports whether an instance location is, or lies
// inside, the decisions of a trace entry: a loop entry "MAY instead use an
// Engine-defined summarized decision representation documented in the
// closed-sets guide" (Part II §5.8.2), any value, while the trace step
// table types decisions as an array of decisions. Which entry is a loop
// needs the plan; result-trace-control-flow reads it.
func summarizedDecisions(loc []string) bool {
	for i := 1; i+2 < len(loc); i++ {
		if loc[i-1] == "trace" && loc[i] == "steps" && loc[i+2] == "decisions" {
			return true
		}
	}
	return false
}

// matchingBranch returns the alternative the value was evidently meant to
// be: the only one whose type matched, or among several, the only one whose
// required members are all present.
func matchingBranch(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	depth := len(ve.InstanceLocation)
	var typed []*jsonschema.ValidationError
	for _, c := range ve.Causes {
		if !typeMismatchAt(c, depth) {
			typed = append(typed, c)
		}
	}
	if len(typed) == 1 {
		return typed[0]
	}
	var complete []*jsonschema.ValidationError
	for _, c := range typed {
		if !missingAt(c, depth) {
			complete = append(complete, c)
		}
	}
	if len(complete) == 1 {
		return complete[0]
	}
	return nil
}

func missingAt(ve *jsonschema.ValidationError, depth int) bool {
	if _, ok := ve.ErrorKind.(*kind.Required); ok && len(ve.InstanceLocation) == depth {
		return true
	}
	for _, c := range ve.Causes {
		if len(c.InstanceLocation) == depth && missingAt(c, depth) {
			return true
		}
	}
	return false
}

func typeMismatchAt(ve *jsonschema.ValidationError, depth int) bool {
	if len(ve.InstanceLocation) != depth {
		return false
	}
	switch ve.ErrorKind.(type) {
	case *kind.Type, *kind.Const, *kind.Enum, *kind.FalseSchema:
		return true
	}
	for _, c := range ve.Causes {
		if typeMismatchAt(c, depth) {
			return true
		}
	}
	return false
}

// alternatives names each alternative of a failed anyOf or oneOf with its
// first problem, such as `CatalogGetResult lacks "entry"`.
func alternatives(ve *jsonschema.ValidationError) string {
	var out []string
	for i, c := range ve.Causes {
		out = append(out, branchName(c, i)+" "+firstProblem(c))
	}
	return strings.Join(out, "; ")
}

// branchName is the $defs name an alternative refers to, or its position.
func branchName(ve *jsonschema.ValidationError, i int) string {
	for e := ve; e != nil; {
		if r, ok := e.ErrorKind.(*kind.Reference); ok {
			return r.URL[strings.LastIndex(r.URL, "/")+1:]
		}
		if len(e.Causes) != 1 {
			break
		}
		e = e.Causes[0]
	}
	return fmt.Sprintf("form %d", i+1)
}

func firstProblem(ve *jsonschema.ValidationError) string {
	switch k := ve.ErrorKind.(type) {
	case *kind.Required:
		return "lacks " + rulekit.QuoteList(k.Missing)
	case *kind.Type:
		return "needs " + strings.Join(k.Want, " or ")
	case *kind.Const:
		return "needs " + jsonText(k.Want)
	}
	if len(ve.Causes) > 0 {
		return firstProblem(ve.Causes[0])
	}
	loc := "/" + strings.Join(ve.InstanceLocation, "/")
	return "rejects " + loc + ": " + ve.ErrorKind.LocalizedString(english)
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func jsonText(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("%q", x)
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", v)
}

func them(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// manifests yields the authoritative manifest and, when it is a different
// node, the inline one of initialize or discover.
func manifests(s *snapshot.Snapshot) []*source.Node {
	var out []*source.Node
	if s.Manifest != nil {
		out = append(out, s.Manifest)
	}
	if s.InlineManifest != nil && s.InlineManifest != s.Manifest {
		out = append(out, s.InlineManifest)
	}
	return out
}

// resultSchema names the outputSchema union a recorded call's
// structuredContent must satisfy, or "" when the tool is not a Pilotage tool.
func resultSchema(loops map[string]*snapshot.LoopTool, name string) string {
	switch name {
	case types.ToolManifest, types.ToolGetGuide, types.ToolCatalog:
		n, _ := schemas.OutputSchemaFor(name)
		return n
	}
	if lt := loops[name]; lt != nil {
		if st, ok := lt.Stage(); ok {
			n, _ := schemas.OutputSchemaFor(string(st))
			return n
		}
	}
	return ""
}

func shapeRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "shape-manifest", Severity: lint.Error, Spec: "Part II §1.1, §5.1", Fallback: true,
			Quote:   "- **M**: the field MUST be present;",
			Keyword: "MUST",
			Summary: "The manifest does not match the manifest schema.",
			Doc:     "The manifest is the agent's map of the server: every member has a type and some are required (Part II §5.1). This rule validates each Language entry and the Server-level capability declaration of the manifest (and of an inline initialize manifest) against schemas/language-entry.schema.json and schemas/capability-declaration.schema.json, generated from pkg/types, and reports each mismatch at its exact location. More specific manifest rules explain most defects; this rule catches the rest, such as a wrong JSON type.",
			Bad:     `{"pilotage": 1.1, "languages": [{"name": "flow/1", "title": "Flows", "guides": "pilotage_get_guide", "loop": {"validate": "validate_flow"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`,
			Good:    `{"pilotage": "1.1", "languages": [{"name": "flow/1", "title": "Flows", "guides": "pilotage_get_guide", "loop": {"validate": "validate_flow"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`,
			Scope:   "The authoritative manifest and an inline one (initialize or server/discover): each Language entry and the Server-level capability declaration, each against its schema generated from pkg/types. A fallback: a specific rule reporting the same pointer replaces it. Members the schemas do not define are allowed, whatever their value: an unknown capability or sub-feature is capability-unknown's or capability-subfeature's warning under 1.1 and not judged under a later minor, never typed here; under a manifest of a later minor version a string outside a closed set, or one a pattern rejects that has the form of a reserved value, is not judged.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §1.2", Quote: "A receiver MUST ignore members it does not recognize in any Pilotage data structure.", Fixture: "good-unknown-members"},
				{Spec: "Part II §1.2", Quote: "A receiver MUST ignore members it does not recognize in any Pilotage data structure.", Fixture: "good-audit-later-minor-unknown-member-type"},
				{Spec: "Part II §11.1", Quote: "Minor versions are strictly additive. They may add: - OPTIONAL fields; - sub-features; - reserved values.", Fixture: "good-later-minor"},
			},
			// The whole-manifest schema encodes every combination of Server-
			// and Language-level declarations and costs ~8x more to compile;
			// the specific rules check those combinations, so the fallback
			// validates the parts on their own schemas.
			Check: func(p *lint.Pass) {
				for _, m := range manifests(p.Snap) {
					later := rulekit.DeclaresLaterMinor(m)
					if c := m.Get("capabilities"); c != nil {
						validateShape(p, c, schemas.CapabilityDeclaration, "manifest capabilities", later)
					}
					for _, l := range m.Get("languages").Items() {
						validateShape(p, l, schemas.LanguageEntry, "Language entry", later)
					}
				}
			},
		},
		&lint.Rule{
			ID: "shape-result", Severity: lint.Error, Spec: "Part II §1.1; Part III §6", Fallback: true,
			Quote:   "- **M**: the field MUST be present;",
			Keyword: "MUST",
			Summary: "A recorded Pilotage tool result's structuredContent matches none of the tool's response shapes.",
			Doc:     "Every Pilotage tool returns the Part II response object in structuredContent, or the request-error shape {error: {kind, message}} (Part III §6, §7.2). This rule validates each recorded result (snapshot calls, or tools/call results in a capture) against the outputSchema union of its tool, generated from pkg/types, so a result an agent cannot parse is caught before it ships.",
			Bad:     `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"valid": "yes"}, "isError": false}}`,
			Good:    `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "isError": false}}`,
			Scope:   "The structuredContent of every recorded result of a fixed access tool or a loop tool (a replay included: it returns the original Run's result), against the outputSchema union published for that tool or stage; results of other tools are not judged. A fallback: a specific rule reporting the same pointer replaces it. Members the schemas do not define are allowed, an OPTIONAL array may be absent or empty, a trace entry's decisions may be any value (a loop's summarized form), and under a manifest of a later minor version a string outside a closed set (a request-error kind, say) is not judged. An isError result to a request the tool's inputSchema refuses where the binding makes the refusal carrier-level (rulekit.CarrierAnswer) is the carrier's answer, not judged; nor is an answer for a tool that a recorded listing lacks (rulekit.Listed), which is no Pilotage tool's.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.8.2", Quote: "MAY instead use an Engine-defined summarized decision representation documented in the closed-sets guide.", Fixture: "good-audit-summarized-decisions"},
				{Spec: "Part III §4.6", Quote: "Only structural faults may be expressed by the schema. These are exactly: - a missing schema-required member; - an incorrect JSON type. Those faults are carrier-level.", Fixture: "lookalikes/good-carrier-answer"},
				{Spec: "Part III §4", Quote: "All Pilotage tools: - appear in tools/list;", Fixture: "lookalikes/good-unlisted-tool"},
				{Spec: "Part II §1.2", Quote: "A receiver MUST ignore members it does not recognize in any Pilotage data structure.", Fixture: "good-unknown-members"},
				{Spec: "Part II §1.4", Quote: "Receivers MUST treat them identically. Senders MAY use either representation.", Fixture: "good-empty-and-absent-arrays"},
				{Spec: "Part III §7.2", Quote: "A minor revision MAY add request-error kinds, under Part II's unknown-value convention.", Fixture: "good-later-minor-kind"},
				{Spec: "Part III §7.2", Quote: "A minor revision MAY add request-error kinds, under Part II's unknown-value convention.", Fixture: "good-inline-later-minor-kind"},
			},
			Check: func(p *lint.Pass) {
				loops := map[string]*snapshot.LoopTool{}
				for _, lt := range p.Snap.LoopTools() {
					loops[lt.Name] = lt
				}
				for _, c := range p.Snap.Calls {
					sc := c.Result.Get("structuredContent")
					if sc == nil || !rulekit.Listed(p.Snap, c.Name) || rulekit.CarrierAnswer(p.Snap, c) {
						continue
					}
					if name := resultSchema(loops, c.Name); name != "" {
						validateShape(p, sc, name, c.Name+" result", rulekit.Of(p.Snap).LaterMinor())
					}
				}
			},
		},
	}
}
