package toolschema

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
	"github.com/pilotagekit/pilotagekit/schemas"
)

// The structuredContent shapes a Pilotage tool can return start from the
// minimal instances the schemas package publishes per tool and stage
// (schemas.Examples: required members only). Those are context-free, so a
// loop tool's instances are completed here with the members its Languages'
// capabilities make mandatory (catalog_version, plan) and widened with the
// variants a tool really returns (an invalid validation, a Run with an
// inline trace, a refused Run, a catalog request error with its mandated
// catalog_version sibling, Part III §7.2).

// shape is one structuredContent shape of a tool. It is accepted when any
// alternative validates; alternatives stand for what the linter cannot
// know, such as the capabilities of a Language when there is no manifest.
type shape struct {
	name string
	alts []any
}

// decode reads JSON the way the schema compiler reads documents (numbers
// as json.Number).
// Every input is one of a few constant texts, decoded once per process;
// callers get a fresh copy, which they may change (re-decoding them for
// every file was a quarter of the CPU of a run over 1,000 files).
func decode(b []byte) any {
	if v, ok := decodedOnce.Load(string(b)); ok {
		return copyJSON(v)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		panic("toolschema: bad example instance: " + err.Error())
	}
	decodedOnce.Store(string(b), v)
	return copyJSON(v)
}

var decodedOnce sync.Map // text -> decoded value, never handed out

func copyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = copyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = copyJSON(e)
		}
		return out
	}
	return v
}

// examples returns fresh decoded copies of the published minimal instances
// of a tool or stage, by shape name.
func examples(toolOrStage string) map[string]map[string]any {
	raw, _ := schemas.Examples(toolOrStage)
	out := map[string]map[string]any{}
	for name, b := range raw {
		if m, ok := decode(b).(map[string]any); ok {
			out[name] = m
		}
	}
	return out
}

// Members the published minimal instances leave out because the
// capabilities of a Language, not the shape, require them.
const (
	completeHints  = `{"readOnly": true, "destructive": false, "openWorld": false}`
	planLit        = `{"steps": [], "max_risk": "safe", "max_risk_hints": ` + completeHints + `}`
	pointerPathLit = `""`
	rangePathLit   = `{"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}`
	catalogVersion = "cv1"
)

func diagnostic(textRange bool) any {
	path := pointerPathLit
	if textRange {
		path = rangePathLit
	}
	return decode([]byte(`{"severity": "error", "code": "constraint", "path": ` + path + `, "message": "program is invalid"}`))
}

// langFacts are the capabilities that change a loop tool's result shapes.
type langFacts struct {
	catalog, plan, textRange bool
}

// factsOf returns the facts of each Language the tool serves on a stage.
func factsOf(langs []*snapshot.Language) (facts []langFacts, names []string) {
	for _, l := range langs {
		loc, _ := l.Node.Str("locator")
		facts = append(facts, langFacts{
			catalog:   l.Caps.Declared(string(types.CapCatalog)),
			plan:      l.Caps.Declared(string(types.CapPlan)),
			textRange: loc == string(types.LocatorTextRange),
		})
		names = append(names, l.Name)
	}
	return facts, names
}

// allFacts are tried as alternatives when the stage was inferred without
// a manifest; built per use, not at package init.
func allFacts() []langFacts {
	var out []langFacts
	for _, c := range []bool{false, true} {
		for _, p := range []bool{false, true} {
			for _, r := range []bool{false, true} {
				out = append(out, langFacts{c, p, r})
			}
		}
	}
	return out
}

// loopVariant builds one shape of a stage for one Language's facts.
type loopVariant struct {
	name  string
	build func(f langFacts) any
}

