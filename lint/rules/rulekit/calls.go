package rulekit

import (
	"fmt"
	"sort"

	"github.com/pilotagekit/pilotagekit/lint/schemacheck"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// CarrierAnswer reports whether c drew the carrier's answer to a request
// its tool's inputSchema refuses where Part III routes the refusal to the
// carrier: an isError result to a request with a structural fault (a
// missing required member, a wrong JSON type, at any depth) against a
// loop tool's schema, or any fault against a fixed access tool's, whose
// binding-defined schema is strict on purpose (Part III §4.6, §7.1: "Those
// faults are carrier-level"). On MCP 2025-11-25 SDKs answer such a request
// with a tool execution error, isError true and a text message (SEP-1303;
// §7.1's revision note: "2025-11-25 narrowed protocol errors to the
// envelope level"), which is no Pilotage result: the result rules do not
// judge its envelope or shape. A schema that cannot be judged offline
// excuses nothing.
func CarrierAnswer(s *snapshot.Snapshot, c *snapshot.Call) bool {
	t := s.Tool(c.Name)
	if !True(c.Result.Get("isError")) || t == nil || t.InputSchema == nil {
		return false
	}
	var args any = map[string]any{}
	if c.Arguments != nil {
		args = c.Arguments.Value()
	}
	if snapshot.IsFixedTool(c.Name) {
		fit, _ := schemacheck.FitOf(t.InputSchema, args)
		return fit.Rejects()
	}
	structural, decided, _ := schemacheck.Structural(t.InputSchema, args)
	return decided && structural
}

// Present returns a request member that carries a value: a member sent as
// null is read as absent, since Clients send either for "not given".
func Present(c *snapshot.Call, name string) *source.Node {
	if v := c.Arg(name); v != nil && !v.IsNull() {
		return v
	}
	return nil
}

// Accepted reports whether a validate or execute call accepted its
// request: valid: true, or a Run whose outcome is ok.
func Accepted(c *snapshot.Call) bool {
	if !c.Succeeded() {
		return false
	}
	switch c.Op {
	case snapshot.OpValidate:
		return True(c.StructuredContent.Get("valid"))
	case snapshot.OpExecute:
		return True(c.StructuredContent.Path("outcome", "ok"))
	}
	return false
}

// Started reports whether an execute call was answered with a Run that
// started: refused Runs (validation_error, catalog_drift, promotion_drift)
// never ran.
func Started(c *snapshot.Call) bool {
	if !c.Succeeded() || !c.StructuredContent.Get("outcome").IsObject() {
		return false
	}
	status, _ := c.StructuredContent.Path("outcome", "status").Value().(string)
	switch types.OutcomeStatus(status) {
	case types.StatusValidationError, types.StatusCatalogDrift, types.StatusPromotionDrift:
		return false
	}
	return true
}

// CatalogVersion returns the catalog_version a result reports for a
// Language: catalog responses (including a failed get) and validate
// responses carry it.
func CatalogVersion(c *snapshot.Call) (string, bool) {
	if c.Op != snapshot.OpCatalog && c.Op != snapshot.OpValidate {
		return "", false
	}
	if c.Channel != snapshot.ChannelResult && c.Channel != snapshot.ChannelRequestError {
		return "", false
	}
	return c.StructuredContent.Str("catalog_version")
}

// CompleteListing reports whether a catalog call is an unfiltered list
// that returned every entry on one page: no filter, no cursor, no
// next_cursor (a limit is no filter). CompleteListings also joins the
// pages of a paged listing.
func CompleteListing(c *snapshot.Call) bool {
	return unfilteredPage(c, false) && lastPage(c)
}

// unfilteredPage reports whether c is a successful list without filter
// (a limit is no filter) that returned an items array; with cursor, one
// that carries a cursor too, else one without.
func unfilteredPage(c *snapshot.Call, cursor bool) bool {
	if c.Op != snapshot.OpCatalog || c.Verb != string(types.VerbList) || !c.Succeeded() {
		return false
	}
	for _, a := range c.Arguments.Items() {
		if a.Key() != "language" && a.Key() != "verb" && a.Key() != "limit" && a.Key() != "cursor" {
			return false
		}
	}
	return c.StructuredContent.Get("items").IsArray() && (c.Arg("cursor") != nil) == cursor
}

// lastPage reports whether a list page says no results remain: its
// next_cursor is absent or null.
func lastPage(c *snapshot.Call) bool {
	next := c.StructuredContent.Get("next_cursor")
	return next == nil || next.IsNull()
}

// Listing is a complete listing of one Language's catalog: the pages of
// one unfiltered list, from a first page without cursor, each later page
// fetched with the next_cursor of the page before it, to a last page
// without next_cursor, all answered under one catalog_version. A one-page
// listing is a chain of one page.
type Listing struct {
	Lang           *snapshot.Language
	CatalogVersion string
	// Pages are the list calls in the order the chain followed them.
	Pages []*snapshot.Call
	// Items are the entry objects of every page, in page order.
	Items []*source.Node
	// IDs are the string ids among Items.
	IDs map[string]bool
}

// ListingKey names the catalog a complete listing shows: a Language's, at
// one catalog_version.
type ListingKey struct {
	Lang           *snapshot.Language
	CatalogVersion string
}

// ByCatalog indexes complete listings by the catalog they show; of two
// listings of one catalog the later is kept.
func ByCatalog(ls []Listing) map[ListingKey]Listing {
	out := map[ListingKey]Listing{}
	for _, l := range ls {
		out[ListingKey{l.Lang, l.CatalogVersion}] = l
	}
	return out
}

// PagesNote is what a message adds after naming the listing: nothing for
// one page, so findings on one-page listings read as they always did, and
// " (3 pages)" for a chain of three, so that a reader looks for them all.
func (l Listing) PagesNote() string {
	if len(l.Pages) < 2 {
		return ""
	}
	return fmt.Sprintf(" (%d pages)", len(l.Pages))
}

// CompleteListings returns the complete listings among calls, in the
// order of their first pages. A later page must carry the first page's
// arguments apart from the cursor (limit included, since a cursor may
// stand for a position under one page size), and be the only later list
// of that Language and arguments sent with that cursor: when a cursor was
// sent twice, failed, or never, or a page reports another catalog_version,
// which entries the listing held cannot be told, and no listing is
// returned for that first page, since judging a guessed listing could
// draw a false error.
func CompleteListings(calls []*snapshot.Call) []Listing {
	// Later pages by Language and cursor, in recorded order, so that
	// following a chain does not rescan the whole recording.
	type key struct {
		lang   *snapshot.Language
		cursor string
	}
	sent := map[key][]int{}
	for i, c := range calls {
		if cur := c.Arg("cursor"); c.Op == snapshot.OpCatalog && c.Verb == string(types.VerbList) && c.Lang != nil && cur.IsString() {
			sent[key{c.Lang, cur.Text()}] = append(sent[key{c.Lang, cur.Text()}], i)
		}
	}
	// nextPage returns the only call after calls[at] sent with first's
	// arguments and next as cursor, and its index; nil when there is
	// none or more than one.
	nextPage := func(first *snapshot.Call, at int, next *source.Node) (*snapshot.Call, int) {
		if !next.IsString() {
			return nil, 0
		}
		var found *snapshot.Call
		j := 0
		ks := sent[key{first.Lang, next.Text()}]
		for _, k := range ks[sort.SearchInts(ks, at+1):] {
			if !sameBesidesCursor(calls[k].Arguments, first.Arguments) {
				continue
			}
			if found != nil {
				return nil, 0
			}
			found, j = calls[k], k
		}
		return found, j
	}
	var out []Listing
	for i, first := range calls {
		cv, ok := first.StructuredContent.Str("catalog_version")
		if first.Lang == nil || !ok || !unfilteredPage(first, false) {
			continue
		}
		l := Listing{Lang: first.Lang, CatalogVersion: cv}
		for page, at := first, i; page != nil; {
			if v, _ := page.StructuredContent.Str("catalog_version"); v != cv || !unfilteredPage(page, page != first) {
				break
			}
			l.Pages = append(l.Pages, page)
			l.Items = append(l.Items, page.StructuredContent.Get("items").Objects()...)
			if lastPage(page) {
				l.IDs = map[string]bool{}
				for _, e := range l.Items {
					if id, ok := e.Str("id"); ok {
						l.IDs[id] = true
					}
				}
				out = append(out, l)
				break
			}
			page, at = nextPage(first, at, page.StructuredContent.Get("next_cursor"))
		}
	}
	return out
}

// sameBesidesCursor reports whether two request argument objects hold
// the same members apart from cursor.
func sameBesidesCursor(a, b *source.Node) bool {
	count := func(n *source.Node) int {
		k := 0
		for _, m := range n.Items() {
			if m.Key() != "cursor" {
				k++
			}
		}
		return k
	}
	if count(a) != count(b) {
		return false
	}
	for _, m := range a.Items() {
		if m.Key() != "cursor" && !source.Equal(m, b.Get(m.Key())) {
			return false
		}
	}
	return true
}
