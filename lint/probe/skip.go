package probe

import "fmt"

// SkipKind classes why a probe sent nothing to a Language. The coverage
// summary reads it to tell a vector that does not apply from one the run
// left unexercised: only Undeclared means there was nothing to probe.
type SkipKind string

// The kinds of Skip.
const (
	// Undeclared: the Language does not declare what the probe needs, or
	// declares what makes the probe's defect no defect.
	Undeclared SkipKind = "undeclared"
	// NoProbeRun: only the user's --probe-run program can make the
	// request, and none was given.
	NoProbeRun SkipKind = "needs-probe-run"
	// Unmet: an earlier probe of the run did not yield what this one
	// needs: a listed guide, a refused Run, a test run that started.
	Unmet SkipKind = "unmet"
	// NoFit: no value the probe can build fits the tool's declared input
	// schema, so a correct server may answer with a carrier error
	// (Part III §4.6, §7.1) and the answer would judge nothing.
	NoFit SkipKind = "no-fit"
	// Unsent: the session ended (its --timeout, a lost connection) before
	// the probe's turn.
	Unsent SkipKind = "unsent"
)

// Skip says why a probe sent nothing to a Language.
type Skip struct {
	Kind   SkipKind `json:"kind"`
	Reason string   `json:"reason"`
}

func (s *Skip) String() string { return s.Reason }

// Reasons the probe set gives; the coverage report repeats them as they
// stand.
const (
	ReasonNoProbeRun   = "needs --probe-run"
	ReasonNoRefusedRun = "no refused Run to fetch"
	ReasonNoFit        = "no value fits the declared schema"
	ReasonNeverRan     = "the --probe-run program never ran"
)

// undeclared is the Skip of a probe whose Language lacks what (a
// capability or sub-feature).
func undeclared(what string) *Skip {
	return &Skip{Undeclared, "the Language declares no " + what}
}

// declares is the Skip of a probe whose defect the Language makes legal.
func declares(what, so string) *Skip {
	return &Skip{Undeclared, fmt.Sprintf("the Language declares %s, so %s", what, so)}
}

func unmet(reason string) *Skip { return &Skip{Unmet, reason} }

var noProbeRun = &Skip{NoProbeRun, ReasonNoProbeRun}

// Skipped is a probe the runner did not send to a Language, as the
// snapshot records it under "probe_skips".
type Skipped struct {
	File     string   `json:"file,omitempty"`
	Name     string   `json:"name"`
	Language string   `json:"language,omitempty"`
	Kind     SkipKind `json:"kind"`
	Reason   string   `json:"reason"`
}