func loopVariants(st types.Stage) []loopVariant {
	switch st {
	case types.StageValidate:
		return []loopVariant{
			{"ValidateResponse", func(f langFacts) any {
				m := examples("validate")["ValidateResponse"]
				if f.catalog {
					m["catalog_version"] = catalogVersion
				}
				if f.plan {
					m["plan"] = decode([]byte(planLit))
				}
				return m
			}},
			{"ValidateResponse with valid false", func(f langFacts) any {
				m := examples("validate")["ValidateResponse"]
				m["valid"] = false
				m["diagnostics"] = []any{diagnostic(f.textRange)}
				if f.catalog {
					m["catalog_version"] = catalogVersion
				}
				return m
			}},
		}
	case types.StageExecute:
		return []loopVariant{
			{"ExecuteResponse", func(langFacts) any { return examples("execute")["ExecuteResponse"] }},
			{"ExecuteResponse with an inline trace", func(langFacts) any {
				m := examples("execute")["ExecuteResponse"]
				m["trace"] = examples("trace")["TraceFetchResponse"]["trace"]
				return m
			}},
			{"ExecuteResponse refused with validation_error", func(f langFacts) any {
				m := examples("execute")["ExecuteResponse"]
				m["outcome"] = map[string]any{"ok": false, "status": string(types.StatusValidationError), "error": "program is invalid"}
				m["diagnostics"] = []any{diagnostic(f.textRange)}
				return m
			}},
		}
	case types.StageTraceFetch:
		return []loopVariant{
			{"TraceFetchResponse", func(langFacts) any { return examples("trace")["TraceFetchResponse"] }},
		}
	}
	return nil
}

// builtOnce holds every instance shapesOf has built, by what it was built
// for: the instances depend only on the tool or stage and a Language's
// facts, so each is built once per process rather than once per tool of
// every file (a seventh of the CPU of a run over 1,000 files). Instances
// are shared and so are never changed once built; the schema validator
// only reads them.
var builtOnce sync.Map // builtKey -> any

type builtKey struct {
	name  string
	facts langFacts
}

func built(name string, f langFacts, build func() any) any {
	k := builtKey{name, f}
	if v, ok := builtOnce.Load(k); ok {
		return v
	}
	v, _ := builtOnce.LoadOrStore(k, build())
	return v
}

// fixedShapes lists the published shapes of a fixed access tool, sorted
// by name so messages come in a stable order. The slice is the caller's;
// the instances are shared.
func fixedShapes(tool string) []shape {
	return slices.Clone(built("fixed "+tool, langFacts{}, func() any { return buildFixedShapes(tool) }).([]shape))
}

