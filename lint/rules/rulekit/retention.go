package rulekit

import (
	"time"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Retention returns the retention Language l declares, as written and
// parsed; ok is false when l is nil or declares none, or one that does not
// parse.
func Retention(l *snapshot.Language) (string, types.RetentionPolicy, bool) {
	if l == nil {
		return "", types.RetentionPolicy{}, false
	}
	v, ok := l.Node.Str("retention")
	if !ok {
		return "", types.RetentionPolicy{}, false
	}
	pol, err := types.ParseRetention(v)
	return v, pol, err == nil
}

// RetainsFor reports whether Language l's retention certainly lasts at
// least d, which a recording without timestamps can rely on only for a
// span it knows to be shorter: "session" outside a stateless deployment
// (which has no Session, Part III §8.1, so "session" promises nothing
// there; declaring it is a fault of its own), or a duration of at least d.
// "none", and a retention absent or malformed, keep nothing. The stored
// Run's retrievability (Part II §6.6) and the deduplication window, "at
// least as long as the declared retention period" (§6.5.6), both ask it.
func (m *Model) RetainsFor(l *snapshot.Language, d time.Duration) bool {
	_, pol, ok := Retention(l)
	switch {
	case !ok:
		return false
	case pol.Kind == types.RetentionKindSession:
		return !m.stateless
	case pol.Kind == types.RetentionKindDuration:
		return pol.Duration.Approx() >= d
	}
	return false
}

// RecordingSpan is the shortest retention a rule trusts to outlast a whole
// recording, whose calls carry no timestamps: a day.
const RecordingSpan = 24 * time.Hour

// ProbeRunSpan is the shortest retention a rule trusts to outlast a run of
// back-to-back probe calls in one Session: such a run lasts seconds, and
// each call waits at most the probe's call timeout.
const ProbeRunSpan = time.Hour
