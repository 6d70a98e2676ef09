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
// behind every surface's figures; nil when it has neither probe calls nor
// skipped probes. A finding at or above failOn (0 means Error), the
// run's own threshold, fails the call it sits in, or marks it suppressed
// when a baseline or ignore entry kept it out; a value a rule could not
// judge (lint.Pass.SkipAt) marks its call not judged.
func Coverage(res *lint.Result, calls []probe.Call, failOn lint.Severity) *probe.Coverage {
	if failOn == 0 {
		failOn = lint.Error
	}
	var marks []probe.Mark
	for _, set := range []struct {
		fs   []lint.Finding
		kind probe.MarkKind
	}{{res.Findings, probe.MarkFailed}, {res.Suppressed, probe.MarkSuppressed}} {
		for _, f := range set.fs {
			if f.Severity >= failOn {
				marks = append(marks, probe.Mark{File: f.File, Pointer: f.Pointer, Rule: f.Rule, Kind: set.kind})
			}
		}
	}
	for _, fi := range res.Files {
		for _, u := range fi.Unjudged {
			marks = append(marks, probe.Mark{File: fi.Path, Pointer: u.Pointer, Rule: u.Rule, Kind: probe.MarkUnjudged, What: u.What})
		}
	}
	return probe.Cover(calls, SkipsOf(res), marks)
}

// coverage is the run's coverage, computed once however many formats
// are written.
func (r *Run) coverage() *probe.Coverage {
	if !r.covered || r.covFailOn != r.FailOn {
		r.cov, r.covered, r.covFailOn = Coverage(r.Result, r.Probes, r.FailOn), true, r.FailOn
	}
	return r.cov
}
