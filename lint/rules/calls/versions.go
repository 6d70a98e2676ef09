package calls

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

func callVersionRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-catalog-version-content", Severity: lint.Error, Spec: "Part II §5.4",
			Quote:   "The token MUST change whenever: a visible entry is added; a visible entry is removed; any defined field of a visible entry changes, except `revision`.",
			Keyword: "MUST",
			Summary: "Two recorded catalog responses with the same catalog_version show the same entry with different field values.",
			Doc:     "catalog_version is the drift token: a Client that validated against a token trusts that an equal token means an unchanged vocabulary (Part II §5.4, §6.5.3). When the same token comes back with an entry whose risk, schema or name changed, drift protection silently passes a program checked against the old entry. Only the fields the spec defines for an entry and present in both responses are compared, revision is left out, as the spec says, and tags and languages are compared as sets, as diff-catalog-version-content compares them.",
			Bad:     `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock", "kind": "lock", "name": "Dock door", "risk": "write"}, "catalog_version": "cv_1"}}}, {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock", "kind": "lock", "name": "Dock door", "risk": "destructive"}, "catalog_version": "cv_1"}}}]`,
			Good:    `[{"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock", "kind": "lock", "name": "Dock door", "risk": "write"}, "catalog_version": "cv_1"}}}, {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock", "kind": "lock", "name": "Dock door", "risk": "destructive"}, "catalog_version": "cv_2"}}}]`,
			Scope:   "Catalog responses (list, get, changed_since) of one Language carrying the same catalog_version and the same entry id, anywhere in the recording: a write between them excuses nothing, since the token must change with the entry. Only the fields Part II §5.4 defines and both responses carry are compared; revision and members 1.1 does not define are left out.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §5.4", Quote: "any defined field of a visible entry changes, except `revision`.", Fixture: "good-revision"},
			},
			Check: checkCallCatalogVersionContent,
		},
		{
			ID: "call-guide-version-content", Severity: lint.Error, Spec: "Part II §5.2, §11.2",
			Quote:   "It MUST change whenever the guide content changes.",
			Keyword: "MUST",
			Summary: "The same guide id and version was returned twice with a different body, title, level or topics.",
			Doc:     "Clients cache guides by (Server, Language, guide version) (Part II §11.2): a guide whose content changes under an unchanged version leaves every cached copy silently stale. The rule compares the guides the recorded calls returned (whole-guide fetches with each other, and their metadata with the index entries) for the same Language, id and version. Topic fetches are left out, since their body holds only one topic; topics are compared as a set.",
			Bad:     `[{"name": "pilotage_get_guide", "arguments": {"language": "flow/1", "id": "quickstart"}, "result": {"structuredContent": {"guide": {"id": "quickstart", "title": "First flow", "level": "core", "topics": ["steps"], "language": "flow/1", "version": "3", "size_bytes": 5, "body": "Steps"}}}}, {"name": "pilotage_get_guide", "arguments": {"language": "flow/1", "id": "quickstart"}, "result": {"structuredContent": {"guide": {"id": "quickstart", "title": "First flow", "level": "core", "topics": ["steps"], "language": "flow/1", "version": "3", "size_bytes": 6, "body": "Steps!"}}}}]`,
			Good:    `[{"name": "pilotage_get_guide", "arguments": {"language": "flow/1", "id": "quickstart"}, "result": {"structuredContent": {"guide": {"id": "quickstart", "title": "First flow", "level": "core", "topics": ["steps"], "language": "flow/1", "version": "3", "size_bytes": 5, "body": "Steps"}}}}, {"name": "pilotage_get_guide", "arguments": {"language": "flow/1", "id": "quickstart"}, "result": {"structuredContent": {"guide": {"id": "quickstart", "title": "First flow", "level": "core", "topics": ["steps"], "language": "flow/1", "version": "4", "size_bytes": 6, "body": "Steps!"}}}}]`,
			Scope:   "Guides of one Language with the same id and version in successful guide responses: whole-guide fetches with each other, and their metadata with the index entries; a topic fetch is left out.",
			Exceptions: []lint.Exception{
				{Spec: "Part III §4.1", Quote: "the response uses the same guide shape, but `body` contains only the requested topic.", Fixture: "good-topic"},
				{Spec: "Part II §6.2", Quote: "It returns every guide field except the body.", Fixture: "good"},
			},
			Check: checkCallGuideVersionContent,
		},
		{
			ID: "call-entry-input-schema-invalid", Severity: lint.Error, Spec: "Part II §1.1, §5.4",
			Quote:        "| `input_schema` | JSON Schema | M for callable kinds | Declared shape of the callable entry's input. |",
			Keyword:      "MUST",
			Summary:      "A recorded catalog entry's input_schema is not a JSON Schema that compiles.",
			Doc:          "A callable entry's input_schema is the JSON Schema a Client builds the entry's input from, and against which a promoted program's input is validated (Part II §5.4, §6.5.5). A value that breaks the JSON Schema meta-schema, or whose local references do not resolve, is no schema at all. The schema is compiled offline: an external $ref is never fetched and is not reported here, nor is a pattern that only Go's RE2 cannot compile, since both can be valid JSON Schema.",
			Bad:          `{"entry": {"id": "light.lobby", "kind": "light", "name": "Lobby", "risk": "write", "input_schema": {"type": "objet"}}, "catalog_version": "cv_1"}`,
			Good:         `{"entry": {"id": "light.lobby", "kind": "light", "name": "Lobby", "risk": "write", "input_schema": {"type": "object"}}, "catalog_version": "cv_1"}`,
			Scope:        "Every input_schema, neither absent nor null, of an entry in a successful catalog response of any Language.",
			NoExceptions: "Part II §1.1 and §5.4 and the catalog verbs of §6.3 were read: an input_schema is a JSON Schema wherever an entry carries one, and no sentence admits another value. What the rule cannot compile offline (an external $ref, which it never fetches, or a pattern only RE2 rejects) is not reported.",
			Check:        checkCallEntryInputSchema,
		},
	}
}

