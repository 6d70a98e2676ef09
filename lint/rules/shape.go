package rules

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint"
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

// embedded compiles the generated schemas once per process, each on first
// use, with a loader that serves only the embedded files.
var embedded = struct {
	sync.Mutex
	m map[string]*jsonschema.Schema
}{m: map[string]*jsonschema.Schema{}}

type embeddedLoader struct{}

func (embeddedLoader) Load(url string) (any, error) {
	name, ok := strings.CutPrefix(url, schemas.Base)
	if !ok {
		return nil, fmt.Errorf("refusing to load %s: only the embedded Pilotage schemas are available", url)
	}
	b, ok := schemas.Get(name)
	if !ok {
		return nil, fmt.Errorf("no embedded schema %s", name)
	}
	return jsonschema.UnmarshalJSON(bytes.NewReader(b))
}

func embeddedSchema(name string) *jsonschema.Schema {
	embedded.Lock()
	defer embedded.Unlock()
	if s := embedded.m[name]; s != nil {
		return s
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(embeddedLoader{})
	s, err := c.Compile(schemas.ID(name))
	if err != nil {
		// The generated files are compiled by the schemas tests; reaching
		// this is a build defect, which the engine reports as internal-error.
		panic(fmt.Sprintf("embedded schema %s does not compile: %v", name, err))
	}
	embedded.m[name] = s
	return s
}

var english = message.NewPrinter(language.English)

// validateShape validates n against the named schema and reports each leaf
// error at its instance location.
func validateShape(p *lint.Pass, n *source.Node, schemaName, what string) {
	if n == nil {
		return
	}
	err := embeddedSchema(schemaName).Validate(n.Value())
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return
	}
	reportSchemaError(p, n, ve, what)
}

func reportSchemaError(p *lint.Pass, root *source.Node, ve *jsonschema.ValidationError, what string) {
	at := root.Path(ve.InstanceLocation...)
	if at == nil {
		at = root
	}
	switch k := ve.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			reportSchemaError(p, root, c, what)
		}
		return
	case *kind.AnyOf, *kind.OneOf:
		// Descend into the one alternative whose type matched; when none or
		// several did, say plainly that no allowed form fits.
		if b := matchingBranch(ve); b != nil {
			reportSchemaError(p, root, b, what)
			return
		}
		if _, one := k.(*kind.OneOf); one && len(ve.Causes) == 0 {
			p.Report(at, "%s: this value matches more than one of the allowed forms; make it match exactly one", what)
			return
		}
		p.Report(at, "%s: this %s matches none of the forms allowed here (%s); see docs/rules.md for the expected shape", what, at.Kind, allowedTypes(ve))
	case *kind.Required:
		p.ReportMissing(at, "%s: missing required %s %s; add %s", what, plural(len(k.Missing), "member"), quoteList(k.Missing), them(len(k.Missing)))
	case *kind.Type:
		p.Report(at, "%s: %s is %s but must be %s", what, label(at), article(k.Got), strings.Join(k.Want, " or "))
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprintf("%v", jsonText(w)))
		}
		p.Report(at, "%s: %s is %s, which is not one of %s", what, label(at), jsonText(k.Got), strings.Join(want, ", "))
	case *kind.Const:
		p.Report(at, "%s: %s must be %s", what, label(at), jsonText(k.Want))
	case *kind.FalseSchema:
		p.Report(at, "%s: %s is not allowed here; remove it", what, label(at))
	default:
		p.Report(at, "%s: %s: %s", what, label(at), ve.ErrorKind.LocalizedString(english))
	}
}

// matchingBranch returns the single alternative that failed only below the
// alternative's own location, that is, whose type was right.
func matchingBranch(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	var found *jsonschema.ValidationError
	for _, c := range ve.Causes {
		if typeMismatchAt(c, len(ve.InstanceLocation)) {
			continue
		}
		if found != nil {
			return nil
		}
		found = c
	}
	return found
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

func allowedTypes(ve *jsonschema.ValidationError) string {
	seen := map[string]bool{}
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		switch k := e.ErrorKind.(type) {
		case *kind.Type:
			for _, w := range k.Want {
				seen[w] = true
			}
		case *kind.Const:
			seen[jsonText(k.Want)] = true
		}
		for _, c := range e.Causes {
			if len(c.InstanceLocation) == len(ve.InstanceLocation) {
				walk(c)
			}
		}
	}
	walk(ve)
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "see the schema"
	}
	return "expected " + strings.Join(out, " or ")
}

