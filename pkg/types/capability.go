package types

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"sort"
)

// CapabilityName is a capability identifier (Part II §4.1). The set is
// closed for version 1.1, but unknown identifiers decode and are kept:
// Part II §1.3 tells a Client to treat them as undeclared, not to fail.
type CapabilityName string

// Capability identifiers of Part II §4.1.
const (
	CapGuides     CapabilityName = "guides"
	CapCatalog    CapabilityName = "catalog"
	CapValidate   CapabilityName = "validate"
	CapPlan       CapabilityName = "plan"
	CapExecute    CapabilityName = "execute"
	CapTraceFetch CapabilityName = "trace_fetch"
)

// Capabilities lists the capability identifiers in Part II §4.1 order.
var Capabilities = []CapabilityName{CapGuides, CapCatalog, CapValidate, CapPlan, CapExecute, CapTraceFetch}

// IsKnown reports whether c is a Part II §4.1 capability identifier.
func (c CapabilityName) IsKnown() bool { return slices.Contains(Capabilities, c) }

// Dependency returns the capability c depends on (Part II §4.1, §4.3 rule
// 3), or "" when it has none.
func (c CapabilityName) Dependency() CapabilityName {
	switch c {
	case CapValidate:
		return CapGuides
	case CapPlan, CapExecute:
		return CapValidate
	case CapTraceFetch:
		return CapExecute
	}
	return ""
}

// Sub-feature names of Part II §4.1, per parent capability.
const (
	SubSearch       = "search"        // catalog.search
	SubChangedSince = "changed_since" // catalog.changed_since
	SubTopicFetch   = "topic_fetch"   // guides.topic_fetch
	SubTestRun      = "test_run"      // execute.test_run
	SubIdempotency  = "idempotency"   // execute.idempotency
	SubNarrate      = "narrate"       // trace_fetch.narrate
)

// SubFeatures maps each capability to its Part II §4.1 sub-features.
var SubFeatures = map[CapabilityName][]string{
	CapGuides:     {SubTopicFetch},
	CapCatalog:    {SubSearch, SubChangedSince},
	CapValidate:   nil,
	CapPlan:       nil,
	CapExecute:    {SubTestRun, SubIdempotency},
	CapTraceFetch: {SubNarrate},
}

// IsKnownSubFeature reports whether sub is a Part II §4.1 sub-feature of c.
func IsKnownSubFeature(c CapabilityName, sub string) bool {
	return slices.Contains(SubFeatures[c], sub)
}

// CapabilityForm is the JSON form a capability value took.
type CapabilityForm int

const (
	// FormAbsent: the identifier is not in the map. It is the zero value:
	// a Capability{} says nothing, and a CapabilityDeclaration leaves it
	// out on encode, as if the identifier were not there.
	FormAbsent CapabilityForm = iota
	// FormTrue: declared with no sub-features.
	FormTrue
	// FormFalse: explicitly undeclared (Part II §4.2).
	FormFalse
	// FormObject: declared with an object of boolean sub-features.
	FormObject
	// FormInvalid: any other JSON value; treated as undeclared (Part II
	// §1.3, "capability declaration" fallback).
	FormInvalid
)

// Capability is one value of a capability declaration (Part II §4.2):
// true, false, or an object of boolean sub-feature declarations. Build one
// with Declare, DeclareWith or Undeclare; the zero value is absence, not
// false.
type Capability struct {
	Form CapabilityForm
	// Sub holds the boolean sub-features of an object value. Sub-features
	// with non-boolean values are listed in BadSub instead and are dropped
	// on encode.
	Sub    map[string]bool
	BadSub []string
	// Raw keeps the original JSON of an invalid value so it re-encodes
	// unchanged and a linter can quote it.
	Raw json.RawMessage
}

// Declare is the capability declared with no sub-features: true (Part II
// §4.2).
func Declare() Capability { return Capability{Form: FormTrue} }

// DeclareWith is the capability declared with the named sub-features
// declared: an object mapping each to true (Part II §4.2), such as
// DeclareWith(SubTestRun) for {"test_run": true}. With no names it is the
// empty object, which declares the capability and no sub-feature.
func DeclareWith(sub ...string) Capability {
	c := Capability{Form: FormObject, Sub: make(map[string]bool, len(sub))}
	for _, s := range sub {
		c.Sub[s] = true
	}
	return c
}

// Undeclare is the capability explicitly undeclared: false (Part II
// §4.2). Its use is a Language-level entry that turns off a Server-level
// default; elsewhere leaving the identifier out says the same.
func Undeclare() Capability { return Capability{Form: FormFalse} }

// Declared reports whether the value declares the capability (true or an
// object, Part II §4.2).
func (c Capability) Declared() bool { return c.Form == FormTrue || c.Form == FormObject }

// SubFeature reports whether sub is declared: the parent is declared and
// the sub-feature's own value is true (Part II §4.2).
func (c Capability) SubFeature(sub string) bool {
	return c.Form == FormObject && c.Sub[sub]
}

// IsZero reports absence.
func (c Capability) IsZero() bool { return c.Form == FormAbsent }

