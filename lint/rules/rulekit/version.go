package rulekit

import (
	"regexp"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// LaterMinor reports whether manifest m declares a later minor version of
// Pilotage 1 than the one pilotage-lint knows. Minor versions may add
// reserved values to closed sets (Part II §11.1) and Clients fall back on
// values they do not know (Part II §1.3), so under such a manifest a value
// outside a 1.1 closed set is not judged.
func LaterMinor(m *source.Node) bool {
	v := m.Get("pilotage")
	if !v.IsString() {
		return false
	}
	ver, err := types.ParseVersion(v.Text())
	return err == nil && ver.Major == types.CurrentVersion.Major && ver.Minor > types.CurrentVersion.Minor
}

// reservedWord is the form of a value a later minor may reserve.
var reservedWord = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// ReservedWord reports whether s has the form of a reserved value, a
// lower-case word such as "session": where a field takes a format or a
// reserved word (retention is "none", "session" or an ISO 8601 duration),
// only such a word can be a value a later minor added; "1h" is a
// malformed duration in any minor.
func ReservedWord(s string) bool { return reservedWord.MatchString(s) }
