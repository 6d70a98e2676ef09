package manifest

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

func manifestSchemaRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "manifest-context-schema", Severity: lint.Error, Spec: "Part II §5.1, §6.4",
		Quote:        "| `context_schema` | JSON Schema | Conditional | MUST be present when the Language requires validation context. It MUST otherwise be absent. |",
		Keyword:      "MUST",
		Summary:      "A Language's context_schema is not a valid JSON Schema.",
		Doc:          "`context_schema` tells a generic Client how to build the `context` a Language requires, and the Server checks supplied context against it (a failure is a `context_binding` diagnostic). Part II §5.1 types it \"JSON Schema\", so this rule reports a schema that breaks its meta-schema (draft 2020-12 unless `$schema` says otherwise) or a local reference that does not resolve. A `$ref` to an external document is still JSON Schema: pilotage-lint never follows it, checks the rest, and leaves the portability note to tool-schema-portability (info).",
		Bad:          `{"context_schema": {"type": "objet"}}`,
		Good:         `{"context_schema": {"type": "object", "properties": {"site": {"$ref": "https://example.com/site.json"}}}}`,
		Scope:        "The context_schema of every Language entry that has one: a JSON Schema that its meta-schema accepts (the dialect its $schema names, draft 2020-12 by default) and whose local references resolve. An external $ref is never followed.",
		NoExceptions: "Part II §5.1 types context_schema as JSON Schema without naming a dialect or restricting it, so the rule validates against the dialect the schema declares (fixture good-draft07) and never follows an external $ref (good-external-ref); whether it must be present is Part II §6.4's context-binding question, judged from recorded calls, not here.",
		Check:        checkContextSchema,
	}}
}

// checkContextSchema compiles through schemacheck, the one compiler that
// never leaves the document: a context_schema comes from a server the user
// does not control.
func checkContextSchema(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		_, issues := schemacheck.Compile(l.Node.Get("context_schema"))
		for _, is := range issues {
			// Part II §5.1 asks only for "JSON Schema": an external $ref,
			// a dialect or a pattern this linter cannot check is still
			// one. tool-schema-portability notes those, as advice.
			if is.Kind != schemacheck.Invalid {
				continue
			}
			if is.Key {
				p.ReportKey(is.Node, "context_schema of Language %s: %s", l.Label(), is.Message)
			} else {
				p.Report(is.Node, "context_schema of Language %s: %s", l.Label(), is.Message)
			}
		}
	})
}
