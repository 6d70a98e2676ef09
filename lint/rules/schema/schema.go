package schema

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// schemaPortability reports, for every schema a server publishes that no
// Pilotage-specific rule compiles, what makes it depend on more than its own
// document: an external $ref, an unknown dialect, a regular expression RE2
// cannot compile. The scan never follows a reference.
func schemaPortability(p *lint.Pass) {
	pilotage := map[string]bool{types.ToolManifest: true, types.ToolGetGuide: true, types.ToolCatalog: true}
	for _, lt := range p.Snap.LoopTools() {
		pilotage[lt.Name] = true
	}
	check := func(n *source.Node, what string) {
		for _, is := range schemacheck.Scan(n) {
			if is.Key {
				p.ReportKey(is.Node, "%s: %s", what, is.Message)
			} else {
				p.Report(is.Node, "%s: %s", what, is.Message)
			}
		}
	}
	for _, t := range p.Snap.Tools {
		check(t.InputSchema, "inputSchema of "+t.Name)
		// Pilotage tools' output schemas are compiled, and reported, by the
		// toolschema-output-schema rules.
		if !pilotage[t.Name] {
			check(t.OutputSchema, "outputSchema of "+t.Name)
		}
	}
	for _, l := range p.Snap.Languages {
		check(l.Node.Get("context_schema"), "context_schema of Language "+l.Label())
	}
	for _, c := range p.Snap.Calls {
		if c.Name != types.ToolCatalog {
			continue
		}
		sc := c.Result.Get("structuredContent")
		entries := append([]*source.Node{sc.Get("entry")}, sc.Get("items").Items()...)
		for _, e := range entries {
			id, _ := e.Str("id")
			check(e.Get("input_schema"), "input_schema of catalog entry "+id)
			check(e.Get("output_schema"), "output_schema of catalog entry "+id)
		}
	}
}

func portabilityRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "tool-schema-portability", Severity: lint.Info, Spec: "Part III §4.6, §6; Part II §5.4",
		Keyword: "",
		Summary: "A published schema depends on more than its own document: an external $ref, an unknown $schema dialect, or a pattern RE2 cannot compile.",
		Doc:     "Clients and SDKs validate arguments and results against the schemas a server publishes: every tool's inputSchema and outputSchema, each Language's context_schema, and the input_schema and output_schema of catalog entries (Part II §5.4). A $ref to a file, a URL or a relative path makes that validation depend on what the client can fetch, which differs between hosts and fails offline; an unknown $schema dialect or a regular expression that Go's RE2 (and so Go SDKs) cannot compile makes some clients reject the tool outright. pilotage-lint never follows such a reference: it names it. Pilotage tools' output schemas are checked by the toolschema-output-schema rules instead.",
		Bad:     `{"name": "zone_state", "inputSchema": {"type": "object", "properties": {"zone": {"$ref": "https://schemas.example.com/zone.json"}}}}`,
		Good:    `{"name": "zone_state", "inputSchema": {"type": "object", "properties": {"zone": {"$ref": "#/$defs/zone"}}, "$defs": {"zone": {"type": "string"}}}}`,
		Check:   schemaPortability,
	}}
}
