package probe

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// Call is one recorded probe call of a snapshot file, as the reports show
// it.
type Call struct {
	File, Pointer string
	Probe         *Probe
	Language      string
	Tool          string
	Arguments     json.RawMessage
	// Answer is the result or the JSON-RPC error, as recorded; nil when the
	// call timed out.
	Answer     json.RawMessage
	AnswerKind string // "result", "error" or "timeout"
	// Failed is set by Cover: an error finding sits at or inside the call.
	Failed bool
}

// Vector is the standing of one official server vector in a lint run.
type Vector struct {
	ID string `json:"id"`
	// Class is how the vector is reached (docs/vectors.md).
	Class Class `json:"class"`
	// Status is passed, failed or not applicable for a probed vector,
	// "needs --probe-run" for a probe-run vector without a run, and
	// "judged offline", "judged from recorded calls" or "needs setup"
	// for the others.
	Status string   `json:"status"`
	Probes []string `json:"probes,omitempty"`
	Rules  []string `json:"rules,omitempty"`
}

// NotRun is a Language on which the user's --probe-run program never ran.
type NotRun struct {
	File     string `json:"file"`
	Language string `json:"language"`
	Reason   string `json:"reason"`
}

// Coverage sums up the probe calls of a lint run against every official
// server vector.
type Coverage struct {
	Calls       int `json:"calls"`
	FailedCalls int `json:"failed_calls"`
	// Total is the number of official server vectors; the figures below
	// add up to it.
	Total         int      `json:"vectors_total"`
	Probed        int      `json:"vectors_probed"`
	Passed        int      `json:"vectors_passed"`
	Failed        int      `json:"vectors_failed"`
	NotApplicable int      `json:"vectors_not_applicable"`
	NeedsRun      int      `json:"vectors_need_probe_run"`
	Offline       int      `json:"vectors_offline"`
	Recorded      int      `json:"vectors_recorded"`
	Setup         int      `json:"vectors_need_setup"`
	Vectors       []Vector `json:"vectors"`
	// NotRun says where the --probe-run program never ran, and why.
	NotRun []NotRun `json:"not_run,omitempty"`
}

// Statuses of a vector.
const (
	Passed        = "passed"
	Failed        = "failed"
	NotApplicable = "not applicable"
	NeedsRun      = "needs --probe-run"
	JudgedOffline = "judged offline"
	FromRecorded  = "judged from recorded calls"
	NeedsSetup    = "needs setup"
)

// Cover marks each call failed when failed says an error finding sits at
// or inside it, and sums the calls up by official server vector. A probed
// vector that no call exercised is not applicable (no Language declared
// what it needs), or needs --probe-run when only the user's program can
// exercise it.
func Cover(calls []Call, failed func(file, pointer string) bool) *Coverage {
	if len(calls) == 0 {
		return nil
	}
	cov := &Coverage{Calls: len(calls), Total: len(ServerVectors)}
	cov.Vectors = make([]Vector, len(ServerVectors))
	byProbe := map[string][]*Vector{}
	for i, vc := range ServerVectors {
		v := &cov.Vectors[i]
		*v = Vector{ID: vc.ID, Class: vc.Class, Probes: ProbesOf(vc.ID), Rules: vc.Rules}
		switch vc.Class {
		case ByProbe:
			v.Status = NotApplicable
		case ByProbeRun:
			v.Status = NeedsRun
		case Offline:
			v.Status = JudgedOffline
		case Recorded:
			v.Status = FromRecorded
		default:
			v.Status = NeedsSetup
		}
		for _, p := range v.Probes {
			byProbe[p] = append(byProbe[p], v)
		}
	}
	// ran: the user's program started on some Language.
	ran := false
	for i := range calls {
		ran = ran || calls[i].Probe.RunsProgram() && Refusal(calls[i].Answer, calls[i].AnswerKind) == ""
	}
	for i := range calls {
		c := &calls[i]
		c.Failed = failed(c.File, c.Pointer)
		if c.Failed {
			cov.FailedCalls++
		}
		if c.Probe.RunsProgram() {
			if why := Refusal(c.Answer, c.AnswerKind); why != "" {
				cov.NotRun = append(cov.NotRun, NotRun{File: c.File, Language: c.Language, Reason: why})
			}
		}
		for _, v := range byProbe[c.Probe.Name] {
			switch {
			case c.Failed:
				v.Status = Failed
			case v.Status == NotApplicable || v.Status == NeedsRun:
				v.Status = Passed
			}
		}
	}
	for i := range cov.Vectors {
		v := &cov.Vectors[i]
		if v.Status == NeedsRun && ran {
			// The program ran somewhere, so a vector it did not reach is
			// one no Language declared what it needs for.
			v.Status = NotApplicable
		}
		switch v.Status {
		case Passed:
			cov.Passed++
		case Failed:
			cov.Failed++
		case NotApplicable:
			cov.NotApplicable++
		case NeedsRun:
			cov.NeedsRun++
		case JudgedOffline:
			cov.Offline++
		case FromRecorded:
			cov.Recorded++
		default:
			cov.Setup++
		}
	}
	cov.Probed = cov.Passed + cov.Failed
	sort.Slice(cov.Vectors, func(i, j int) bool { return cov.Vectors[i].ID < cov.Vectors[j].ID })
	return cov
}

// CallOf returns the pointer of the recorded call ("/calls/N") that holds
// pointer, or "" when pointer lies outside the snapshot's calls.
func CallOf(pointer string) string {
	rest, ok := strings.CutPrefix(pointer, "/calls/")
	if !ok || rest == "" {
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return "/calls/" + rest
}

// Inside reports whether pointer is call or a value inside it.
func Inside(pointer, call string) bool {
	return pointer == call || strings.HasPrefix(pointer, call+"/")
}

// String is the summary the text report prints: one line of figures,
// then one line per Language where the --probe-run program never ran.
func (c *Coverage) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "probe coverage: %d of %d official server vectors probed (%d passed, %d failed), %d not applicable", c.Probed, c.Total, c.Passed, c.Failed, c.NotApplicable)
	if c.NeedsRun > 0 {
		fmt.Fprintf(&b, ", %d need --probe-run", c.NeedsRun)
	}
	fmt.Fprintf(&b, ", %d judged offline, %d judged only from recorded calls, %d need a setup no probe may create; %d probe calls, %d failed", c.Offline, c.Recorded, c.Setup, c.Calls, c.FailedCalls)
	for _, n := range c.NotRun {
		fmt.Fprintf(&b, "\nprobe-run: %s: the program never ran on %s: %s; %s", n.File, n.Language, n.Reason, NotRunAdvice)
	}
	return b.String()
}
