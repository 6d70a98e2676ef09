package rules

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

func init() {
	register(&lint.Rule{
		ID: "manifest-context-schema", Severity: lint.Error, Spec: "Part II §5.1, §6.4",
		Quote:   "| `context_schema` | JSON Schema | Conditional | MUST be present when the Language requires validation context. It MUST otherwise be absent. |",
		Keyword: "MUST",
		Summary: "A Language's context_schema is not a JSON Schema that compiles on its own.",
		Doc:     "`context_schema` tells a generic Client how to build the `context` a Language requires, and the Server checks supplied context against it (a failure is a `context_binding` diagnostic). It must therefore be a valid JSON Schema (draft 2020-12 unless `$schema` says otherwise) that is complete in itself: a `$ref` to an external document cannot be assumed reachable by a Client, and pilotage-lint, which runs offline, never fetches it. Internal references (`#/$defs/...`) are fine.",
		Bad:     `{"context_schema": {"type": "objet", "properties": {"site": {"$ref": "https://example.com/site.json"}}}}`,
		Good:    `{"context_schema": {"type": "object", "properties": {"site": {"$ref": "#/$defs/site"}}, "$defs": {"site": {"type": "string"}}}}`,
		Check:   checkContextSchema,
	})
}

// checkContextSchema compiles through schemacheck, the one compiler that
// never leaves the document: a context_schema comes from a server the user
// does not control.
func checkContextSchema(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		_, issues := schemacheck.Compile(l.Node.Get("context_schema"))
		for _, is := range issues {
			if is.Key {
				p.ReportKey(is.Node, "context_schema of Language %s: %s", l.Label(), is.Message)
			} else {
				p.Report(is.Node, "context_schema of Language %s: %s", l.Label(), is.Message)
			}
		}
	})
}
