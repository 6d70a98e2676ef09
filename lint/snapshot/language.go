package snapshot

import (
	"encoding/json"
	"slices"
	"sort"
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Language is one entry of the manifest's "languages" array.
type Language struct {
	Node  *source.Node
	Index int
	// Name is the "name" member, or "" when absent or not a string.
	Name string
	// Caps is the effective capability map (Part II §4.2).
	Caps Capabilities
}

// Label names the Language in messages: its name, or for an entry without
// a usable one its index, so the reader can still find it.
func (l *Language) Label() string {
	if l.Name != "" {
		return l.Name
	}
	return "languages[" + strconv.Itoa(l.Index) + "]"
}

// Capabilities is a Language's effective capability map (Part II §4.2),
// computed once by pkg/types; the nodes of the two declarations are kept
// so rules can point at the value that governs a capability.
type Capabilities struct {
	// Server and Lang are the two declaration objects; either may be nil.
	Server, Lang *source.Node
	// Map is the effective map every rule reads.
	Map types.CapabilityMap
}

func newCapabilities(server, lang *source.Node) Capabilities {
	return Capabilities{Server: server, Lang: lang, Map: types.EffectiveCapabilities(declaration(server), declaration(lang))}
}

// declaration converts a declaration node to the pkg/types form; a node
// that is not an object is no declaration at all. It reads the nodes
// directly rather than round-tripping them through encoding/json (a
// twentieth of the CPU over many small files), with the round trip's
// results: a repeated member name keeps its last value, as Value does.
func declaration(n *source.Node) types.CapabilityDeclaration {
	if !n.IsObject() {
		return nil
	}
	d := make(types.CapabilityDeclaration, len(n.Kids()))
	for _, k := range n.Kids() {
		d[k.Key()] = capability(k)
	}
	return d
}

// capability is what types.Capability's UnmarshalJSON makes of v's JSON.
func capability(v *source.Node) types.Capability {
	switch {
	case v.Kind == source.Bool && v.Truth():
		return types.Capability{Form: types.FormTrue}
	case v.Kind == source.Bool:
		return types.Capability{Form: types.FormFalse}
	case v.Kind == source.Object:
		c := types.Capability{Form: types.FormObject, Sub: make(map[string]bool, len(v.Kids()))}
		// Backwards, so the last of repeated names decides, as in Value.
		for i := len(v.Kids()) - 1; i >= 0; i-- {
			s := v.Kids()[i]
			if _, done := c.Sub[s.Key()]; done || slices.Contains(c.BadSub, s.Key()) {
				continue
			}
			switch s.Kind {
			case source.Bool:
				c.Sub[s.Key()] = s.Truth()
			case source.Null:
				// encoding/json leaves a bool alone on null, without error.
				c.Sub[s.Key()] = false
			default:
				c.BadSub = append(c.BadSub, s.Key())
			}
		}
		sort.Strings(c.BadSub)
		return c
	}
	raw, _ := json.Marshal(v.Value())
	return types.Capability{Form: types.FormInvalid, Raw: raw}
}

// Decl returns the value governing capability c (true, false or an object)
// or nil when neither level names it.
func (c Capabilities) Decl(cap string) *source.Node {
	if v := c.Lang.Get(cap); v != nil {
		return v
	}
	return c.Server.Get(cap)
}

// Declared reports whether capability c is declared: governed by true or by
// an object. False, absent and any other value leave it undeclared.
func (c Capabilities) Declared(cap string) bool { return c.Map.Declared(cap) }

// SubFeature reports whether sub-feature sub of capability c is declared:
// its parent is declared and its own value is true.
func (c Capabilities) SubFeature(cap, sub string) bool { return c.Map.SubFeature(cap, sub) }

// Exists reports whether any capability declaration applies to the
// Language, at either level (Part II §4.2 requires one).
func (c Capabilities) Exists() bool { return c.Map.HasDeclaration() }

func (s *Snapshot) indexLanguages() {
	s.Languages = LanguagesOf(s.Manifest)
}

// LanguagesOf returns the Language entries of any manifest object with
// their effective capability maps, so that an inline manifest that differs
// from the authoritative one can be checked the same way.
func LanguagesOf(manifest *source.Node) []*Language {
	if !manifest.IsObject() {
		return nil
	}
	langs := manifest.Get("languages")
	if !langs.IsArray() {
		return nil
	}
	server := manifest.Get("capabilities")
	if !server.IsObject() {
		server = nil
	}
	var out []*Language
	for i, n := range langs.Kids() {
		if !n.IsObject() {
			continue
		}
		l := &Language{Node: n, Index: i}
		l.Name, _ = n.Str("name")
		lc := n.Get("capabilities")
		if !lc.IsObject() {
			lc = nil
		}
		l.Caps = newCapabilities(server, lc)
		out = append(out, l)
	}
	return out
}