func checkCallCatalogVersionContent(p *lint.Pass) {
	seen := map[snapshot.EntryKey]*source.Node{}
	for _, e := range p.Snap.VersionedEntries() {
		prev := seen[e.Key]
		if prev == nil {
			seen[e.Key] = e.Node
			continue
		}
		if at, _, f := snapshot.Differ(prev, e.Node, snapshot.EntryFields); at != nil {
			p.Report(at, "entry %q changed its %s under the same catalog_version %q: change the token whenever a defined field of a visible entry changes", e.Key.ID, f, e.Key.Version)
		}
	}
}

func checkCallGuideVersionContent(p *lint.Pass) {
	index := map[snapshot.GuideKey]*source.Node{}
	fetched := map[snapshot.GuideKey]*source.Node{}
	for _, g := range p.Snap.VersionedGuides() {
		k := g.Key
		switch {
		case !g.Fetched:
			if index[k] == nil {
				index[k] = g.Node
			}
		case k.Topic == "":
			// A topic fetch's body holds one topic; only whole guides are
			// compared here.
			if prev := fetched[k]; prev != nil {
				if at, _, f := snapshot.Differ(prev, g.Node, append([]string{"body"}, snapshot.GuideFields...)); at != nil {
					p.Report(at, "guide %q returned a different %s under the same version %q: change the guide version whenever its content changes", k.ID, f, k.Version)
				}
			} else {
				fetched[k] = g.Node
			}
			if ix := index[k]; ix != nil {
				if at, _, f := snapshot.Differ(ix, g.Node, snapshot.GuideFields); at != nil {
					p.Report(at, "guide %q has a different %s than its index entry of the same version %q: change the guide version whenever its content changes", k.ID, f, k.Version)
				}
			}
		}
	}
}

func checkCallEntryInputSchema(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		if !c.Succeeded() {
			continue
		}
		entries := c.Entries()
		for _, e := range entries {
			s := e.Get("input_schema")
			if s == nil || s.IsNull() {
				continue
			}
			id, _ := e.Str("id")
			_, issues := schemacheck.Compile(s)
			for _, is := range issues {
				if is.Kind != schemacheck.Invalid {
					continue
				}
				if is.Key {
					p.ReportKey(is.Node, "input_schema of entry %q: %s", id, is.Message)
				} else {
					p.Report(is.Node, "input_schema of entry %q: %s", id, is.Message)
				}
			}
		}
	}
}