// errAbsent is the encoding error of a zero Capability outside a
// CapabilityDeclaration or an omitzero field: absence has no JSON value,
// and writing false, as this type once did, declared nothing where the
// author meant to declare something.
var errAbsent = errors.New("types: a zero Capability is an absent one and has no JSON value; use Declare, DeclareWith or Undeclare, or leave the identifier out")

// MarshalJSON writes the value in the form it was decoded or built in. A
// zero (absent) value is an error here; a CapabilityDeclaration leaves it
// out instead.
func (c Capability) MarshalJSON() ([]byte, error) {
	switch c.Form {
	case FormAbsent:
		return nil, errAbsent
	case FormTrue:
		return []byte("true"), nil
	case FormObject:
		if c.Sub == nil {
			return []byte("{}"), nil
		}
		return json.Marshal(c.Sub)
	case FormInvalid:
		if len(c.Raw) > 0 {
			return c.Raw, nil
		}
	}
	return []byte("false"), nil
}

// UnmarshalJSON never fails on a well-formed JSON value: a Client must not
// fail the interaction over an unrecognized capability value (Part II §1.3).
func (c *Capability) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	*c = Capability{}
	switch {
	case bytes.Equal(b, []byte("true")):
		c.Form = FormTrue
	case bytes.Equal(b, []byte("false")):
		c.Form = FormFalse
	case len(b) > 0 && b[0] == '{':
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return err
		}
		c.Form = FormObject
		c.Sub = make(map[string]bool, len(m))
		for k, v := range m {
			var bv bool
			if json.Unmarshal(v, &bv) != nil {
				c.BadSub = append(c.BadSub, k)
				continue
			}
			c.Sub[k] = bv
		}
		sort.Strings(c.BadSub)
	default:
		c.Form = FormInvalid
		c.Raw = append(json.RawMessage(nil), b...)
	}
	return nil
}

// CapabilityDeclaration is a map from capability identifier to value
// (Part II §4.2). A nil map means "no declaration"; an empty non-nil map
// is a declaration that declares nothing, which still counts for the
// "at least one declaration" rule of §4.2. Use the `omitzero` tag so the
// difference survives encoding.
type CapabilityDeclaration map[string]Capability

// MarshalJSON writes the map with its absent (zero) entries left out, so
// that CapabilityDeclaration{"execute": {}} declares nothing instead of
// execute: false; the other entries are written as encoding/json writes a
// map, keys sorted.
func (d CapabilityDeclaration) MarshalJSON() ([]byte, error) {
	if d == nil {
		return []byte("null"), nil
	}
	out := make(map[string]Capability, len(d))
	for k, v := range d {
		if !v.IsZero() {
			out[k] = v
		}
	}
	return json.Marshal(out)
}

// Level says which declaration governed a capability in the effective map.
type Level string

const (
	LevelNone     Level = ""
	LevelServer   Level = "server"
	LevelLanguage Level = "language"
)

// EffectiveCapability is one entry of an effective capability map with the
// level that governed it.
type EffectiveCapability struct {
	Capability
	Level Level
}

// CapabilityMap is the effective capability map of one Language (Part II
// §4.2).
type CapabilityMap struct {
	// Language is the Language entry's name.
	Language string
	// HasServer and HasLanguage report which declarations exist. §4.2
	// requires at least one of them per Language.
	HasServer, HasLanguage bool
	entries                map[string]EffectiveCapability
}

// HasDeclaration reports whether a Server-level or Language-level
// declaration exists (Part II §4.2: at least one MUST).
func (m CapabilityMap) HasDeclaration() bool { return m.HasServer || m.HasLanguage }

// Lookup returns the governing value of cap and the level it came from.
func (m CapabilityMap) Lookup(cap string) (EffectiveCapability, bool) {
	e, ok := m.entries[cap]
	return e, ok
}

// Declared reports whether cap is declared in the effective map.
func (m CapabilityMap) Declared(cap string) bool {
	e, ok := m.entries[cap]
	return ok && e.Declared()
}

// SubFeature reports whether cap.sub is declared in the effective map.
func (m CapabilityMap) SubFeature(cap, sub string) bool {
	e, ok := m.entries[cap]
	return ok && e.SubFeature(sub)
}

// Names returns every capability identifier present at either level,
// declared or not, sorted.
func (m CapabilityMap) Names() []string {
	out := make([]string, 0, len(m.entries))
	for k := range m.entries {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// EffectiveCapabilities computes the effective map for one Language from a
// Server-level and a Language-level declaration (Part II §4.2): per
// capability identifier, a Language-level entry replaces the Server-level
// one in full, sub-features included; nothing is merged.
func EffectiveCapabilities(server, language CapabilityDeclaration) CapabilityMap {
	m := CapabilityMap{HasServer: server != nil, HasLanguage: language != nil, entries: map[string]EffectiveCapability{}}
	for k, v := range server {
		m.entries[k] = EffectiveCapability{v, LevelServer}
	}
	for k, v := range language {
		m.entries[k] = EffectiveCapability{v, LevelLanguage}
	}
	return m
}
