package rules

import (
	"encoding/json"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Minimal valid structuredContent instances of every shape a Pilotage tool
// can return (Part II §5-§6, Part III §4.1, §4.2, §7.2), written from the
// spec's required-member tables. Each carries only the members the spec
// requires for the capabilities at hand, so an outputSchema that rejects
// one rejects a conformant result.

// shape is one structuredContent shape of a tool. It is accepted when any
// alternative validates; alternatives stand for what the linter cannot
// know, such as the capabilities of a Language when there is no manifest.
type shape struct {
	name string
	alts []any
}

// instance decodes a JSON literal the way the schema compiler decodes
// documents (numbers as json.Number).
func instance(lit string) any {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(lit))
	if err != nil {
		panic("toolschema: bad instance literal: " + err.Error() + ": " + lit)
	}
	return v
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const (
	requestErrorLit        = `{"error": {"kind": "internal", "message": "engine unavailable"}}`
	catalogRequestErrorLit = `{"error": {"kind": "not_found", "message": "unknown entry"}, "catalog_version": "cv_1"}`
	riskLit                = `"risk": "low", "risk_hints": {"readOnly": true, "destructive": false, "openWorld": false}`
	planLit                = `{"steps": [], "max_risk": "low", "max_risk_hints": {"readOnly": true, "destructive": false, "openWorld": false}}`
	okOutcomeLit           = `{"ok": true, "status": "success", "error": null}`
	summaryTraceLit        = `{"run_id": "run_1", "level": "summary", "steps": []}`
	pointerPathLit         = `""`
	rangePathLit           = `{"start": {"line": 1, "column": 1}, "end": {"line": 1, "column": 2}}`
)

func minimalManifest(lang string) string {
	return `{"pilotage": ` + jsonString(types.WireVersion) + `, "languages": [{"name": ` + jsonString(lang) +
		`, "title": "Example", "guides": ` + jsonString(types.ToolGetGuide) +
		`, "loop": {"validate": "validate_example"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`
}

func guideMeta(lang, id, level, topic string) string {
	return `"id": ` + jsonString(id) + `, "title": "Guide", "level": ` + jsonString(level) + `, "topics": [` + jsonString(topic) +
		`], "language": ` + jsonString(lang) + `, "version": "1", "size_bytes": 6`
}

func diagnosticLit(path string) string {
	return `{"severity": "error", "code": "constraint", "path": ` + path + `, "message": "program is invalid"}`
}

// langFacts are the capabilities that change a loop tool's result shapes.
type langFacts struct {
	catalog, plan, textRange bool
}

// factsOf returns the facts of each Language; with no Languages (a stage
// inferred without a manifest) it returns every combination, to be tried
// as alternatives.
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

var allFacts = func() []langFacts {
	var out []langFacts
	for _, c := range []bool{false, true} {
		for _, p := range []bool{false, true} {
			for _, r := range []bool{false, true} {
				out = append(out, langFacts{c, p, r})
			}
		}
	}
	return out
}()

func (f langFacts) catalogVersion() string {
	if f.catalog {
		return `, "catalog_version": "cv_1"`
	}
	return ""
}

func (f langFacts) diagnostic() string {
	if f.textRange {
		return diagnosticLit(rangePathLit)
	}
	return diagnosticLit(pointerPathLit)
}

// loopShapes are the success shapes of one stage for one Language's facts.
var loopShapes = map[types.Stage][]struct {
	name string
	lit  func(langFacts) string
}{
	types.StageValidate: {
		{"valid validate result", func(f langFacts) string {
			plan := ""
			if f.plan {
				plan = `, "plan": ` + planLit
			}
			return `{"valid": true, "diagnostics": []` + f.catalogVersion() + plan + `}`
		}},
		{"invalid validate result", func(f langFacts) string {
			return `{"valid": false, "diagnostics": [` + f.diagnostic() + `]` + f.catalogVersion() + `}`
		}},
	},
	types.StageExecute: {
		{"run result without inline trace", func(langFacts) string {
			return `{"run_id": "run_1", "outcome": ` + okOutcomeLit + `}`
		}},
		{"run result with inline trace", func(langFacts) string {
			return `{"run_id": "run_1", "outcome": ` + okOutcomeLit + `, "trace": ` + summaryTraceLit + `}`
		}},
		{"refused run (validation_error with diagnostics)", func(f langFacts) string {
			return `{"run_id": "run_1", "outcome": {"ok": false, "status": "validation_error", "error": "program is invalid"}, "diagnostics": [` + f.diagnostic() + `]}`
		}},
	},
	types.StageTraceFetch: {
		{"fetched trace", func(langFacts) string {
			return `{"run_id": "run_1", "outcome": ` + okOutcomeLit + `, "trace": ` + summaryTraceLit + `}`
		}},
	},
}

// shapesOf lists every structuredContent shape tool t can return, the
// request-error shape included.
func shapesOf(snap *snapshot.Snapshot, t pilotageTool) []shape {
	langNames := []string{"example/1"}
	for _, l := range snap.Languages {
		if l.Name != "" {
			langNames = append(langNames, l.Name)
		}
	}
	perLang := func(f func(lang string) string) []any {
		var alts []any
		for _, l := range langNames {
			alts = append(alts, instance(f(l)))
		}
		return alts
	}
	reqErr := shape{"request error", []any{instance(requestErrorLit)}}
	switch t.Name {
	case types.ToolManifest:
		m := shape{"manifest", perLang(minimalManifest)}
		if snap.Manifest.IsObject() {
			m.alts = append(m.alts, snap.Manifest.Value())
		}
		return []shape{m, reqErr}
	case types.ToolGetGuide:
		return []shape{
			{"guide index", perLang(func(l string) string {
				return `{"guides": [{` + guideMeta(l, "core", "core", "basics") + `}, {` + guideMeta(l, "closed-sets", "reference", types.ClosedSetsTopic) + `}]}`
			})},
			{"guide", perLang(func(l string) string {
				return `{"guide": {` + guideMeta(l, "core", "core", "basics") + `, "body": "# Core"}}`
			})},
			reqErr,
		}
	case types.ToolCatalog:
		return []shape{
			{"catalog list", []any{instance(`{"items": [], "catalog_version": "cv_1"}`)}},
			{"catalog get", []any{instance(`{"entry": {"id": "e1", "kind": "action", "name": "Entry", ` + riskLit + `}, "catalog_version": "cv_1"}`)}},
			{"catalog changed_since", []any{instance(`{"catalog_version": "cv_2", "changes": []}`)}},
			reqErr,
			{"request error with catalog_version", []any{instance(catalogRequestErrorLit)}},
		}
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
		for _, s := range loopShapes[st] {
			if len(facts) == 0 {
				var alts []any
				for _, f := range allFacts {
					alts = append(alts, instance(s.lit(f)))
				}
				out = append(out, shape{s.name, alts})
				continue
			}
			for i, f := range facts {
				name := s.name
				if len(facts) > 1 {
					name += " for " + names[i]
				}
				out = append(out, shape{name, []any{instance(s.lit(f))}})
			}
		}
	}
	return append(out, reqErr)
}
