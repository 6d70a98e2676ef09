package schemacheck

import (
	"errors"
	"net/url"
	"strings"

	"github.com/go-openapi/jsonpointer"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Fit is how a value fits a schema, as far as the linter can tell offline.
type Fit int8

// The answers FitOf gives.
const (
	// FitUnknown: the schema does not compile, part of it could not be
	// read (an external reference, an unknown dialect, a pattern no
	// engine here evaluates), or the answer turns on whether the validator
	// asserts "format", which the schema's dialect leaves to it.
	FitUnknown Fit = iota
	// Fits: the schema accepts the value.
	Fits
	// ValueFault: the schema rejects the value, though every member it
	// requires is present and every value has a JSON type the schema
	// allows there; an enum, a pattern, a bound or a closed object
	// refuses it (Part III §7.1's value and eligibility faults).
	ValueFault
	// StructuralFault: the schema rejects the value because a required
	// member is missing or a value has a JSON type the schema does not
	// allow there (Part III §7.1's structural faults).
	StructuralFault
)

// Rejects reports whether the schema certainly rejects the value.
func (f Fit) Rejects() bool { return f == ValueFault || f == StructuralFault }

func (f Fit) String() string {
	switch f {
	case Fits:
		return "fits"
	case ValueFault:
		return "value fault"
	case StructuralFault:
		return "structural fault"
	}
	return "unknown"
}

// FitOf validates value (a decoded JSON value, as source.Node.Value returns
// it) against the schema at n with the schema library, compiled offline as
// Compile does, and says how it fits; for a rejection it also returns the
// library's error, to name the fault.
//
// It never guesses. A schema Compile reports any issue about cannot be
// judged as written (the issue's keyword was left out), so the fit is
// unknown. "format" asserts only where the schema's dialect says it does,
// which the library decides per dialect: in 2020-12 it is an annotation
// unless the meta-schema requires the format-assertion vocabulary (one
// the document carries itself is read), in 2019-09 unless it requires the
// format vocabulary. Draft-07 and earlier let each validator choose ("MAY
// support the format keyword as a validation keyword"), and the library
// asserts it there; so for such a schema the value is validated again
// with every format the schema names registered as accepting anything,
// and when the two answers differ the fit is unknown. ("regex" is the one
// format the library lets no one replace: it stays asserted.)
func FitOf(n *source.Node, value any) (Fit, error) {
	strict, lax, ok := judge(n, value)
	if !ok || strict.fit != lax.fit {
		return FitUnknown, nil
	}
	return strict.fit, strict.err
}

// Structural reports whether value has a structural fault against the
// schema at n (a missing required member, a wrong JSON type, at any
// depth), whether or not the validator asserts the formats the dialect
// leaves to it: a format is never a structural fault. decided is false
// when the schema cannot be judged offline (see FitOf). For a value with
// no structural fault, err is the library's rejection of it, if any,
// under the reading that asserts format.
func Structural(n *source.Node, value any) (structural, decided bool, err error) {
	strict, lax, ok := judge(n, value)
	switch {
	case !ok || strict.fit == FitUnknown || lax.fit == FitUnknown:
		return false, false, nil
	case strict.fit == StructuralFault || lax.fit == StructuralFault:
		return true, true, nil
	}
	return false, true, strict.err
}

// verdict is one validation's answer.
type verdict struct {
	fit Fit
	err error
}

// judge validates value against the schema at n as the library compiles
// it (strict) and, for a dialect that leaves format to the validator,
// again with every format it names treated as an annotation (lax; the
// same as strict otherwise). ok is false when the schema cannot be judged
// as written.
func judge(n *source.Node, value any) (strict, lax verdict, ok bool) {
	sch, issues := Compile(n)
	if sch == nil || len(issues) > 0 {
		return verdict{}, verdict{}, false
	}
	strict.fit, strict.err = fitOf(sch, value)
	names, old := formatNames(n)
	if len(names) == 0 || sch.DraftVersion >= 2019 && !old {
		return strict, strict, true
	}
	laxSch, _ := compile(n, compileOpts{lax: names})
	if laxSch == nil {
		return verdict{}, verdict{}, false
	}
	lax.fit, lax.err = fitOf(laxSch, value)
	return strict, lax, true
}

func fitOf(sch *jsonschema.Schema, value any) (Fit, error) {
	err := sch.Validate(value)
	if err == nil {
		return Fits, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return FitUnknown, nil
	}
	if refCycle(ve) {
		return FitUnknown, nil
	}
	if structural(ve) {
		return StructuralFault, err
	}
	return ValueFault, err
}

// structural reports whether a validation error holds a structural fault:
// a missing required member or a wrong JSON type. A union (anyOf, oneOf)
// that failed holds one only when every alternative does: a value of a
// type one alternative allows, refused there for its value, has a value
// fault. A oneOf failing because several alternatives matched has none.
func structural(ve *jsonschema.ValidationError) bool {
	switch ve.ErrorKind.(type) {
	case *kind.Type, *kind.Required:
		return true
	case *kind.AnyOf, *kind.OneOf:
		if len(ve.Causes) == 0 {
			return false
		}
		for _, c := range ve.Causes {
			if !structural(c) {
				return false
			}
		}
		return true
	}
	for _, c := range ve.Causes {
		if structural(c) {
			return true
		}
	}
	return false
}

// FaultText names the first fault of a rejection FitOf returned, where it
// sits in the value: `at /trace_level: value must be one of "none",
// "summary", "full"`. Among alternatives it follows a value fault, the
// branch whose type the value had.
func FaultText(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return ""
	}
	for len(ve.Causes) > 0 {
		next := ve.Causes[0]
		for _, c := range ve.Causes {
			if !structural(c) {
				next = c
				break
			}
		}
		ve = next
	}
	at := "at the top level"
	if len(ve.InstanceLocation) > 0 {
		toks := make([]string, len(ve.InstanceLocation))
		for i, t := range ve.InstanceLocation {
			toks[i] = jsonpointer.Escape(t)
		}
		at = "at /" + strings.Join(toks, "/")
	}
	return clipN(at+": "+ve.ErrorKind.LocalizedString(printer), 200)
}

