package diff

import (
	"fmt"
	"slices"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Unlike the compatibility rules, these judge spec duties that only two
// recordings together can show: a change-detection token or a guide version
// that stayed the same while what it stands for changed. They quote the
// sentence they enforce and are graded by its keyword.
var (
	catalogVersionContent = &lint.Rule{
		ID: "diff-catalog-version-content", Severity: lint.Error, Spec: "Part II §5.4, §11.3",
		Quote:        "The token MUST change whenever: a visible entry is added; a visible entry is removed; any defined field of a visible entry changes, except `revision`.",
		Keyword:      "MUST",
		Summary:      "A catalog entry changed, appeared or disappeared between the two snapshots while the Language's catalog_version stayed the same.",
		Doc:          "A Client that validated a program against a catalog_version sends it back as expected_catalog_version, and an equal token tells the Server and the Client that the vocabulary is unchanged (Part II §5.4, §6.5.3). When an entry's kind, schema, risk or name differs between two recordings under the same token, drift protection passes programs checked against the old entry, which breaks the Hosts whose risk gates read the old risk. The rule compares, per Language and token, the entries both recordings returned for the same id, a listing with a listing and a get with a get (a listing may abridge an entry), and only the fields the spec defines that both show; revision is left out as the spec says, and tags and languages are compared as sets. An id that a get found in one recording and answered not_found in the other under the same token is an entry added or removed without a token change. The token is scoped to the Client's authorization, so compare snapshots taken with the same credentials.",
		Bad:          `old: {"entry": {"id": "lock.dock", "risk": "write", ...}, "catalog_version": "cv_1"}   new: {"entry": {"id": "lock.dock", "risk": "destructive", ...}, "catalog_version": "cv_1"}`,
		Good:         `old: {"entry": {"id": "lock.dock", "risk": "write", ...}, "catalog_version": "cv_1"}   new: {"entry": {"id": "lock.dock", "risk": "destructive", ...}, "catalog_version": "cv_2"}`,
		Scope:        "Two recordings of one server, per Language and catalog_version string: entries both returned for the same id (a listing against a listing, a get against a get), on the fields Part II §5.4 defines that both show, revision left out; and an id a get found in one and answered not_found in the other under the same token. Fields a later minor adds are not compared: only those 1.1 defines are.",
		NoExceptions: "§5.4 scopes the token to the Client's authorization (\"It represents only the catalog visible to that Client.\"), and a recording does not say which credentials made it, so no fixture can show that exception: the rule assumes both snapshots were taken with the same credentials, and its doc tells users to compare them that way. \"Changing the token unnecessarily is not itself a conformance violation\" narrows the opposite direction (a new token with equal content), which this rule never reports.",
	}
	guideVersionContent = &lint.Rule{
		ID: "diff-guide-version-content", Severity: lint.Error, Spec: "Part II §5.2, §11.2",
		Quote:        "It MUST change whenever the guide content changes.",
		Keyword:      "MUST",
		Summary:      "A guide of the same Language, id and version has a different body, title, level, topics or format in the two snapshots.",
		Doc:          "Clients cache guides by (Server, Language identifier, guide version) (Part II §11.2), so a guide whose content changes under an unchanged version leaves every cached copy silently stale and breaks the agents that learn from the cache. The rule compares what both recordings returned for the same Language, id and version: whole-guide fetches with each other (body included), topic fetches with fetches of the same topic, and index entries with index entries and whole-guide fetches (metadata only), since a topic fetch's body holds one topic; topics are compared as a set.",
		Bad:          `old: {"guide": {"id": "quickstart", "version": "3", "body": "Steps", ...}}   new: {"guide": {"id": "quickstart", "version": "3", "body": "Steps!", ...}}`,
		Good:         `old: {"guide": {"id": "quickstart", "version": "3", "body": "Steps", ...}}   new: {"guide": {"id": "quickstart", "version": "4", "body": "Steps!", ...}}`,
		Scope:        "Two recordings of one server, per Language, guide id and version: whole-guide fetches against whole-guide fetches (body included), topic fetches against fetches of the same topic, index entries against index entries and whole-guide fetches (metadata only).",
		NoExceptions: "Part II §5.2 and §11.2 were read: a topic fetch's body holds one topic (§5.2), which is why bodies are compared only between fetches of the same scope; no sentence lets content change under an unchanged version.",
	}
)

func checkCatalogVersionContent(c *comparison) {
	old := map[snapshot.EntryKey]*source.Node{}
	for _, e := range listsAndGets(c.old) {
		if old[e.Key] == nil {
			old[e.Key] = e.Node
		}
	}
	checkCatalogPresence(c)
	done := map[snapshot.EntryKey]bool{}
	for _, e := range listsAndGets(c.new) {
		k, o := e.Key, old[e.Key]
		if o == nil || done[k] {
			continue
		}
		done[k] = true
		if at, was, f := snapshot.Differ(o, e.Node, snapshot.EntryFields); at != nil {
			c.reportWith(catalogVersionContent, at, was, "the old value", "entry %q changed its %s since %s while catalog_version stayed %q: change the token whenever a defined field of a visible entry changes", k.ID, f, c.old.Files[0].Name, k.Version)
		}
	}
}

// listsAndGets returns the versioned entries of catalog list and get calls.
func listsAndGets(s *snapshot.Snapshot) []snapshot.VersionedEntry {
	var out []snapshot.VersionedEntry
	for _, e := range s.VersionedEntries() {
		if e.Key.Verb == "list" || e.Key.Verb == "get" {
			out = append(out, e)
		}
	}
	return out
}

// getKey names a catalog get: the Language, the token it answered with and
// the id asked.
type getKey struct{ lang, token, id string }

// catalogGets returns, for each get a snapshot recorded, the entry it
// returned (found) or the catalog_version of its not_found answer.
func catalogGets(s *snapshot.Snapshot) (found, missing map[getKey]*source.Node) {
	found, missing = map[getKey]*source.Node{}, map[getKey]*source.Node{}
	for _, c := range s.CallsOf(snapshot.OpCatalog) {
		if c.Verb != "get" {
			continue
		}
		id, ok1 := c.Arguments.Str("id")
		token, ok2 := c.StructuredContent.Str("catalog_version")
		if !ok1 || !ok2 {
			continue
		}
		lang, _ := c.Arguments.Str("language")
		k := getKey{lang, token, id}
		switch {
		case c.Succeeded():
			if e := c.StructuredContent.Get("entry"); e.IsObject() && found[k] == nil {
				if eid, _ := e.Str("id"); eid == id {
					found[k] = e
				}
			}
		case c.Channel == snapshot.ChannelRequestError && c.ErrorKind == "not_found" && missing[k] == nil:
			missing[k] = c.StructuredContent.Get("catalog_version")
		}
	}
	return found, missing
}

// checkCatalogPresence reports an id that one snapshot's get found and the
// other's answered not_found under the same token: a visible entry added or
// removed without a token change.
func checkCatalogPresence(c *comparison) {
	oldFound, oldMissing := catalogGets(c.old)
	newFound, newMissing := catalogGets(c.new)
	for _, k := range sortedGetKeys(newMissing) {
		if e := oldFound[k]; e != nil {
			c.reportWith(catalogVersionContent, newMissing[k], e, "the entry the old get returned", "entry %q is not_found but %s returned it under the same catalog_version %q: change the token whenever a visible entry is removed", k.id, c.old.Files[0].Name, k.token)
		}
	}
	for _, k := range sortedGetKeys(newFound) {
		if was := oldMissing[k]; was != nil {
			c.reportWith(catalogVersionContent, newFound[k].Get("id"), was, "the old not_found answer", "entry %q is returned but %s answered not_found under the same catalog_version %q: change the token whenever a visible entry is added", k.id, c.old.Files[0].Name, k.token)
		}
	}
}

func sortedGetKeys(m map[getKey]*source.Node) []getKey {
	keys := make([]getKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b getKey) int { return int(m[a].Start) - int(m[b].Start) })
	return keys
}

