package snapshot

import (
	"slices"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// A catalog_version and a guide version each promise that what they stand
// for is unchanged. Two recordings of the same versioned thing, within one
// snapshot (the call rules) or across two (diff), are compared with the
// views below, so that both judge the same keys, fields and equality.

// EntryFields are the catalog entry fields Part II §5.4 defines, less id
// (the key compared under) and revision (which the token ignores).
var EntryFields = []string{"kind", "name", "description", "input_schema", "output_schema", "risk", "risk_hints", "tags", "languages"}

// GuideFields are the guide fields whose change is a content change; body
// is compared only between whole-guide fetches, and of one topic between
// fetches of that topic.
var GuideFields = []string{"title", "level", "topics", "format"}

// setFields are arrays of labels whose order carries no meaning, so a
// reordering is not a change.
var setFields = []string{"tags", "languages", "topics"}

// Differ returns the first of fields that both objects carry with
// different values: b's value, a's and the field's name. A field only one
// side shows is not compared, since an absent field may be one a response
// left out; tags, languages and topics are compared as sets.
func Differ(a, b *source.Node, fields []string) (at, was *source.Node, field string) {
	for _, f := range fields {
		x, y := a.Get(f), b.Get(f)
		if x == nil || y == nil {
			continue
		}
		same := source.Equal(x, y)
		if !same && slices.Contains(setFields, f) {
			same = sameStrings(x, y)
		}
		if !same {
			return y, x, f
		}
	}
	return nil, nil, ""
}

// sameStrings reports whether two arrays of strings hold the same strings,
// in any order.
func sameStrings(a, b *source.Node) bool {
	strs := func(n *source.Node) ([]string, bool) {
		if !n.IsArray() {
			return nil, false
		}
		var out []string
		for _, k := range n.Kids() {
			if !k.IsString() {
				return nil, false
			}
			out = append(out, k.Text())
		}
		slices.Sort(out)
		return out, true
	}
	x, okx := strs(a)
	y, oky := strs(b)
	return okx && oky && slices.Equal(x, y)
}

// EntryKey is what a recorded catalog entry is compared under: a listing
// may abridge what a get returns in full, so listings are compared with
// listings and gets with gets, per Language and catalog_version.
type EntryKey struct{ Verb, Language, Version, ID string }

// VersionedEntry is one entry a recorded catalog call returned.
type VersionedEntry struct {
	Key  EntryKey
	Node *source.Node
}

// VersionedEntries returns, in call order, the entries with an id that
// successful catalog calls returned together with a catalog_version.
func (s *Snapshot) VersionedEntries() []VersionedEntry {
	var out []VersionedEntry
	for _, c := range s.CallsOf(OpCatalog) {
		token, ok := c.StructuredContent.Str("catalog_version")
		if !c.Succeeded() || !ok {
			continue
		}
		lang, _ := c.Arguments.Str("language")
		for _, e := range c.Entries() {
			if id, ok := e.Str("id"); ok {
				out = append(out, VersionedEntry{EntryKey{c.Verb, lang, token, id}, e})
			}
		}
	}
	return out
}

// GuideKey names a recorded guide: Topic is set for a topic fetch, whose
// body holds that topic only.
type GuideKey struct{ Language, ID, Version, Topic string }

// VersionedGuide is one guide a recorded call returned; Fetched marks a
// fetch, whose body can be compared, rather than an index entry.
type VersionedGuide struct {
	Key     GuideKey
	Node    *source.Node
	Fetched bool
}

// VersionedGuides returns, in call order, the guides with an id and a
// version that successful guide index calls and fetches returned. A fetch
// whose topic argument is not a string is left out. The Language is the
// guide's own, or else the call's argument.
func (s *Snapshot) VersionedGuides() []VersionedGuide {
	var out []VersionedGuide
	for _, c := range s.Calls {
		if !c.Succeeded() {
			continue
		}
		var gs []*source.Node
		fetched, topic := false, ""
		switch c.Op {
		case OpGuideIndex:
			gs = c.StructuredContent.Get("guides").Objects()
		case OpGuideFetch:
			if t := c.Arg("topic"); t != nil && !t.IsNull() {
				if !t.IsString() {
					continue
				}
				topic = t.Text()
			}
			if g := c.StructuredContent.Get("guide"); g.IsObject() {
				gs, fetched = []*source.Node{g}, true
			}
		default:
			continue
		}
		lang, _ := c.Arguments.Str("language")
		for _, g := range gs {
			id, ok1 := g.Str("id")
			v, ok2 := g.Str("version")
			if !ok1 || !ok2 {
				continue
			}
			k := GuideKey{lang, id, v, topic}
			if l, ok := g.Str("language"); ok {
				k.Language = l
			}
			out = append(out, VersionedGuide{k, g, fetched})
		}
	}
	return out
}