func refCycle(ve *jsonschema.ValidationError) bool {
	if _, ok := ve.ErrorKind.(*kind.RefCycle); ok {
		return true
	}
	for _, c := range ve.Causes {
		if refCycle(c) {
			return true
		}
	}
	return false
}

// formatNames returns the format names the schema at n uses, each once,
// and whether any of its resources declares a dialect before 2019-09.
func formatNames(n *source.Node) (names []string, old bool) {
	seen := map[string]bool{}
	base, _ := url.Parse(rootURL)
	walk(n, base, func(s *source.Node, _ *url.URL) {
		if f := s.Get("format"); f.IsString() && !seen[f.Text()] {
			seen[f.Text()] = true
			names = append(names, f.Text())
		}
		if d := s.Get("$schema"); d.IsString() && preDraft2019(d.Text()) {
			old = true
		}
	})
	return names, old
}

func preDraft2019(dialect string) bool {
	return strings.Contains(dialect, "json-schema.org/draft-0")
}

// FormatAsserts reports whether the "format" member of a schema object
// inside the schema document root asserts, as the library compiles it for
// the dialect in force there, and whether that can be told: in 2020-12 a
// format asserts only under a meta-schema requiring the format-assertion
// vocabulary (in 2019-09, the format vocabulary). Draft-07 and earlier
// leave it to each validator ("MAY support the format keyword as a
// validation keyword"), so there decided is false. So is it when the
// schema does not compile.
func FormatAsserts(root, format *source.Node) (asserts, decided bool) {
	at, ok := strings.CutPrefix(format.Parent.Pointer(), root.Pointer())
	if !ok || format.Key() != "format" {
		return false, false
	}
	sch, _ := compile(root, compileOpts{at: at})
	if sch == nil || sch.DraftVersion < 2019 {
		return false, false
	}
	return sch.Format != nil, true
}
