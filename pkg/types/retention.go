package types

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Retention is a Language's run retention value (Part II §5.1, §6.6):
// "none", "session", or an ISO 8601 duration.
type Retention string

const (
	RetentionNone    Retention = "none"
	RetentionSession Retention = "session"
)

// RetentionKind classifies a parsed retention value.
type RetentionKind int

const (
	RetentionKindNone RetentionKind = iota
	RetentionKindSession
	RetentionKindDuration
)

// Duration is an ISO 8601 duration split into its designators. Only the
// last (lowest-order) component may carry a fraction, as ISO 8601 allows.
type Duration struct {
	Years, Months, Weeks, Days, Hours, Minutes, Seconds float64
}

// Approx converts d to a time.Duration using 365-day years and 30-day
// months. Calendar durations have no exact length; this is for comparisons
// such as "is the idempotency window at least the retention period".
func (d Duration) Approx() time.Duration {
	const day = 24 * float64(time.Hour)
	f := d.Years*365*day + d.Months*30*day + d.Weeks*7*day + d.Days*day +
		d.Hours*float64(time.Hour) + d.Minutes*float64(time.Minute) + d.Seconds*float64(time.Second)
	return time.Duration(f)
}

// RetentionPolicy is a parsed Retention.
type RetentionPolicy struct {
	Kind     RetentionKind
	Duration Duration // set when Kind is RetentionKindDuration
}

// Fetchable reports whether runs may be retrievable at all, i.e. whether
// trace_fetch may be declared (Part II §4.3 rule 5).
func (p RetentionPolicy) Fetchable() bool { return p.Kind != RetentionKindNone }

// The duration grammar is RFC 3339 Appendix A (P followed by a date part,
// a time part, or weeks alone) plus ISO 8601's decimal fraction on the
// lowest-order component, with '.' or ','. It is written without
// look-around so the same text works in RE2 and ECMAScript; the
// "at least one component" and "fraction only last" rules are separate
// checks (see DurationPattern, durationEmptyPattern, durationFractionPattern).
const num = `[0-9]+(?:[.,][0-9]+)?`

// DurationPattern is the outer shape of an ISO 8601 duration.
const DurationPattern = `^P(?:` + num + `W|(?:` + num + `Y)?(?:` + num + `M)?(?:` + num + `D)?(?:T(?:` + num + `H)?(?:` + num + `M)?(?:` + num + `S)?)?)$`

// DurationEmptyPattern matches durations without any component ("P",
// "PT", "P1DT"): a valid duration must not match it.
const DurationEmptyPattern = `^PT?$|T$`

// DurationFractionPattern matches a fraction that is not on the last
// component: a valid duration must not match it.
const DurationFractionPattern = `[.,][0-9]+[YMWDH].*[0-9]`

var (
	durationRE      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(DurationPattern) })
	durationEmptyRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(DurationEmptyPattern) })
	durationFracRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(DurationFractionPattern) })
	durationPartRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([0-9]+(?:[.,][0-9]+)?)([YMWDHS])`) })
)

// ParseDuration parses an ISO 8601 duration such as PT1H, P1D, P2W,
// P1Y2M3DT4H5M6S or PT0.5S. It rejects "P", "PT", "1h", "P1H" and the like.
func ParseDuration(s string) (Duration, error) {
	if !durationRE().MatchString(s) || durationEmptyRE().MatchString(s) || durationFracRE().MatchString(s) {
		return Duration{}, fmt.Errorf("%q is not an ISO 8601 duration", s)
	}
	var d Duration
	date, tm, _ := strings.Cut(s[1:], "T")
	for i, part := range []string{date, tm} {
		for _, m := range durationPartRE().FindAllStringSubmatch(part, -1) {
			v, err := strconv.ParseFloat(strings.Replace(m[1], ",", ".", 1), 64)
			if err != nil {
				return Duration{}, fmt.Errorf("%q: %w", s, err)
			}
			switch {
			case m[2] == "Y":
				d.Years = v
			case m[2] == "M" && i == 0:
				d.Months = v
			case m[2] == "W":
				d.Weeks = v
			case m[2] == "D":
				d.Days = v
			case m[2] == "H":
				d.Hours = v
			case m[2] == "M":
				d.Minutes = v
			case m[2] == "S":
				d.Seconds = v
			}
		}
	}
	return d, nil
}

// Parse parses the retention value.
func (r Retention) Parse() (RetentionPolicy, error) { return ParseRetention(string(r)) }

// IsKnown reports whether r is well-formed: none, session or a duration.
func (r Retention) IsKnown() bool { _, err := r.Parse(); return err == nil }

// ParseRetention parses "none", "session" or an ISO 8601 duration.
func ParseRetention(s string) (RetentionPolicy, error) {
	switch Retention(s) {
	case RetentionNone:
		return RetentionPolicy{Kind: RetentionKindNone}, nil
	case RetentionSession:
		return RetentionPolicy{Kind: RetentionKindSession}, nil
	}
	d, err := ParseDuration(s)
	if err != nil {
		return RetentionPolicy{}, fmt.Errorf("retention %q is not none, session or an ISO 8601 duration", s)
	}
	return RetentionPolicy{Kind: RetentionKindDuration, Duration: d}, nil
}
