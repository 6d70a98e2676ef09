// Package generate builds the JSON Schema files of package schemas from the
// Go types of pkg/types with invopop/jsonschema, then adds what reflection
// cannot know: closed-set enums, patterns, and the conditional rules of
// Part II and Part III that a schema can express.
//
// Files returns the files in memory so the freshness test can compare them
// with the committed ones byte for byte; the gen command writes them.
package generate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"

	"github.com/invopop/jsonschema"

	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Base is the $id prefix of every generated file.
const Base = "https://pilotagekit.dev/schemas/"

// Shape is one generated single-shape file.
type Shape struct {
	File  string
	Def   string // $defs name of the root
	Title string
	Type  any
}

// Shapes lists the single-shape files. Def names are the Go type names,
// which invopop uses as $defs keys.
var Shapes = []Shape{
	{"manifest.schema.json", "Manifest", "Pilotage manifest (Part II §5.1)", types.Manifest{}},
	{"language-entry.schema.json", "Language", "Language entry (Part II §5.1, Part III §4)", types.Language{}},
	{"capability-declaration.schema.json", "CapabilityDeclaration", "Capability declaration (Part II §4.2)", nil},
	{"guide-index-result.schema.json", "GuideIndexResult", "pilotage_get_guide index form result (Part III §4.1)", types.GuideIndexResult{}},
	{"guide-fetch-result.schema.json", "GuideFetchResult", "pilotage_get_guide fetch and topic form result (Part III §4.1)", types.GuideFetchResult{}},
	{"catalog-entry.schema.json", "CatalogEntry", "Catalog entry (Part II §5.4)", types.CatalogEntry{}},
	{"catalog-list-result.schema.json", "CatalogListResult", "Catalog list result (Part II §6.3)", types.CatalogListResult{}},
	{"catalog-get-result.schema.json", "CatalogGetResult", "Catalog get result (Part II §6.3)", types.CatalogGetResult{}},
	{"catalog-changed-since-result.schema.json", "CatalogChangedSinceResult", "Catalog changed_since result (Part II §6.3)", types.CatalogChangedSinceResult{}},
	{"risk-hints.schema.json", "RiskHints", "Risk hints (Part II §5.3)", types.RiskHints{}},
	{"text-range.schema.json", "TextRange", "Text range (Part II §5.5)", types.TextRange{}},
	{"diagnostic.schema.json", "Diagnostic", "Diagnostic (Part II §5.5)", types.Diagnostic{}},
	{"plan.schema.json", "Plan", "Plan (Part II §5.6)", types.Plan{}},
	{"outcome.schema.json", "Outcome", "Outcome (Part II §5.7)", types.Outcome{}},
	{"decision.schema.json", "Decision", "Trace decision (Part II §5.8)", types.Decision{}},
	{"trace.schema.json", "Trace", "Trace (Part II §5.8)", types.Trace{}},
	{"guide-request.schema.json", "GuideRequest", "pilotage_get_guide arguments (Part III §4.1)", types.GuideRequest{}},
	{"catalog-request.schema.json", "CatalogRequest", "pilotage_catalog arguments (Part III §4.2)", types.CatalogRequest{}},
	{"validate-request.schema.json", "ValidateRequest", "Abstract validate request (Part II §6.4)", types.ValidateRequest{}},
	{"validate-response.schema.json", "ValidateResponse", "Validate response (Part II §6.4)", types.ValidateResponse{}},
	{"execute-request.schema.json", "ExecuteRequest", "Abstract execute request (Part II §6.5, Part III §4.4)", types.ExecuteRequest{}},
	{"execute-response.schema.json", "ExecuteResponse", "Execute response (Part II §6.5)", types.ExecuteResponse{}},
	{"trace-fetch-request.schema.json", "TraceFetchRequest", "Trace fetch request (Part II §6.6)", types.TraceFetchRequest{}},
	{"trace-fetch-response.schema.json", "TraceFetchResponse", "Trace fetch response (Part II §6.6)", types.TraceFetchResponse{}},
	{"request-error.schema.json", "RequestError", "Request error structuredContent (Part III §7.2)", types.RequestError{}},
	{"program-declaration.schema.json", "ProgramDeclaration", "Program-valued tool declaration, _meta value (Part III §5)", types.ProgramDeclaration{}},
	{"initialize-meta.schema.json", "InitializeMeta", "Initialize result _meta value (Part III §3.2)", types.InitializeMeta{}},
}

