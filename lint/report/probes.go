package report

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

// probeIndex finds the probe call a finding lies in, so that every format
// can say which probe and vector a finding on a probed snapshot concerns,
// whichever rule reported it.
type probeIndex map[[2]string]*probe.Call

func (r *Run) probeIndex() probeIndex {
	if len(r.Probes) == 0 {
		return nil
	}
	idx := probeIndex{}
	for i := range r.Probes {
		c := &r.Probes[i]
		idx[[2]string{c.File, c.Pointer}] = c
	}
	return idx
}

// of returns the probe call holding f's pointer, or nil.
func (idx probeIndex) of(f lint.Finding) *probe.Call {
	call := probe.CallOf(f.Pointer)
	if idx == nil || call == "" {
		return nil
	}
	return idx[[2]string{f.File, call}]
}

// note is the text formats' trailing note: " (probe NAME, vector ID)", or
// without the vector when none covers the probe; "" outside probe calls.
func (idx probeIndex) note(f lint.Finding) string {
	c := idx.of(f)
	// probe-expectation's own message opens with the probe it judges.
	if c == nil || strings.HasPrefix(f.Message, "probe "+c.Probe.Name+" ") {
		return ""
	}
	if c.Probe.Vector == "" {
		return " (probe " + c.Probe.Name + ")"
	}
	return " (probe " + c.Probe.Name + ", vector " + c.Probe.Vector + ")"
}

// jsonProbe is the JSON report's account of the probe call a finding lies
// in.
type jsonProbe struct {
	Name     string `json:"name"`
	Vector   string `json:"vector,omitempty"`
	Language string `json:"language,omitempty"`
	Call     string `json:"call"`
}

func (idx probeIndex) json(f lint.Finding) *jsonProbe {
	c := idx.of(f)
	if c == nil {
		return nil
	}
	return &jsonProbe{Name: c.Probe.Name, Vector: c.Probe.Vector, Language: c.Language, Call: c.Pointer}
}
