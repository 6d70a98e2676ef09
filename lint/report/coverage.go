package report

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
)

// ProbesOf returns the probe calls of a run's snapshots, as the engine
// read them, for the coverage summary, the HTML page and the probe notes.
// A tag naming no probe of this version's set is left out.
func ProbesOf(res *lint.Result) []probe.Call {
	var out []probe.Call
	for _, fi := range res.Files {
		for _, c := range fi.Probes {
			pr := probe.ByName(c.Name)
			if pr == nil {
				continue
			}
			pc := probe.Call{File: fi.Path, Pointer: c.Pointer, Probe: pr, Language: c.Language, Tool: c.Tool,
				Arguments: c.Arguments, Answer: c.Answer, AnswerKind: c.AnswerKind}
			pc.ReadTag(c.Tag)
			out = append(out, pc)
		}
	}
	return out
}

// SkipsOf returns the probes the run's snapshots record as not sent, with
// why.
func SkipsOf(res *lint.Result) []probe.Skipped {
	var out []probe.Skipped
	for _, fi := range res.Files {
		out = append(out, probe.ReadSkips(fi.Path, fi.ProbeSkips)...)
	}
	return out
}

// Coverage sums up a run's probe calls with probe.Cover, the one function
// behind every surface's figures; nil when it has none. A call fails when
// an error finding sits at or inside it, and is suppressed when only
// error findings a baseline or ignore entry suppressed do.
func Coverage(res *lint.Result, calls []probe.Call) *probe.Coverage {
	inside := func(fs []lint.Finding, file, pointer string) bool {
		for _, f := range fs {
			if f.Severity == lint.Error && f.File == file && probe.Inside(f.Pointer, pointer) {
				return true
			}
		}
		return false
	}
	return probe.Cover(calls, SkipsOf(res), func(file, pointer string) probe.Verdict {
		switch {
		case inside(res.Findings, file, pointer):
			return probe.VerdictFailed
		case inside(res.Suppressed, file, pointer):
			return probe.VerdictSuppressed
		}
		return probe.VerdictClean
	})
}

func (r *Run) coverage() *probe.Coverage { return Coverage(r.Result, r.Probes) }