func label(n *source.Node) string {
	switch {
	case n.Parent == nil:
		return "the value"
	case n.Parent.Kind == source.Object:
		return fmt.Sprintf("%q", n.Key)
	}
	return fmt.Sprintf("item %d", n.Index)
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

func quoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

func plural(n int, w string) string {
	if n == 1 {
		return w
	}
	return w + "s"
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

func init() {
	register(
		&lint.Rule{
			ID: "shape-manifest", Severity: lint.Error, Spec: "Part II §5.1", Fallback: true,
			Summary: "The manifest does not match the manifest schema.",
			Doc:     "The manifest is the agent's map of the server: every member has a type and some are required (Part II §5.1). This rule validates the manifest (and an inline initialize manifest) against schemas/manifest.schema.json, generated from pkg/types, and reports each mismatch at its exact location. More specific manifest rules explain most defects; this rule catches the rest, such as a wrong JSON type.",
			Bad:     `{"pilotage": 1.1, "languages": [{"name": "flow/1", "title": "Flows", "guides": "pilotage_get_guide", "loop": {"validate": "validate_flow"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`,
			Good:    `{"pilotage": "1.1", "languages": [{"name": "flow/1", "title": "Flows", "guides": "pilotage_get_guide", "loop": {"validate": "validate_flow"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`,
			Check: func(p *lint.Pass) {
				for _, m := range manifests(p.Snap) {
					validateShape(p, m, schemas.Manifest, "manifest")
				}
			},
		},
		&lint.Rule{
			ID: "shape-program-declaration", Severity: lint.Error, Spec: "Part III §5", Fallback: true,
			Summary: "A tool's Pilotage _meta value does not match the program declaration schema.",
			Doc:     "A tool that accepts a program declares it under _meta[\"io.github.jafarsa0/pilotage\"] as {argument, language} or {languages: [{argument, language}, ...]} (Part III §5). A generic Client builds requests from this declaration alone, so a wrong type or a missing member leaves it unable to send the program at all.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": 1, "language": "flow/1"}}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "flow/1"}}}`,
			Check: func(p *lint.Pass) {
				for _, t := range p.Snap.Tools {
					if d := t.ProgramDeclaration(); d != nil {
						validateShape(p, d, schemas.ProgramDeclaration, "program declaration")
					}
				}
			},
		},
		&lint.Rule{
			ID: "shape-initialize-meta", Severity: lint.Error, Spec: "Part III §3.2", Fallback: true,
			Summary: "The Pilotage _meta value of initialize or discover does not match its schema.",
			Doc:     "The initialize (or server/discover) result may carry _meta[\"io.github.jafarsa0/pilotage\"] with an inline manifest and/or a manifest_uri (Part III §3.2). A value of the wrong shape is ignored by careful Clients and misread by careless ones.",
			Bad:     `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": 7}}}`,
			Good:    `{"_meta": {"io.github.jafarsa0/pilotage": {"manifest_uri": "pilotage://manifest"}}}`,
			Check: func(p *lint.Pass) {
				for _, r := range []*source.Node{p.Snap.Initialize, p.Snap.Discover} {
					if v := r.Path("_meta", types.MetaKey); v != nil {
						validateShape(p, v, schemas.InitializeMeta, "initialize _meta")
					}
				}
			},
		},
		&lint.Rule{
			ID: "shape-result", Severity: lint.Error, Spec: "Part III §6", Fallback: true,
			Summary: "A recorded Pilotage tool result's structuredContent matches none of the tool's response shapes.",
			Doc:     "Every Pilotage tool returns the Part II response object in structuredContent, or the request-error shape {error: {kind, message}} (Part III §6, §7.2). This rule validates each recorded result (snapshot calls, or tools/call results in a capture) against the outputSchema union of its tool, generated from pkg/types, so a result an agent cannot parse is caught before it ships.",
			Bad:     `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"valid": "yes"}, "isError": false}}`,
			Good:    `{"name": "validate_flow", "arguments": {"flow": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}, "isError": false}}`,
			Check: func(p *lint.Pass) {
				loops := map[string]*snapshot.LoopTool{}
				for _, lt := range p.Snap.LoopTools() {
					loops[lt.Name] = lt
				}
				for _, c := range p.Snap.Calls {
					sc := c.Result.Get("structuredContent")
					if sc == nil {
						continue
					}
					if name := resultSchema(loops, c.Name); name != "" {
						validateShape(p, sc, name, c.Name+" result")
					}
				}
			},
		},
	)
}