func checkGuideVersionContent(c *comparison) {
	index, fetched := map[snapshot.GuideKey]*source.Node{}, map[snapshot.GuideKey]*source.Node{}
	for _, g := range c.old.VersionedGuides() {
		m := index
		if g.Fetched {
			m = fetched
		}
		if m[g.Key] == nil {
			m[g.Key] = g.Node
		}
	}
	done := map[snapshot.GuideKey]bool{}
	for _, g := range c.new.VersionedGuides() {
		k := g.Key
		if done[k] {
			continue
		}
		var at, was *source.Node
		var f string
		if o := fetched[k]; o != nil && g.Fetched {
			at, was, f = snapshot.Differ(o, g.Node, append([]string{"body"}, snapshot.GuideFields...))
		} else if o := firstOf(index[k], fetched[k]); o != nil && k.Topic == "" {
			at, was, f = snapshot.Differ(o, g.Node, snapshot.GuideFields)
		} else {
			continue
		}
		if at != nil {
			done[k] = true
			name := fmt.Sprintf("guide %q of %s", k.ID, k.Language)
			if k.Topic != "" {
				name = fmt.Sprintf("topic %q of guide %q of %s", k.Topic, k.ID, k.Language)
			}
			c.reportWith(guideVersionContent, at, was, "the old value", "%s changed its %s since %s while its version stayed %q: change the guide version whenever its content changes", name, f, c.old.Files[0].Name, k.Version)
		}
	}
}

func firstOf(a, b *source.Node) *source.Node {
	if a != nil {
		return a
	}
	return b
}