// Union is one per-tool outputSchema union (Part III §6).
type Union struct {
	File, Def, Title string
	Members          []string // $defs names of the success shapes
}

// Unions lists the per-tool outputSchema unions; each also admits
// RequestError.
var Unions = []Union{
	{"output.pilotage_manifest.schema.json", "ManifestToolOutput", "pilotage_manifest outputSchema (Part III §3.1, §6)", []string{"Manifest"}},
	{"output.pilotage_get_guide.schema.json", "GetGuideToolOutput", "pilotage_get_guide outputSchema (Part III §4.1, §6)", []string{"GuideIndexResult", "GuideFetchResult"}},
	{"output.pilotage_catalog.schema.json", "CatalogToolOutput", "pilotage_catalog outputSchema (Part III §4.2, §6)", []string{"CatalogListResult", "CatalogGetResult", "CatalogChangedSinceResult"}},
	{"output.validate.schema.json", "ValidateToolOutput", "validate loop tool outputSchema (Part III §4.3, §6)", []string{"ValidateResponse"}},
	{"output.execute.schema.json", "ExecuteToolOutput", "execute loop tool outputSchema (Part III §4.3, §6)", []string{"ExecuteResponse"}},
	{"output.trace.schema.json", "TraceToolOutput", "trace fetch loop tool outputSchema (Part III §4.3, §6)", []string{"TraceFetchResponse"}},
}

// BundleFile holds every definition under $defs.
const BundleFile = "pilotage.schema.json"

func must(s string) *jsonschema.Schema {
	var out jsonschema.Schema
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		panic(fmt.Sprintf("generate: bad schema literal %s: %v", s, err))
	}
	return &out
}

func ref(def string) *jsonschema.Schema { return &jsonschema.Schema{Ref: "#/$defs/" + def} }

func enum[T ~string](vals []T) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string"}
	for _, v := range vals {
		s.Enum = append(s.Enum, string(v))
	}
	return s
}

func mapper(t reflect.Type) *jsonschema.Schema {
	switch t {
	case reflect.TypeFor[types.Optional]():
		return &jsonschema.Schema{}
	case reflect.TypeFor[types.NullableString]():
		return must(`{"anyOf":[{"type":"string"},{"type":"null"}]}`)
	case reflect.TypeFor[types.CapabilityDeclaration]():
		return ref("CapabilityDeclaration")
	case reflect.TypeFor[types.Path]():
		return ref("DiagnosticPath")
	case reflect.TypeFor[types.Retention]():
		return ref("Retention")
	case reflect.TypeFor[types.Locator]():
		return enum(types.Locators)
	case reflect.TypeFor[types.ExecutionMode]():
		return enum(types.ExecutionModes)
	case reflect.TypeFor[types.RunMode]():
		return enum(types.RunModes)
	case reflect.TypeFor[types.TraceLevel]():
		return enum(types.TraceLevels)
	case reflect.TypeFor[types.TraceSubprogram]():
		return enum(types.TraceSubprograms)
	case reflect.TypeFor[types.PromotionAuthority]():
		return enum(types.PromotionAuthorities)
	case reflect.TypeFor[types.GuideLevel]():
		return enum(types.GuideLevels)
	case reflect.TypeFor[types.Severity]():
		return enum(types.Severities)
	case reflect.TypeFor[types.ChangeKind]():
		return enum(types.ChangeKinds)
	case reflect.TypeFor[types.CatalogVerb]():
		return enum(types.CatalogVerbs)
	case reflect.TypeFor[types.ErrorKind]():
		return enum(types.ErrorKinds)
	}
	return nil
}

