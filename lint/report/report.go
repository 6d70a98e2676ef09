// Package report renders lint results for people and for machines. Each
// format is a function of the findings alone, so output is byte-identical
// for the same findings.
package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// Tool identifies pilotage-lint in machine-readable output.
type Tool struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Run is everything a format may render. It is not changed once a format
// has rendered it: the probe coverage is computed on the first render and
// shared by every format written after it.
type Run struct {
	Tool   Tool
	Result *lint.Result
	// Rules are the rules that ran, for formats that describe them.
	Rules []*lint.Rule
	// BaseDir makes file paths relative in formats that want URIs.
	BaseDir string
	// FailOn is the lowest severity that fails the run (0 means Error);
	// JUnit marks only such findings as test failures, so the test report
	// agrees with the exit code.
	FailOn lint.Severity
	// Probes are the probe calls of the linted snapshots (ProbesOf), for
	// the coverage summary and the html format.
	Probes []probe.Call
	// Time is when the run happened, for formats that say so; zero
	// leaves it out.
	Time time.Time

	// cov is the coverage, once computed (coverage), at covFailOn.
	cov       *probe.Coverage
	covered   bool
	covFailOn lint.Severity
}

// Summary counts findings by severity.
type Summary struct {
	Errors   int `json:"errors"`
	Warnings int `json:"warnings"`
	Infos    int `json:"infos"`
	Files    int `json:"files"`
	// Skipped names, per file, the cross-checks that could not run; it is
	// no finding, so it never fails a run.
	Skipped []lint.Skipped `json:"skipped,omitempty"`
}

// Summarize counts a run's findings.
func Summarize(r *lint.Result) Summary {
	s := Summary{Files: len(r.Files), Skipped: r.Skipped}
	for _, f := range r.Findings {
		switch f.Severity {
		case lint.Error:
			s.Errors++
		case lint.Warning:
			s.Warnings++
		case lint.Info:
			s.Infos++
		}
	}
	return s
}

// TextOptions tune Text.
type TextOptions struct {
	// Color adds ANSI colours to severities; callers decide (a terminal,
	// and NO_COLOR unset).
	Color bool
	// Quiet prints findings only, without the summary line.
	Quiet bool
}

// Text prints one line per finding, in the form compilers use so that
// editors can jump to it:
//
//	file:line:col: severity rule-id: message (Part III §4.6)
func Text(w io.Writer, run *Run, opt TextOptions) error {
	probes := run.probeIndex()
	for _, f := range run.Result.Findings {
		sev := f.Severity.String()
		if opt.Color {
			sev = colorOf(f.Severity) + sev + "\x1b[0m"
		}
		if _, err := fmt.Fprintf(w, "%s:%d:%d: %s %s: %s (%s)%s\n", f.File, f.Line, f.Column, sev, f.Rule, f.Message, f.Spec, probes.note(f)); err != nil {
			return err
		}
		// A note line per related place, in the form compilers use, so
		// editors jump there too.
		for _, r := range f.Related {
			if _, err := fmt.Fprintf(w, "%s:%d:%d: note: %s\n", r.File, r.Line, r.Column, r.Message); err != nil {
				return err
			}
		}
	}
	if opt.Quiet {
		return nil
	}
	// A note, not a finding: silence on a non-Pilotage server must not
	// trip --fail-on info.
	for _, fi := range run.Result.Files {
		if fi.NoPilotage {
			if _, err := fmt.Fprintf(w, "%s: note: no Pilotage surface declared (no extension identifier, no manifest, no pilotage_get_guide or pilotage_catalog tool, no pilotage_manifest tool unless one whose recorded answer is no manifest); Pilotage rules not run\n", fi.Path); err != nil {
				return err
			}
		}
	}
	s := Summarize(run.Result)
	kinds := map[string]snapshot.Kind{}
	for _, fi := range run.Result.Files {
		kinds[fi.Path] = fi.Kind
	}
	for _, sk := range s.Skipped {
		// A snapshot records every surface there is to record, so what it
		// lacks no other input supplies, and what a rule could not judge
		// in it is said in the check's own words; --manifest is advised
		// only to a run without one.
		line := fmt.Sprintf("%s: cross-checks not run: %s", sk.File, strings.Join(sk.Checks, "; "))
		switch {
		case kinds[sk.File] == snapshot.KindSnapshot:
		case run.Result.Manifest != "":
			line = fmt.Sprintf("%s: cross-checks not run because the input lacks what they compare: %s (lint a snapshot)", sk.File, strings.Join(sk.Checks, "; "))
		default:
			line = fmt.Sprintf("%s: cross-checks not run because the input lacks what they compare: %s (lint a snapshot, or pass --manifest)", sk.File, strings.Join(sk.Checks, "; "))
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintf(w, "%d %s, %d %s, %d %s in %d %s\n", s.Errors, lint.Plural(s.Errors, "error"), s.Warnings, lint.Plural(s.Warnings, "warning"), s.Infos, lint.Plural(s.Infos, "info"), s.Files, lint.Plural(s.Files, "file"))
	if cov := run.coverage(); cov != nil && err == nil {
		_, err = fmt.Fprintln(w, cov)
	}
	return err
}

func colorOf(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "\x1b[1;31m"
	case lint.Warning:
		return "\x1b[1;33m"
	}
	return "\x1b[1;36m"
}

// JSONVersion is the version of the --format json contract.
const JSONVersion = 1

type jsonFinding struct {
	Rule      string `json:"rule"`
	Severity  string `json:"severity"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Pointer   string `json:"pointer"`
	Message   string `json:"message"`
	Spec      string `json:"spec"`
	// Related is omitted when empty, so the v1 contract only grows.
	Related []lint.Related `json:"related,omitempty"`
	// Probe is omitted outside probe calls, for the same reason.
	Probe *jsonProbe `json:"probe,omitempty"`
}

type jsonDoc struct {
	Version  int             `json:"version"`
	Tool     Tool            `json:"tool"`
	Files    []lint.FileInfo `json:"files"`
	Findings []jsonFinding   `json:"findings"`
	Summary  Summary         `json:"summary"`
	Coverage *probe.Coverage `json:"coverage,omitempty"`
}

// JSON prints the documented machine contract (README, "JSON output").
func JSON(w io.Writer, run *Run) error {
	doc := jsonDoc{Version: JSONVersion, Tool: run.Tool, Files: run.Result.Files, Findings: []jsonFinding{}, Summary: Summarize(run.Result), Coverage: run.coverage()}
	if doc.Files == nil {
		doc.Files = []lint.FileInfo{}
	}
	probes := run.probeIndex()
	for _, f := range run.Result.Findings {
		doc.Findings = append(doc.Findings, jsonFinding{f.Rule, f.Severity.String(), f.File, f.Line, f.Column, f.EndLine, f.EndColumn, f.Pointer, f.Message, f.Spec, f.Related, probes.json(f)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}
