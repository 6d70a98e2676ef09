package rulekit

import (
	"sort"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Entry is a catalog entry as one recorded catalog answer showed it.
type Entry struct {
	// Node is the entry object: an item of a list page or the entry of a
	// get.
	Node *source.Node
	// Call is the catalog answer that showed it.
	Call *snapshot.Call
	// CatalogVersion is the catalog_version that answer reported, or "".
	CatalogVersion string
}

type entryKey struct {
	lang *snapshot.Language
	id   string
}

// findEntries indexes, per Language and entry id, every showing of an
// entry by a successful catalog answer, in recorded order.
func (m *Model) findEntries() {
	m.entries = map[entryKey][]Entry{}
	for _, c := range m.calls {
		if c.Lang == nil {
			continue
		}
		cv, _ := c.StructuredContent.Str("catalog_version")
		for _, e := range c.Entries() {
			if id, ok := e.Str("id"); ok {
				k := entryKey{c.Lang, id}
				m.entries[k] = append(m.entries[k], Entry{e, c, cv})
			}
		}
	}
}

// EntryAt returns catalog entry id of Language l as the latest catalog
// answer recorded before call c showed it (with an object member named
// object, unless object is ""), when that showing speaks for the catalog
// c saw: the answer reported catalog_version cv, the token c carried or
// reported ("" for none), so the Server vouches that nothing moved; or
// only reads lie between the answer and c, so nothing could have changed
// the entry (issue 30 §1: a rule comparing across a write says why the
// write cannot explain the difference, or stays silent). ok is false when
// no showing precedes c, or the latest one does not speak for c.
func (m *Model) EntryAt(l *snapshot.Language, id string, c *snapshot.Call, cv, object string) (Entry, bool) {
	at := m.Index(c)
	shown := m.entries[entryKey{l, id}]
	if at < 0 || len(shown) == 0 {
		return Entry{}, false
	}
	// Showings are in recorded order: start from the last one before c.
	k := sort.Search(len(shown), func(k int) bool { return m.index[shown[k].Call] >= at })
	for k--; k >= 0; k-- {
		e := shown[k]
		if object != "" && !e.Node.Get(object).IsObject() {
			continue
		}
		if cv != "" && cv == e.CatalogVersion || m.ReadsBetween(e.Call, c) {
			return e, true
		}
		return Entry{}, false
	}
	return Entry{}, false
}
