package report_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/report"
)

func TestTextColourOnlyWhenAsked(t *testing.T) {
	run := awkwardRun()
	var plain, colour bytes.Buffer
	if err := report.Text(&plain, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := report.Text(&colour, run, report.TextOptions{Color: true}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "\x1b[") {
		t.Errorf("uncoloured text has escapes: %q", plain.String())
	}
	for _, want := range []string{"\x1b[1;31merror\x1b[0m", "\x1b[1;33mwarning\x1b[0m", "\x1b[1;36minfo\x1b[0m"} {
		if !strings.Contains(colour.String(), want) {
			t.Errorf("coloured text lacks %q: %q", want, colour.String())
		}
	}
	stripped := strings.NewReplacer("\x1b[1;31m", "", "\x1b[1;33m", "", "\x1b[1;36m", "", "\x1b[0m", "").Replace(colour.String())
	if stripped != plain.String() {
		t.Errorf("colour changed the text:\n%s\n%s", stripped, plain.String())
	}
}

// TestSkippedIsASummaryLine: skipped cross-checks are said in the text
// summary and the JSON summary, never as a finding, and not under --quiet.
func TestSkippedIsASummaryLine(t *testing.T) {
	run := &report.Run{Result: &lint.Result{
		Files:   []lint.FileInfo{{Path: "m.json", Kind: "manifest"}},
		Skipped: []lint.Skipped{{File: "m.json", Checks: []string{"a call", "the tools"}}},
	}}
	var text, quiet, js bytes.Buffer
	if err := report.Text(&text, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "m.json: cross-checks not run because the input lacks what they compare: a call; the tools (lint a snapshot, or pass --manifest)\n0 errors, 0 warnings, 0 infos in 1 file\n"
	if text.String() != want {
		t.Errorf("text %q", text.String())
	}
	if err := report.Text(&quiet, run, report.TextOptions{Quiet: true}); err != nil || quiet.Len() != 0 {
		t.Errorf("quiet %q %v", quiet.String(), err)
	}
	if err := report.JSON(&js, run); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"skipped": [`) || !strings.Contains(js.String(), `"checks": [`) || !strings.Contains(js.String(), `"findings": []`) {
		t.Errorf("json %s", js.String())
	}
}

// TestRelatedLocations: a finding's related places are note lines in text,
// "related" in JSON and relatedLocations in SARIF.
func TestRelatedLocations(t *testing.T) {
	f := lint.Finding{Rule: "binding-shared-loop-tool", Severity: lint.Error, File: "s.json", Line: 9, Column: 3, EndLine: 9, EndColumn: 4, Pointer: "/tools/1/_meta", Message: "shared", Spec: "Part III §5",
		Related: []lint.Related{{File: "s.json", Line: 40, Column: 20, EndLine: 40, EndColumn: 35, Pointer: "/manifest/languages/0/loop/validate", Message: "named here"}}}
	run := &report.Run{Result: &lint.Result{Files: []lint.FileInfo{{Path: "s.json"}}, Findings: []lint.Finding{f}}}
	var text, js, sarif bytes.Buffer
	if err := report.Text(&text, run, report.TextOptions{Quiet: true}); err != nil {
		t.Fatal(err)
	}
	if want := "s.json:9:3: error binding-shared-loop-tool: shared (Part III §5)\ns.json:40:20: note: named here\n"; text.String() != want {
		t.Errorf("text %q", text.String())
	}
	if err := report.JSON(&js, run); err != nil || !strings.Contains(js.String(), `"pointer": "/manifest/languages/0/loop/validate"`) {
		t.Errorf("json %v %s", err, js.String())
	}
	if err := report.SARIF(&sarif, run); err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, sarifSchema(t), sarif.Bytes())
	for _, want := range []string{`"relatedLocations": [`, `"id": 0`, `"text": "named here"`, `"startLine": 40`} {
		if !strings.Contains(sarif.String(), want) {
			t.Errorf("SARIF lacks %s:\n%s", want, sarif.String())
		}
	}
}
