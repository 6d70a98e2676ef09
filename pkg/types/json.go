package types

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Optional is an arbitrary JSON value that remembers whether it was present
// and whether it was null. Trace step input/output (Part II §5.8) and
// several request members give absence and null different meanings, which a
// plain any or pointer would conflate.
//
// Use it with the `omitempty` tag: the zero value (absent) is omitted,
// a present null is written as null.
type Optional json.RawMessage

// OptionalOf returns a present Optional holding the JSON encoding of v.
func OptionalOf(v any) (Optional, error) {
	b, err := json.Marshal(v)
	return Optional(b), err
}

// Present reports whether the member appeared at all (null included).
func (o Optional) Present() bool { return len(o) > 0 }

// Null reports whether the member appeared with the value null.
func (o Optional) Null() bool { return bytes.Equal(bytes.TrimSpace(o), []byte("null")) }

// Raw returns the JSON text, or nil when absent.
func (o Optional) Raw() json.RawMessage { return json.RawMessage(o) }

// MarshalJSON writes the held value; an absent value only reaches here when
// the field lacks omitempty, and is then written as null.
func (o Optional) MarshalJSON() ([]byte, error) {
	if len(o) == 0 {
		return []byte("null"), nil
	}
	return []byte(o), nil
}

// UnmarshalJSON keeps a copy of the value, null included.
func (o *Optional) UnmarshalJSON(b []byte) error {
	if o == nil {
		return errors.New("types.Optional: UnmarshalJSON on nil pointer")
	}
	*o = append((*o)[:0], b...)
	return nil
}

// NullableString is a string-or-null member whose absence is distinct from
// null. Outcome.error (Part II §5.7) is required, must be null exactly when
// ok is true, and a linter has to tell "missing" from "null" from "".
//
// Use it with the `omitzero` tag so an absent value stays absent.
type NullableString struct {
	// Set is true when the member was present (null or string).
	Set bool
	// Null is true when the member was present and null.
	Null bool
	// Value is the string when present and not null.
	Value string
	// Invalid is true when the member was present with a JSON type other
	// than string or null; the type is lenient so a linter can report it.
	Invalid bool
}

// NullValue returns a present null.
func NullValue() NullableString { return NullableString{Set: true, Null: true} }

// StringValue returns a present string.
func StringValue(s string) NullableString { return NullableString{Set: true, Value: s} }

// IsZero reports absence, for the omitzero tag.
func (n NullableString) IsZero() bool { return !n.Set }

// IsString reports a present, non-null string.
func (n NullableString) IsString() bool { return n.Set && !n.Null && !n.Invalid }

// MarshalJSON writes null for absent or null values, otherwise the string.
func (n NullableString) MarshalJSON() ([]byte, error) {
	if !n.Set || n.Null || n.Invalid {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// UnmarshalJSON accepts a string or null and records anything else as
// Invalid instead of failing (Part II §1.3 spirit: do not fail the whole
// interaction).
func (n *NullableString) UnmarshalJSON(b []byte) error {
	*n = NullableString{Set: true}
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		n.Null = true
	case len(b) > 0 && b[0] == '"':
		return json.Unmarshal(b, &n.Value)
	default:
		n.Invalid = true
	}
	return nil
}
