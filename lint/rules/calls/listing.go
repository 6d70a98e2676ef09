package calls

import (
	"encoding/json"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
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
		{
			ID: "call-catalog-token-changed-needlessly", Severity: lint.Warning, Spec: "Part II §5.4",
			Quote:   "The token SHOULD NOT change for any other reason.",
			Keyword: "SHOULD NOT",
			Summary: "Two consecutive complete catalog listings, or two identical first pages with only reads between them, show the same entries under different catalog_version tokens.",
			Doc:     "A Client that validated against one token is refused with catalog_drift when the token moves; when nothing visible changed, that refusal, the re-validation and the new approval it forces are all for nothing (Part II §5.4). The rule compares two complete listings (no filter, no cursor, no next_cursor) of the same Language with no other catalog_version recorded between them; and, so that a paged catalog is judged too, two first pages (no cursor) sent with the same arguments, as the probe catalog-list-again sends. Either way only reads may lie between the two (guide, catalog, validate and trace-fetch calls, refused or replayed executes, test runs, tools declaring readOnlyHint; the later pages of the first listing among them): an entry removed and added back by a call between them moved the token for a reason. A change made meanwhile by someone else to an entry beyond the first page cannot be seen there, which is one reason this stays a warning.",
			Bad:     `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_2"}}}]`,
			Good:    `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}]`,
			Check:   checkCallTokenChangedNeedlessly,
		},
		{
			ID: "call-listing-incomplete", Severity: lint.Error, Spec: "Part II §6.3",
			Quote:   "When additional results remain, the response MUST include `next_cursor`.",
			Keyword: "MUST",
			Summary: "A complete catalog listing (no filter; one page, or a whole chain of pages, ending without next_cursor) lacks an entry that a get, or another complete listing, under the same catalog_version returned.",
			Doc:     "Absence of next_cursor tells the Client the listing is complete (Part II §6.3): an agent that authors against the listing never learns of an entry left out of it. When a get of the same Language under the same catalog_version returns an entry that the unfiltered, final listing did not include, results remained and next_cursor was owed; so it was when another listing that also ends without next_cursor (say one without the limit this one sent) shows an entry this one lacks. A paged listing is judged by the union of its pages when every page was recorded: from a first page without cursor, each later page fetched once with the next_cursor before it and the first page's other arguments (the same limit), to a last page without next_cursor, all under one catalog_version; the finding on a listing that stopped early points at that last page. A chain with a page missing, a cursor sent twice, or pages under different versions is not judged. Entries whose languages exclude the Language asked for are not judged.",
			Bad:     `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock"}, "catalog_version": "cv_1"}}}]`,
			Good:    `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "next_cursor": "p2", "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock"}, "catalog_version": "cv_1"}}}]`,
			Scope:   "Complete listings of one Language (unfiltered; one page, or a whole recorded chain of pages, ending without next_cursor) against a get or another complete listing under the same catalog_version, with only reads between them; an entry whose languages exclude the Language is left out.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §6.3", Quote: "When `catalog.search` is declared, the request MAY also contain a free-text `q` filter.", Fixture: "good-search"},
				{Spec: "Part III §4.2", Quote: "The Server MAY cap `limit`.", Fixture: "good-limit"},
				{Spec: "Part II §5.4", Quote: "Languages that may reference this entry.", Fixture: "good-other-language"},
			},
			Check: checkCallListingIncomplete,
		},
	}
}

