package types

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// TraceLevel is a trace level (Part II §5.8.1). Trace objects and the
// manifest carry summary or full; "none" exists only as a request value.
type TraceLevel string

const (
	TraceNone    TraceLevel = "none"
	TraceSummary TraceLevel = "summary"
	TraceFull    TraceLevel = "full"
)

// TraceLevels are the levels a trace or manifest may carry.
var TraceLevels = []TraceLevel{TraceSummary, TraceFull}

// RequestTraceLevels are the execute-request values (Part III §4.4). The
// fetch door admits only TraceLevels (Part II §6.6).
var RequestTraceLevels = []TraceLevel{TraceNone, TraceSummary, TraceFull}

// IsKnown reports membership in TraceLevels (summary, full).
func (t TraceLevel) IsKnown() bool { return slices.Contains(TraceLevels, t) }

// IsKnownRequest reports whether t is a valid trace_level on stage s:
// none, summary or full on execute; summary or full on trace fetch.
func (t TraceLevel) IsKnownRequest(s Stage) bool {
	if s == StageExecute {
		return slices.Contains(RequestTraceLevels, t)
	}
	return t.IsKnown()
}

// Rank orders levels none < summary < full; unknown levels rank -1.
func (t TraceLevel) Rank() int {
	switch t {
	case TraceNone:
		return 0
	case TraceSummary:
		return 1
	case TraceFull:
		return 2
	}
	return -1
}

// EffectiveTraceLevel is the lower of the requested level and the declared
// ceiling; an empty request asks for the ceiling (Part II §5.8.1).
func EffectiveTraceLevel(requested, ceiling TraceLevel) TraceLevel {
	if requested == "" || requested.Rank() > ceiling.Rank() {
		return ceiling
	}
	return requested
}

// Trace is the Server's recorded account of a Run (Part II §5.8).
type Trace struct {
	RunID string      `json:"run_id"`
	Level TraceLevel  `json:"level"`
	Steps []TraceStep `json:"steps"`
	// Stats is engine-specific and informative.
	Stats json.RawMessage `json:"stats,omitempty"`
}

// TraceStep is one entry of the flat trace (Part II §5.8, §5.8.2).
type TraceStep struct {
	ID    string `json:"id"`
	Calls string `json:"calls,omitempty"`
	// Input and Output keep absent apart from null: at full level a
	// non-control-flow step must carry them even when the value is null.
	Input   Optional `json:"input,omitempty"`
	Output  Optional `json:"output,omitempty"`
	Outcome Outcome  `json:"outcome"`
	TMs     *int64   `json:"t_ms,omitempty"`
	// Decisions marks a control-flow step; nil means absent, which the
	// omitzero tag keeps apart from an empty array.
	Decisions []Decision `json:"decisions,omitzero"`
}

// IsControlFlow reports whether the step is a branch or loop entry, judged
// by the presence of decisions (the only wire-visible marker).
func (s TraceStep) IsControlFlow() bool { return s.Decisions != nil }

// StepID is a parsed trace step identifier (Part II §5.8.2), e.g.
// "call1#2/body#3" = prefix "call1#2", base "body", iterations [3].
type StepID struct {
	// Prefix is the calling entry's complete identifier for an expanded
	// sub-program entry, "" otherwise.
	Prefix string
	// Base is the program step identifier.
	Base string
	// Iterations are the 1-based loop counters, outermost first.
	Iterations []int
}

// Expanded reports whether the entry comes from an expanded sub-program
// and so takes no part in plan correspondence (Part II §5.8.4).
func (s StepID) Expanded() bool { return s.Prefix != "" }

// String re-assembles the identifier.
func (s StepID) String() string {
	var b strings.Builder
	if s.Prefix != "" {
		b.WriteString(s.Prefix)
		b.WriteByte('/')
	}
	b.WriteString(s.Base)
	for _, n := range s.Iterations {
		fmt.Fprintf(&b, "#%d", n)
	}
	return b.String()
}

// ParseStepID parses a trace step identifier. Every '/'-separated segment
// must be a non-empty base followed by zero or more "#n" with n a positive
// decimal integer.
func ParseStepID(id string) (StepID, error) {
	segs := strings.Split(id, "/")
	var last StepID
	for _, seg := range segs {
		base, iters, err := parseSegment(seg)
		if err != nil {
			return StepID{}, fmt.Errorf("trace step id %q: %w", id, err)
		}
		last = StepID{Base: base, Iterations: iters}
	}
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		last.Prefix = id[:i]
	}
	return last, nil
}

func parseSegment(seg string) (string, []int, error) {
	parts := strings.Split(seg, "#")
	if parts[0] == "" {
		return "", nil, fmt.Errorf("empty step identifier in segment %q", seg)
	}
	var iters []int
	for _, p := range parts[1:] {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || p[0] == '+' || p[0] == '0' {
			return "", nil, fmt.Errorf("iteration %q is not a positive integer", p)
		}
		iters = append(iters, n)
	}
	return parts[0], iters, nil
}

// BaseID recovers the program step identifier of a trace entry: the
// segment after the final '/', without its '#' suffixes (Part II §5.8.2).
// It never fails, so it can be applied to malformed identifiers too.
func BaseID(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	base, _, _ := strings.Cut(id, "#")
	return base
}

// ValidProgramStepID reports whether s may be a program step identifier:
// it must not contain '#' or '/' (Part II §3.4).
func ValidProgramStepID(s string) bool { return !strings.ContainsAny(s, "#/") }