func buildFixedShapes(tool string) []shape {
	ex := examples(tool)
	if e, ok := ex["CatalogGetResult"]["entry"].(map[string]any); ok {
		// The published instance holds required members only, and Part II
		// §5.3 lists the three hints without marking them required; the
		// official schema requires all three, and a Server sends all
		// three, so the witness carries them.
		e["risk_hints"] = decode([]byte(completeHints))
	}
	names := make([]string, 0, len(ex))
	for n := range ex {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []shape
	for _, n := range names {
		out = append(out, shape{n, []any{ex[n]}})
	}
	return out
}

// toolOrStageOf names what a tool's shape is published for: the fixed
// tool's name, or the stage of a loop tool whose published definitions
// hold the one the shape's name starts with.
func toolOrStageOf(t pilotageTool, name string) string {
	if t.loop == nil {
		return t.Name
	}
	def, _, _ := strings.Cut(name, " ")
	for _, st := range types.Stages {
		if !t.loop.Serves(st) {
			continue
		}
		if _, ok := examples(string(st))[def]; ok {
			return string(st)
		}
	}
	return ""
}

// withEmptyArrays returns a copy of instance inst of the shape named name
// (its published definition is the first word) with each optional
// array-valued member its definition declares, and those of the objects it
// holds, present as []; nil when there is none to add.
func withEmptyArrays(toolOrStage, name string, inst any) any {
	file, ok := schemas.OutputSchemaFor(toolOrStage)
	if !ok {
		return nil
	}
	b, _ := schemas.Get(file)
	doc, _ := decode(b).(map[string]any)
	defs, _ := doc["$defs"].(map[string]any)
	def, _, _ := strings.Cut(name, " ")
	out := copyJSON(inst)
	if !fillArrays(defs, def, out, map[string]bool{}) {
		return nil
	}
	return out
}

// fillArrays adds [] for each optional array member definition def
// declares and inst lacks, descending into members inst holds that refer
// to another definition; it reports whether it added any.
func fillArrays(defs map[string]any, def string, inst any, busy map[string]bool) bool {
	obj, ok := inst.(map[string]any)
	d, _ := defs[def].(map[string]any)
	if !ok || d == nil || busy[def] {
		return false
	}
	busy[def] = true
	defer delete(busy, def)
	props, _ := d["properties"].(map[string]any)
	req, _ := d["required"].([]any)
	added := false
	for name, ps := range props {
		sub, _ := ps.(map[string]any)
		if sub == nil {
			continue
		}
		v, present := obj[name]
		ref, _ := sub["$ref"].(string)
		switch {
		case !present && sub["type"] == "array" && !slices.Contains(req, any(name)):
			obj[name] = []any{}
			added = true
		case present && strings.HasPrefix(ref, "#/$defs/"):
			added = fillArrays(defs, strings.TrimPrefix(ref, "#/$defs/"), v, busy) || added
		}
	}
	return added
}

// shapesOf lists every structuredContent shape tool t can return, the
// request-error shape included, with each request-error shape widened to
// every kind of the closed set (see anyKind).
func shapesOf(snap *snapshot.Snapshot, t pilotageTool) []shape {
	out := toolShapes(snap, t)
	for i := range out {
		out[i] = anyKind(out[i])
	}
	return out
}

// anyKind widens a request-error shape (its instances carry an error
// object with a kind) into one alternative per kind of the Part III §7.2
// closed set, not_found first. Which kinds a tool can produce is the
// Server's to know: pilotage_manifest looks nothing up, and a validate
// tool reports unknown names as diagnostics (Part II §8), so a schema that
// admits only the kinds its tool produces admits every shape it returns.
// The shape is what must be admitted (Part III §6), with some kind.
func anyKind(sh shape) shape {
	if len(sh.alts) == 0 {
		return sh
	}
	first, ok := sh.alts[0].(map[string]any)
	if e, _ := first["error"].(map[string]any); !ok || e == nil || e["kind"] == nil {
		return sh
	}
	alts := slices.Clip(sh.alts)
	for _, inst := range sh.alts {
		// The instances differ by tool (a catalog error carries
		// catalog_version), so the cache key holds the instance itself.
		text, _ := json.Marshal(inst)
		for _, k := range types.ErrorKinds[1:] {
			alts = append(alts, built(string(text)+" kind "+string(k), langFacts{}, func() any {
				m, _ := copyJSON(inst).(map[string]any)
				if e, _ := m["error"].(map[string]any); e != nil {
					e["kind"] = string(k)
				}
				return m
			}))
		}
	}
	return shape{sh.name, alts}
}

func toolShapes(snap *snapshot.Snapshot, t pilotageTool) []shape {
	switch t.Name {
	case types.ToolManifest:
		out := fixedShapes(t.Name)
		if snap.Manifest.IsObject() {
			// The Server's own manifest is as good a witness as the
			// minimal one: a schema narrowed to this Server still admits
			// what this Server returns.
			for i := range out {
				if out[i].name == "Manifest" {
					out[i].alts = append(slices.Clip(out[i].alts), snap.Manifest.Value())
				}
			}
		}
		return out
	case types.ToolGetGuide:
		return fixedShapes(t.Name)
	case types.ToolCatalog:
		reqErr := built("catalog RequestError", langFacts{}, func() any {
			m := examples(t.Name)["RequestError"]
			m["catalog_version"] = catalogVersion
			return m
		})
		return append(fixedShapes(t.Name), shape{"RequestError with catalog_version", []any{reqErr}})
	}
	if t.loop == nil {
		return nil
	}
	var out []shape
	for _, st := range types.Stages {
		if !t.loop.Serves(st) {
			continue
		}
		facts, names := factsOf(t.loop.Stages[st])
		for _, v := range loopVariants(st) {
			if len(facts) == 0 {
				var alts []any
				for _, f := range allFacts() {
					alts = append(alts, built(v.name, f, func() any { return v.build(f) }))
				}
				out = append(out, shape{v.name, alts})
				continue
			}
			for i, f := range facts {
				name := v.name
				if len(facts) > 1 {
					name += " for " + names[i]
				}
				out = append(out, shape{name, []any{built(v.name, f, func() any { return v.build(f) })}})
			}
		}
	}
	return append(out, shape{"RequestError", []any{built("RequestError", langFacts{}, func() any { return examples("validate")["RequestError"] })}})
}
