package types

import (
	"encoding/json"
	"slices"
)

// CatalogEntry describes one environment-bound name (Part II §5.4).
type CatalogEntry struct {
	ID          string `json:"id"`
	Kind        string `json:"kind"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// InputSchema is required for callable kinds; which kinds are callable
	// is engine-defined, so no schema can enforce it.
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
	// OutputSchema is a JSON Schema or null; Optional keeps null apart from
	// absence.
	OutputSchema Optional `json:"output_schema,omitempty"`
	Risk
	Tags []string `json:"tags,omitzero"`
	// Languages absent means every Language may reference the entry.
	Languages []string `json:"languages,omitzero"`
	// Revision is opaque (Part II §1.6).
	Revision string `json:"revision,omitempty"`
}

// UsableBy reports whether a Language may reference the entry.
func (e CatalogEntry) UsableBy(language string) bool {
	return len(e.Languages) == 0 || slices.Contains(e.Languages, language)
}

// CatalogListResult is the `list` response (Part II §6.3). A missing
// NextCursor means the listing is complete.
type CatalogListResult struct {
	Items          []CatalogEntry `json:"items"`
	NextCursor     string         `json:"next_cursor,omitempty"`
	CatalogVersion string         `json:"catalog_version"`
}

// CatalogGetResult is the `get` response (Part II §6.3).
type CatalogGetResult struct {
	Entry          CatalogEntry `json:"entry"`
	CatalogVersion string       `json:"catalog_version"`
}

// CatalogChangedSinceResult is the `changed_since` response (Part II §6.3).
type CatalogChangedSinceResult struct {
	CatalogVersion string          `json:"catalog_version"`
	Changes        []CatalogChange `json:"changes"`
}

// CatalogChange is one entry of a changed_since response.
type CatalogChange struct {
	ID     string     `json:"id"`
	Change ChangeKind `json:"change"`
}

// ChangeKind is the closed change set of Part II §6.3.
type ChangeKind string

const (
	ChangeAdded    ChangeKind = "added"
	ChangeRemoved  ChangeKind = "removed"
	ChangeModified ChangeKind = "modified"
)

// ChangeKinds is the closed set of Part II §6.3.
var ChangeKinds = []ChangeKind{ChangeAdded, ChangeRemoved, ChangeModified}

// IsKnown reports membership in ChangeKinds.
func (c ChangeKind) IsKnown() bool { return slices.Contains(ChangeKinds, c) }

// Effective applies the Part II §1.3 fallback: unknown reads as modified.
func (c ChangeKind) Effective() ChangeKind {
	if c.IsKnown() {
		return c
	}
	return ChangeModified
}

// CatalogVerb is the pilotage_catalog verb (Part III §4.2).
type CatalogVerb string

const (
	VerbList         CatalogVerb = "list"
	VerbGet          CatalogVerb = "get"
	VerbChangedSince CatalogVerb = "changed_since"
)

// CatalogVerbs is the closed set of Part III §4.2.
var CatalogVerbs = []CatalogVerb{VerbList, VerbGet, VerbChangedSince}

// IsKnown reports membership in CatalogVerbs.
func (v CatalogVerb) IsKnown() bool { return slices.Contains(CatalogVerbs, v) }
