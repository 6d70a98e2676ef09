package rulekit

import (
	"regexp"
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// DeclaresLaterMinor reports whether the manifest document m declares a
// later minor version of Pilotage 1 than the one pilotage-lint knows.
// Minor versions may add reserved values to closed sets (Part II §11.1)
// and Clients fall back on values they do not know (Part II §1.3), so
// under such a manifest a value outside a 1.1 closed set is not judged.
//
// It reads one document, for the rules that judge that manifest's own
// members and values. Every rule that judges the rest of a recording
// (tools, calls, results, probe answers) asks Model.LaterMinor instead,
// which reads the authoritative and the inline manifest both, so that no
// two rules disagree on whether a value a later minor may add is judged.
func DeclaresLaterMinor(m *source.Node) bool {
	v := m.Get("pilotage")
	if !v.IsString() {
		return false
	}
	ver, ok := ParseVersion(v.Text())
	return ok && ver.Major == types.CurrentVersion.Major && ver.Minor > types.CurrentVersion.Minor
}

// wireVersion is Part II §11.1's major.minor: two numbers, leading zeros
// and all, which the spec does not forbid ("1.01" is minor 1).
var wireVersion = regexp.MustCompile(`^([0-9]+)\.([0-9]+)$`)

// ParseVersion reads a manifest's pilotage value as Part II §11.1 defines
// it, major.minor, so that "1.02" is the later minor 2 however it is
// spelled. types.ParseVersion is stricter (no leading zeros, one spelling
// per version), which is pkg/types' canonical form, not the spec's rule.
func ParseVersion(s string) (types.Version, bool) {
	m := wireVersion.FindStringSubmatch(s)
	if m == nil {
		return types.Version{}, false
	}
	maj, err1 := strconv.Atoi(m[1])
	min, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil {
		return types.Version{}, false
	}
	return types.Version{Major: maj, Minor: min}, true
}

// reservedWord is the form of a value a later minor may reserve.
var reservedWord = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ReservedWord reports whether s has the form of a reserved value, a
// lower-case word such as "session": where a field takes a format or a
// reserved word (retention is "none", "session" or an ISO 8601 duration),
// only such a word can be a value a later minor added; "1h" is a
// malformed duration in any minor.
func ReservedWord(s string) bool { return reservedWord.MatchString(s) }
