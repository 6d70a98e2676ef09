package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// The JUnit XML shape that Jenkins, GitLab, Azure Pipelines and CircleCI
// read: testsuites > testsuite > testcase > failure, with system-out.

// JUnitSuites is the document root.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite holds one input file's cases.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one rule on one file.
type JUnitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Time      string        `xml:"time,attr"`
	Failure   *JUnitFailure `xml:"failure,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

// JUnitFailure carries a failing rule's findings, one per line.
type JUnitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

// JUnit prints one test suite per input file and one test case per rule
// that ran on it, so a CI server counts passing rules as passing tests.
// A case fails when the rule has findings at or above FailOn; findings of
// lower severity go to the case's system-out and leave it passing, like
// the exit code does.
func JUnit(w io.Writer, run *Run) error {
	failOn := run.FailOn
	if failOn == 0 {
		failOn = lint.Error
	}
	byFile := map[string]map[string][]lint.Finding{}
	var files []string
	addFile := func(name string) {
		if byFile[name] == nil {
			byFile[name] = map[string][]lint.Finding{}
			files = append(files, name)
		}
	}
	for _, fi := range run.Result.Files {
		addFile(fi.Path)
	}
	for _, f := range run.Result.Findings {
		addFile(f.File)
		byFile[f.File][f.Rule] = append(byFile[f.File][f.Rule], f)
	}
	sort.Strings(files)
	probes := run.probeIndex()
	doc := JUnitSuites{Name: run.Tool.Name, Time: "0"}
	for _, file := range files {
		ids := map[string]bool{}
		var order []string
		for _, r := range run.Rules {
			if !ids[r.ID] {
				ids[r.ID] = true
				order = append(order, r.ID)
			}
		}
		for id := range byFile[file] {
			if !ids[id] {
				ids[id] = true
				order = append(order, id)
			}
		}
		sort.Strings(order)
		suite := JUnitSuite{Name: file, Time: "0"}
		for _, id := range order {
			c := JUnitCase{Name: id, Classname: file, File: file, Time: "0"}
			var fail, out []string
			worst, first := lint.Severity(0), ""
			for _, f := range byFile[file][id] {
				note := probes.note(f)
				line := fmt.Sprintf("%s:%d:%d: %s %s: %s (%s) at %q%s", f.File, f.Line, f.Column, f.Severity, f.Rule, f.Message, f.Spec, f.Pointer, note)
				if f.Severity >= failOn {
					if first == "" {
						first = f.Message + note
					}
					fail = append(fail, line)
					worst = max(worst, f.Severity)
				} else {
					out = append(out, line)
				}
			}
			if len(fail) > 0 {
				msg := first
				if len(fail) > 1 {
					msg = fmt.Sprintf("%d findings; first: %s", len(fail), first)
				}
				c.Failure = &JUnitFailure{Message: msg, Type: worst.String(), Text: strings.Join(fail, "\n") + "\n"}
				suite.Failures++
			}
			if len(out) > 0 {
				c.SystemOut = strings.Join(out, "\n") + "\n"
			}
			suite.Cases = append(suite.Cases, c)
			suite.Tests++
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Suites = append(doc.Suites, suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}
