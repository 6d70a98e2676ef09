package calls

import (
	"encoding/json"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// These rules compare catalog answers of one Language at one
// catalog_version: what a listing shows, a get must find, and a chain of
// pages must end (Part II §6.3).
func callListingRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-listed-entry-not-found", Severity: lint.Warning, Spec: "Part II §6.3", Policy: lint.PolicyContradiction,
			Quote:   "An unknown `id` is a request error.",
			Summary: "A catalog get answered not_found, under the catalog_version of a recorded listing that includes that id.",
			Doc:     "Only an unknown id is a request error of a catalog get (Part II §6.3); the error carries the current catalog_version. When that token is the one under which a recorded listing of the same Language included the id, the entry was known at that version, and the get denied what the listing showed: an agent that found the entry by listing it cannot look it up.",
			Bad:     `list -> {"items": [{"id": "lock.dock_door", ...}], "catalog_version": "cv_1"}   get {"id": "lock.dock_door"} -> {"error": {"kind": "not_found", ...}, "catalog_version": "cv_1"}`,
			Good:    `list -> {"items": [{"id": "lock.dock_door", ...}], "catalog_version": "cv_1"}   get {"id": "lock.dock_door"} -> {"entry": {"id": "lock.dock_door", ...}, "catalog_version": "cv_1"}`,
			Check:   checkCallListedEntryNotFound,
		},
		{
			ID: "call-listing-cursor-repeats", Severity: lint.Warning, Spec: "Part II §6.3", Policy: lint.PolicyContradiction,
			Quote:   "Absence of `next_cursor` means that the listing is complete.",
			Summary: "A catalog page returned as next_cursor a cursor already used in the same chain of pages, so the listing never ends.",
			Doc:     "A Client pages through a listing by sending each next_cursor back unchanged until a page comes without one (Part II §6.3). A page whose next_cursor is the cursor that fetched it, or one used earlier for the same Language and filters, sends the Client round the same pages for ever: it never learns the listing is complete, and a crawler that trusts the server never stops.",
			Bad:     `list -> {"items": [...], "next_cursor": "p2"}   list {"cursor": "p2"} -> {"items": [...], "next_cursor": "p2"}`,
			Good:    `list -> {"items": [...], "next_cursor": "p2"}   list {"cursor": "p2"} -> {"items": [...]}`,
			Check:   checkCallListingCursorRepeats,
		},
	}
}

func checkCallListedEntryNotFound(p *lint.Pass) {
	type key struct {
		lang   *snapshot.Language
		cv, id string
	}
	listed := map[key]*source.Node{}
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		cv, ok := c.StructuredContent.Str("catalog_version")
		if c.Lang == nil || !ok {
			continue
		}
		switch {
		case c.Succeeded() && c.Verb == string(types.VerbList):
			for _, e := range c.StructuredContent.Get("items").Objects() {
				if id := e.Get("id"); id.IsString() {
					listed[key{c.Lang, cv, id.Text()}] = id
				}
			}
		case c.Channel == snapshot.ChannelRequestError && c.Verb == string(types.VerbGet) && c.ErrorKind == string(types.ErrNotFound):
			id := c.Arg("id")
			if !id.IsString() || listed[key{c.Lang, cv, id.Text()}] == nil {
				continue
			}
			p.With(lint.Also{Node: listed[key{c.Lang, cv, id.Text()}], Note: "the listing that includes it"}).Report(c.StructuredContent.Path("error", "kind"), "the catalog get of %q answered not_found under catalog_version %q, under which a recorded listing of %s includes it: return the entry a listing shows", id.Text(), cv, c.Lang.Label())
		}
	}
}

func checkCallListingCursorRepeats(p *lint.Pass) {
	used := map[string]map[string]bool{} // Language and filters -> cursors sent
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		if c.Lang == nil || c.Verb != string(types.VerbList) {
			continue
		}
		filters := map[string]any{}
		for _, a := range c.Arguments.Items() {
			if a.Key() != "cursor" {
				filters[a.Key()] = a.Value()
			}
		}
		b, _ := json.Marshal(filters)
		chain := c.Lang.Name + "\x00" + string(b)
		// A list without a cursor starts the listing again: the cursors a
		// deterministic server hands out then repeat, as they should.
		cur := c.Arg("cursor")
		if used[chain] == nil || !cur.IsString() {
			used[chain] = map[string]bool{}
		}
		if cur.IsString() {
			used[chain][cur.Text()] = true
		}
		next := c.StructuredContent.Get("next_cursor")
		// A probe's pagination call is judged by its vector's expectation,
		// at error (probe-expectation); this finding would only hide it.
		if c.Succeeded() && next.IsString() && used[chain][next.Text()] && c.Probe == nil {
			p.Report(next, "this page returned next_cursor %q, a cursor already sent for the same listing of %s: a Client following cursors never reaches the end, so return a cursor for the remaining entries, or none when no results remain", next.Text(), c.Lang.Label())
		}
	}
}
