package report_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// sampleInputs give findings of several rules and severities, at non-ASCII
// columns, in awkward file names, inside and outside the base directory.
// Each carries a Pilotage signal (a pilotage_* tool) so that rules judge it.
var sampleInputs = []lint.Input{
	{Name: "/repo/servers/dup.json", Data: []byte("{\"tools\": [], \"tools\": [{\"name\": \"pilotage_manifest\"}]}\n"), Explicit: true},
	{Name: "/repo/servers/we,ird:name 1.json", Data: []byte("{\"tools\": [{\"name\": \"é\", \"name\": \"ü\"}, {\"name\": \"pilotage_manifest\"}]}\n"), Explicit: true},
	{Name: "/elsewhere/other.json", Data: []byte("{\"name\": \"x\"}\n"), Explicit: true},
	{Name: "/repo/servers/clean.json", Data: []byte("{\"tools\": []}\n"), Explicit: true},
}

// sampleRun lints sampleInputs with every rule, as the CLI would with the
// working directory at /repo.
func sampleRun(t *testing.T) *report.Run {
	t.Helper()
	rs := rules.All()
	res, err := lint.Run(context.Background(), sampleInputs, &lint.Options{Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) < 3 {
		t.Fatalf("sample inputs drew too few findings to test with: %+v", res.Findings)
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v1.2.3"}, Result: res, Rules: rs, BaseDir: "/repo"}
}

// awkwardRun has findings whose text needs every escape a format knows.
func awkwardRun() *report.Run {
	r := &lint.Rule{ID: "json-syntax", Severity: lint.Error, Spec: "RFC 8259; Part III §6", Summary: "s", Doc: "d"}
	w := &lint.Rule{ID: "tool-name-style", Severity: lint.Warning, Spec: "Part II §4.3", Summary: "s", Doc: "d"}
	i := &lint.Rule{ID: "style-advice", Severity: lint.Info, Spec: "pilotage-lint", Summary: "s", Doc: "d"}
	res := &lint.Result{
		Files: []lint.FileInfo{{Path: "a,b:c%.json", Kind: "snapshot"}},
		Findings: []lint.Finding{
			{Rule: r.ID, Severity: lint.Error, File: "a,b:c%.json", Line: 2, Column: 3, EndLine: 4, EndColumn: 5, Pointer: "/a~1b/0", Message: "100% wrong: a, b\r\nand <c> & \"d\" ::error::x", Spec: r.Spec},
			{Rule: w.ID, Severity: lint.Warning, File: "a,b:c%.json", Line: 7, Column: 1, EndLine: 7, EndColumn: 9, Pointer: "", Message: "plain", Spec: w.Spec},
			{Rule: i.ID, Severity: lint.Info, File: "a,b:c%.json", Line: 8, Column: 1, EndLine: 8, EndColumn: 2, Pointer: "/x", Message: "note\x00this", Spec: i.Spec},
		},
	}
	return &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "devel"}, Result: res, Rules: []*lint.Rule{r, w, i}}
}

func render(t *testing.T, format string, run *report.Run) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := report.Write(&b, format, run, report.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
