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

// Vector is the standing of one official vector the probe set covers.
type Vector struct {
	ID     string   `json:"id"`
	Status string   `json:"status"` // passed, failed or not applicable
	Probes []string `json:"probes"`
}

// Coverage sums up the probe calls of a lint run by official vector.
type Coverage struct {
	Calls         int      `json:"calls"`
	FailedCalls   int      `json:"failed_calls"`
	Probed        int      `json:"vectors_probed"`
	Passed        int      `json:"vectors_passed"`
	Failed        int      `json:"vectors_failed"`
	NotApplicable int      `json:"vectors_not_applicable"`
	Vectors       []Vector `json:"vectors"`
}

// Cover marks each call failed when failed says an error finding sits at
// or inside it, and sums the calls up by vector. A vector of the probe set
// that no call probed is not applicable: no Language of the server
// declared what it needs.
func Cover(calls []Call, failed func(file, pointer string) bool) *Coverage {
	if len(calls) == 0 {
		return nil
	}
	cov := &Coverage{Calls: len(calls)}
	byID := map[string]*Vector{}
	for _, p := range append(append([]*Probe(nil), Set...), UnknownTool) {
		if p.Vector == "" {
			continue
		}
		v := byID[p.Vector]
		if v == nil {
			v = &Vector{ID: p.Vector, Status: "not applicable"}
			byID[p.Vector] = v
		}
		v.Probes = append(v.Probes, p.Name)
	}
	for i := range calls {
		c := &calls[i]
		c.Failed = failed(c.File, c.Pointer)
		if c.Failed {
			cov.FailedCalls++
		}
		v := byID[c.Probe.Vector]
		if v == nil {
			continue
		}
		switch {
		case c.Failed:
			v.Status = "failed"
		case v.Status == "not applicable":
			v.Status = "passed"
		}
	}
	for _, v := range byID {
		switch v.Status {
		case "passed":
			cov.Passed++
		case "failed":
			cov.Failed++
		default:
			cov.NotApplicable++
		}
		cov.Vectors = append(cov.Vectors, *v)
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

// String is the one-line summary the text report prints.
func (c *Coverage) String() string {
	return fmt.Sprintf("probe coverage: %d official vectors probed (%d passed, %d failed), %d not applicable; %d probe calls, %d failed", c.Probed, c.Passed, c.Failed, c.NotApplicable, c.Calls, c.FailedCalls)
}
