package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/report"
)

const diffFixtures = "../../fixtures/diff/"

func TestDiffExitCodes(t *testing.T) {
	bad := []string{diffFixtures + "diff-trace-weakened/bad.old.json", diffFixtures + "diff-trace-weakened/bad.new.json"}
	info := []string{diffFixtures + "diff-language-added/bad.old.json", diffFixtures + "diff-language-added/bad.new.json"}
	same := []string{diffFixtures + "diff-language-added/good.old.json", diffFixtures + "diff-language-added/good.new.json"}
	for _, tc := range []struct {
		name string
		args []string
		code int
		out  string
	}{
		{"breaking", bad, exitFindings, `error diff-trace-weakened: Language "buildingflow/1" lowered its trace ceiling from "full" to "summary"`},
		{"addition only", info, exitOK, "info diff-language-added"},
		{"addition fails on info", append([]string{"--fail-on", "info"}, info...), exitFindings, "diff-language-added"},
		{"unchanged", same, exitOK, "0 errors, 0 warnings, 0 infos in 1 file"},
		{"disabled", append([]string{"--disable", "diff-trace-weakened"}, bad...), exitOK, "0 errors"},
		{"downgraded", append([]string{"--severity", "diff-trace-weakened=warning"}, bad...), exitOK, "warning diff-trace-weakened"},
		{"one input", bad[:1], exitUsage, ""},
		{"stdin twice", []string{"-", "-"}, exitUsage, ""},
		{"missing file", []string{bad[0], "nope.json"}, exitUsage, ""},
		{"unknown rule", append([]string{"--disable", "diff-nope"}, bad...), exitUsage, ""},
		{"unknown format", append([]string{"--format", "xml"}, bad...), exitUsage, ""},
		{"nothing to compare", []string{bad[0], "../../go.mod"}, exitUsage, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(append([]string{"diff"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			if !strings.Contains(out, tc.out) {
				t.Errorf("output lacks %q:\n%s", tc.out, out)
			}
			if tc.code == exitUsage && errOut == "" {
				t.Error("usage error without a message")
			}
		})
	}
}

// TestDiffFormats renders one breaking change in every --format.
func TestDiffFormats(t *testing.T) {
	args := []string{diffFixtures + "diff-retention-weakened/bad.old.json", diffFixtures + "diff-retention-weakened/bad.new.json"}
	for _, f := range report.Formats {
		code, out, errOut := runCLI(append([]string{"diff", "--format", f}, args...)...)
		if code != exitFindings || !strings.Contains(out, "diff-retention-weakened") {
			t.Errorf("--format %s: exit %d, stderr %q, output:\n%s", f, code, errOut, out)
		}
	}
	_, out, _ := runCLI(append([]string{"diff", "--format", "json"}, args...)...)
	var doc struct {
		Findings []struct{ Rule, File, Pointer string }
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 1 || doc.Findings[0].File != "fixtures/diff/diff-retention-weakened/bad.new.json" && !strings.HasSuffix(doc.Findings[0].File, "bad.new.json") || doc.Findings[0].Pointer != "/languages/0/retention" {
		t.Errorf("json findings: %+v", doc.Findings)
	}
}
