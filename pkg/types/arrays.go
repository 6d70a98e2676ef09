package types

import "encoding/json"

// Required array members must encode as arrays: a nil slice would encode
// as null, which the spec (and every generated schema) rejects. These
// marshalers turn nil into [] for the required arrays of each shape, so a
// Server that builds a response from zero values still emits valid JSON.
// Decoding is unaffected. GuideMeta.Topics is left alone: GuideMeta is
// embedded in Guide, and a marshaler on it would hide Guide's body.

// MarshalJSON encodes a nil Languages as [].
func (m Manifest) MarshalJSON() ([]byte, error) {
	type plain Manifest
	p := plain(m)
	p.Languages = nonNil(p.Languages)
	return json.Marshal(p)
}

// MarshalJSON encodes a nil Guides as [].
func (r GuideIndexResult) MarshalJSON() ([]byte, error) {
	type plain GuideIndexResult
	p := plain(r)
	p.Guides = nonNil(p.Guides)
	return json.Marshal(p)
}

// MarshalJSON encodes a nil Items as [].
func (r CatalogListResult) MarshalJSON() ([]byte, error) {
	type plain CatalogListResult
	p := plain(r)
	p.Items = nonNil(p.Items)
	return json.Marshal(p)
}

// MarshalJSON encodes a nil Changes as [].
func (r CatalogChangedSinceResult) MarshalJSON() ([]byte, error) {
	type plain CatalogChangedSinceResult
	p := plain(r)
	p.Changes = nonNil(p.Changes)
	return json.Marshal(p)
}

// MarshalJSON encodes a nil Diagnostics as [] (Part II §6.4: always
// present).
func (r ValidateResponse) MarshalJSON() ([]byte, error) {
	type plain ValidateResponse
	p := plain(r)
	p.Diagnostics = nonNil(p.Diagnostics)
	return json.Marshal(p)
}

// MarshalJSON encodes a nil Steps as [].
func (p Plan) MarshalJSON() ([]byte, error) {
	type plain Plan
	q := plain(p)
	q.Steps = nonNil(q.Steps)
	return json.Marshal(q)
}

// MarshalJSON encodes a nil Steps as [].
func (t Trace) MarshalJSON() ([]byte, error) {
	type plain Trace
	p := plain(t)
	p.Steps = nonNil(p.Steps)
	return json.Marshal(p)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