// definitions reflects every shape into one $defs map and applies the
// hand-written rules.
func definitions() (jsonschema.Definitions, error) {
	r := &jsonschema.Reflector{
		// Receivers ignore unknown members (Part II §1.2), so no schema
		// may close an object.
		AllowAdditionalProperties: true,
		Anonymous:                 true,
		Mapper:                    mapper,
	}
	defs := jsonschema.Definitions{}
	for _, s := range Shapes {
		if s.Type == nil {
			continue
		}
		sch := r.Reflect(s.Type)
		for k, v := range sch.Definitions {
			defs[k] = v
		}
	}
	for name, d := range handWritten() {
		defs[name] = d
	}
	if err := patch(defs); err != nil {
		return nil, err
	}
	for _, u := range Unions {
		s := &jsonschema.Schema{Title: u.Title, Type: "object"}
		for _, m := range u.Members {
			s.AnyOf = append(s.AnyOf, ref(m))
		}
		s.AnyOf = append(s.AnyOf, ref("RequestError"))
		defs[u.Def] = s
	}
	return defs, nil
}

var refRE = regexp.MustCompile(`"\$ref":"#/\$defs/([^"]+)"`)

// closure returns the $defs reachable from root.
func closure(defs jsonschema.Definitions, root string) (jsonschema.Definitions, error) {
	out := jsonschema.Definitions{}
	todo := []string{root}
	for len(todo) > 0 {
		n := todo[0]
		todo = todo[1:]
		if _, done := out[n]; done {
			continue
		}
		d, ok := defs[n]
		if !ok {
			return nil, fmt.Errorf("generate: $ref to undefined %q", n)
		}
		out[n] = d
		b, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		for _, m := range refRE.FindAllSubmatch(b, -1) {
			todo = append(todo, string(m[1]))
		}
	}
	return out, nil
}

func encode(s *jsonschema.Schema) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Files returns every generated file by name.
func Files() (map[string][]byte, error) {
	defs, err := definitions()
	if err != nil {
		return nil, err
	}
	files := map[string][]byte{}
	emit := func(file, def, title string) error {
		cl, err := closure(defs, def)
		if err != nil {
			return err
		}
		s := &jsonschema.Schema{
			Version:     jsonschema.Version,
			ID:          jsonschema.ID(Base + file),
			Title:       title,
			Ref:         "#/$defs/" + def,
			Definitions: cl,
		}
		b, err := encode(s)
		files[file] = b
		return err
	}
	for _, s := range Shapes {
		if err := emit(s.File, s.Def, s.Title); err != nil {
			return nil, err
		}
	}
	for _, u := range Unions {
		cl, err := closure(defs, u.Def)
		if err != nil {
			return nil, err
		}
		delete(cl, u.Def)
		// The union sits at the root, not behind a $ref, so the file can be
		// pasted as an MCP outputSchema, which must be an object schema.
		s := &jsonschema.Schema{
			Version:     jsonschema.Version,
			ID:          jsonschema.ID(Base + u.File),
			Title:       u.Title,
			Type:        "object",
			AnyOf:       defs[u.Def].AnyOf,
			Definitions: cl,
		}
		b, err := encode(s)
		if err != nil {
			return nil, err
		}
		files[u.File] = b
	}
	bundle := &jsonschema.Schema{
		Version:     jsonschema.Version,
		ID:          jsonschema.ID(Base + BundleFile),
		Title:       "Every Pilotage 1.1 shape; reference one with #/$defs/NAME",
		Definitions: defs,
	}
	b, err := encode(bundle)
	if err != nil {
		return nil, err
	}
	files[BundleFile] = b
	return files, nil
}

// Names returns the generated file names, sorted.
func Names() []string {
	var out []string
	for _, s := range Shapes {
		out = append(out, s.File)
	}
	for _, u := range Unions {
		out = append(out, u.File)
	}
	out = append(out, BundleFile)
	sort.Strings(out)
	return out
}