func checkCallListedEntryNotFound(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	type key struct {
		lang   *snapshot.Language
		cv, id string
	}
	type shown struct {
		id   *source.Node
		call *snapshot.Call
	}
	listed := map[key]shown{}
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		cv, ok := c.StructuredContent.Str("catalog_version")
		if c.Lang == nil || !ok {
			continue
		}
		switch {
		case c.Succeeded() && c.Verb == string(types.VerbList):
			for _, e := range c.StructuredContent.Get("items").Objects() {
				if id := e.Get("id"); id.IsString() {
					listed[key{c.Lang, cv, id.Text()}] = shown{id, c}
				}
			}
		case c.Channel == snapshot.ChannelRequestError && c.Verb == string(types.VerbGet) && c.ErrorKind == string(types.ErrNotFound):
			id := c.Arg("id")
			if !id.IsString() {
				continue
			}
			// A write between the two may have removed the entry: the
			// finding would then be the token's, which did not change.
			l := listed[key{c.Lang, cv, id.Text()}]
			if l.id == nil || !m.ReadsBetween(l.call, c) {
				continue
			}
			p.With(lint.Also{Node: l.id, Note: "the listing that includes it"}).Report(c.StructuredContent.Path("error", "kind"), "the catalog get of %q answered not_found under catalog_version %q, under which a recorded listing of %s includes it: return the entry a listing shows", id.Text(), cv, c.Lang.Label())
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

// callSameItems compares two listings as sets of entries keyed by id.
func callSameItems(a, b *source.Node) bool {
	ia, ib := a.Objects(), b.Objects()
	if len(ia) != len(ib) || len(ia) != len(a.Kids()) || len(ib) != len(b.Kids()) {
		return false
	}
	byID := map[string]*source.Node{}
	for _, e := range ia {
		id, ok := e.Str("id")
		if !ok || byID[id] != nil {
			return false
		}
		byID[id] = e
	}
	for _, e := range ib {
		id, _ := e.Str("id")
		if !source.Equal(byID[id], e) {
			return false
		}
	}
	return true
}

func checkCallTokenChangedNeedlessly(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	last := map[*snapshot.Language]*snapshot.Call{}
	for j, c := range p.Snap.Calls {
		if _, ok := rulekit.CatalogVersion(c); !ok || c.Lang == nil {
			continue
		}
		prev := last[c.Lang]
		last[c.Lang] = c
		what := "two complete listings"
		// An entry removed and added back by a write between the two
		// listings moved the token for a reason.
		if prev == nil || !rulekit.CompleteListing(prev) || !rulekit.CompleteListing(c) || !m.ReadsBetween(prev, c) {
			if prev = callEarlierFirstPage(m, p.Snap.Calls, j); prev == nil {
				continue
			}
			what = "two first pages of the same list request (only reads between them)"
		}
		a, _ := prev.StructuredContent.Str("catalog_version")
		b, _ := c.StructuredContent.Str("catalog_version")
		if a != b && callSameItems(prev.StructuredContent.Get("items"), c.StructuredContent.Get("items")) {
			p.Report(c.StructuredContent.Get("catalog_version"), "catalog_version changed from %q to %q between %s with the same entries: change the token only when a visible entry is added, removed or changed", a, b, what)
		}
	}
}

// callEarlierFirstPage returns the nearest earlier first page (a list
// without cursor) of the same Language when it was sent with the same
// arguments as calls[j], itself such a page, and only reads lie between them (the later pages
// of its own listing among them), so that only a change made by someone
// else could have moved the catalog; or nil.
func callEarlierFirstPage(m *rulekit.Model, calls []*snapshot.Call, j int) *snapshot.Call {
	c := calls[j]
	if !callFirstPage(c) {
		return nil
	}
	for i := j - 1; i >= 0; i-- {
		d := calls[i]
		if m.Writes(d) {
			return nil
		}
		if callFirstPage(d) && d.Lang == c.Lang {
			if source.Equal(d.Arguments, c.Arguments) {
				return d
			}
			return nil
		}
	}
	return nil
}

func callFirstPage(c *snapshot.Call) bool {
	return c.Op == snapshot.OpCatalog && c.Verb == string(types.VerbList) && c.Succeeded() && c.Lang != nil &&
		c.Arg("cursor") == nil && c.StructuredContent.Get("items").IsArray()
}

// callUsableBy reports whether an entry may be referenced by Language l:
// an entry without languages serves every Language (Part II §5.4), and an
// empty array means what an absent one does (§1.4).
func callUsableBy(e *source.Node, l *snapshot.Language) bool {
	ls := e.Get("languages")
	if !ls.IsArray() || len(ls.Kids()) == 0 {
		return true
	}
	for _, n := range ls.Kids() {
		if n.IsString() && n.Text() == l.Name {
			return true
		}
	}
	return false
}

// callQuiet reports whether only reads lie between the earliest and the
// latest of calls: nothing between the answers compared could have
// changed the catalog they show.
func callQuiet(m *rulekit.Model, calls ...*snapshot.Call) bool {
	first, last := calls[0], calls[0]
	for _, c := range calls[1:] {
		if m.Index(c) < m.Index(first) {
			first = c
		}
		if m.Index(c) > m.Index(last) {
			last = c
		}
	}
	return m.ReadsBetween(first, last)
}

func checkCallListingIncomplete(p *lint.Pass) {
	m := rulekit.Of(p.Snap)
	completes := rulekit.CompleteListings(p.Snap.Calls)
	listed := rulekit.ByCatalog(completes)
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		if c.Lang == nil || !c.Succeeded() || c.Verb != string(types.VerbGet) || !c.StructuredContent.Get("entry").IsObject() {
			continue
		}
		cv, ok := c.StructuredContent.Str("catalog_version")
		if !ok {
			continue
		}
		l, ok := listed[rulekit.ListingKey{Lang: c.Lang, CatalogVersion: cv}]
		e := c.StructuredContent.Get("entry")
		id, hasID := e.Str("id")
		if !ok || !hasID || l.IDs[id] || !callUsableBy(e, c.Lang) {
			continue
		}
		// A write between them may have added the entry without moving
		// the token: that fault would be the token's, not the listing's.
		if !callQuiet(m, append([]*snapshot.Call{c}, l.Pages...)...) {
			continue
		}
		p.Report(e.Get("id"), "entry %q exists under catalog_version %q but the complete listing of %s%s under that version omits it: include every entry, or return next_cursor while results remain", id, cv, c.Lang.Label(), l.PagesNote())
	}
	// Two listings that both claim to be complete (a limit is no filter)
	// must hold the same entries: one that lacks an entry the other
	// shows stopped early without next_cursor. Its last page is where
	// next_cursor was owed.
	for _, a := range completes {
		last := a.Pages[len(a.Pages)-1]
	other:
		for _, b := range completes {
			if b.Pages[0] == a.Pages[0] || b.Lang != a.Lang || b.CatalogVersion != a.CatalogVersion || !callQuiet(m, append(append([]*snapshot.Call{}, a.Pages...), b.Pages...)...) {
				continue
			}
			for _, e := range b.Items {
				if id, ok := e.Str("id"); ok && !a.IDs[id] && callUsableBy(e, a.Lang) {
					p.With(lint.Also{Node: e.Get("id"), Note: "the entry, in another complete listing of the same catalog_version"}).ReportMissing(last.StructuredContent, "this listing of %s%s ends without next_cursor but lacks entry %q, which another complete listing under catalog_version %q shows: return next_cursor while results remain (a limit below the number of entries leaves results)", a.Lang.Label(), a.PagesNote(), id, a.CatalogVersion)
					break other
				}
			}
		}
	}
}
