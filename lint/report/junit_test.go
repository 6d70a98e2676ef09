package report_test

import (
	"encoding/xml"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

// The JUnit structure as Jenkins' junit plugin and GitLab read it, written
// here independently of the renderer's types.
type jTestsuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []jTestsuite `xml:"testsuite"`
}

type jTestsuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []jTestcase `xml:"testcase"`
}

type jTestcase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	File      string `xml:"file,attr"`
	Time      string `xml:"time,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",chardata"`
	} `xml:"failure"`
	Error     *struct{} `xml:"error"`
	SystemOut string    `xml:"system-out"`
}

func parseJUnit(t *testing.T, out []byte) jTestsuites {
	t.Helper()
	if !strings.HasPrefix(string(out), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration: %.60s", out)
	}
	var doc jTestsuites
	if err := xml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("JUnit output is not well-formed: %v\n%s", err, out)
	}
	return doc
}

func TestJUnitStructure(t *testing.T) {
	run := sampleRun(t)
	doc := parseJUnit(t, render(t, "junit", run))
	files := map[string]bool{}
	for _, fi := range run.Result.Files {
		files[fi.Path] = true
	}
	if len(doc.Suites) != len(files) {
		t.Fatalf("%d suites for %d files", len(doc.Suites), len(files))
	}
	failing := map[[2]string][]lint.Finding{}
	for _, f := range run.Result.Findings {
		if f.Severity == lint.Error {
			failing[[2]string{f.File, f.Rule}] = append(failing[[2]string{f.File, f.Rule}], f)
		}
	}
	tests, failures := 0, 0
	for _, s := range doc.Suites {
		if !files[s.Name] {
			t.Errorf("suite %q is no input file", s.Name)
		}
		if len(s.Cases) != len(run.Rules) || s.Tests != len(s.Cases) {
			t.Errorf("suite %s: %d cases, tests=%d, %d rules ran", s.Name, len(s.Cases), s.Tests, len(run.Rules))
		}
		nfail := 0
		for i, c := range s.Cases {
			if c.Name != run.Rules[i].ID || c.Classname != s.Name || c.File != s.Name || c.Time == "" || c.Error != nil {
				t.Errorf("suite %s case %d = %+v", s.Name, i, c)
			}
			want := failing[[2]string{s.Name, c.Name}]
			if (c.Failure != nil) != (len(want) > 0) {
				t.Errorf("%s %s: failure %v, want %d failing findings", s.Name, c.Name, c.Failure, len(want))
				continue
			}
			if c.Failure == nil {
				continue
			}
			nfail++
			if c.Failure.Type != "error" || c.Failure.Message == "" {
				t.Errorf("%s %s: failure type %q message %q", s.Name, c.Name, c.Failure.Type, c.Failure.Message)
			}
			for _, f := range want {
				if !strings.Contains(c.Failure.Body, f.Message) || !strings.Contains(c.Failure.Body, f.Pointer) {
					t.Errorf("%s %s: failure body lacks %q:\n%s", s.Name, c.Name, f.Message, c.Failure.Body)
				}
			}
		}
		if s.Failures != nfail || s.Errors != 0 || s.Skipped != 0 {
			t.Errorf("suite %s: failures=%d errors=%d, counted %d", s.Name, s.Failures, s.Errors, nfail)
		}
		tests += s.Tests
		failures += s.Failures
	}
	if doc.Tests != tests || doc.Failures != failures || failures != len(failing) {
		t.Errorf("testsuites tests=%d failures=%d, counted %d %d, want %d failures", doc.Tests, doc.Failures, tests, failures, len(failing))
	}
}

// TestJUnitFailOn keeps the test report in step with the exit code: below
// --fail-on a finding is output, not a failure.
func TestJUnitFailOn(t *testing.T) {
	run := awkwardRun()
	cases := func() map[string]jTestcase {
		m := map[string]jTestcase{}
		for _, c := range parseJUnit(t, render(t, "junit", run)).Suites[0].Cases {
			m[c.Name] = c
		}
		return m
	}
	got := cases()
	if got["json-syntax"].Failure == nil || got["tool-name-style"].Failure != nil || got["style-advice"].Failure != nil {
		t.Errorf("fail-on error: %+v", got)
	}
	if !strings.Contains(got["tool-name-style"].SystemOut, "warning tool-name-style: plain") {
		t.Errorf("warning not in system-out: %q", got["tool-name-style"].SystemOut)
	}
	if !strings.Contains(got["json-syntax"].Failure.Body, "100% wrong: a, b\r\nand <c> & \"d\"") {
		t.Errorf("failure body did not survive XML escaping: %q", got["json-syntax"].Failure.Body)
	}
	run.FailOn = lint.Warning
	got = cases()
	if got["tool-name-style"].Failure == nil || got["tool-name-style"].Failure.Type != "warning" || got["style-advice"].Failure != nil {
		t.Errorf("fail-on warning: %+v", got)
	}
}
