package types

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"sync"
)

// Severity is a diagnostic severity (Part II §5.5).
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Severities is the closed set of Part II §5.5.
var Severities = []Severity{SeverityError, SeverityWarning}

// IsKnown reports membership in Severities.
func (s Severity) IsKnown() bool { return slices.Contains(Severities, s) }

// Reserved diagnostic codes every Language must contain (Part II §5.5).
const (
	CodeConstraint     = "constraint"
	CodeInputBinding   = "input_binding"
	CodeContextBinding = "context_binding"
)

// ReservedDiagnosticCodes lists the reserved codes in table order.
var ReservedDiagnosticCodes = []string{CodeConstraint, CodeInputBinding, CodeContextBinding}

// Locator is a diagnostic locator dialect (Part II §5.1, §5.5).
type Locator string

const (
	LocatorJSONPointer Locator = "json-pointer"
	LocatorTextRange   Locator = "text-range"
)

// Locators is the closed set of Part II §5.1.
var Locators = []Locator{LocatorJSONPointer, LocatorTextRange}

// IsKnown reports membership in Locators.
func (l Locator) IsKnown() bool { return slices.Contains(Locators, l) }

// Position is a 1-based line and column (Part II §5.5).
type Position struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// TextRange is {start, end} (Part II §5.5).
type TextRange struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Diagnostic is one validation finding (Part II §5.5).
type Diagnostic struct {
	Severity Severity `json:"severity"`
	// Code is a member of the Language's engine-defined closed set.
	Code string `json:"code"`
	Path Path   `json:"path"`
	// Range locates inside a string addressed by a JSON Pointer path; it is
	// not used with the text-range dialect.
	Range   *TextRange `json:"range,omitempty"`
	Message string     `json:"message"`
	Hint    string     `json:"hint,omitempty"`
}

// JSONPointerPattern matches an RFC 6901 JSON Pointer ("" or "/a/b~1c").
const JSONPointerPattern = `^(/([^~/]|~[01])*)*$`

// Compiled on first use: package init is paid by every run of every
// command, most of which never match these.
var pointerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(JSONPointerPattern) })

// IsJSONPointer reports whether s is a well-formed RFC 6901 pointer.
func IsJSONPointer(s string) bool { return pointerRE().MatchString(s) }

// Path is a diagnostic locator: a JSON Pointer string for the json-pointer
// dialect or a TextRange for text-range (Part II §5.5).
type Path struct {
	// Pointer is set when the path was a string.
	Pointer string
	// Range is set when the path was an object.
	Range *TextRange
	// Raw keeps any other JSON value so a linter can report it; decoding
	// such a value does not fail.
	Raw json.RawMessage
}

// PointerPath returns a JSON Pointer path.
func PointerPath(p string) Path { return Path{Pointer: p} }

// RangePath returns a text-range path.
func RangePath(r TextRange) Path { return Path{Range: &r} }

// IsRange reports whether the path is a text range.
func (p Path) IsRange() bool { return p.Range != nil }

// MarshalJSON writes the string or the range.
func (p Path) MarshalJSON() ([]byte, error) {
	switch {
	case p.Range != nil:
		return json.Marshal(p.Range)
	case len(p.Raw) > 0:
		return p.Raw, nil
	}
	return json.Marshal(p.Pointer)
}

// UnmarshalJSON accepts a string or an object.
func (p *Path) UnmarshalJSON(b []byte) error {
	*p = Path{}
	t := bytes.TrimSpace(b)
	switch {
	case len(t) > 0 && t[0] == '"':
		return json.Unmarshal(t, &p.Pointer)
	case len(t) > 0 && t[0] == '{':
		var r TextRange
		if err := json.Unmarshal(t, &r); err != nil {
			p.Raw = append(json.RawMessage(nil), t...)
			return nil
		}
		p.Range = &r
	default:
		p.Raw = append(json.RawMessage(nil), t...)
	}
	return nil
}

// Valid applies the validity rule of Part II §5.5: no error-severity
// diagnostic. Unknown severities are not errors.
func Valid(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return false
		}
	}
	return true
}
