package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCoverageSuppressed: a probe call whose only error finding a
// baseline or an ignore entry suppresses is counted as suppressed, never
// as passed, in the coverage of every report.
func TestCoverageSuppressed(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../../fixtures/probe/probe-expectation/bad-kind.json")
	if err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "s.json")
	if err := os.WriteFile(snap, data, 0o644); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(dir, "baseline.json")
	if code, _, stderr := runCLI("--no-config", "--write-baseline", base, snap); code != 0 {
		t.Fatalf("--write-baseline: exit %d\n%s", code, stderr)
	}
	cfg := filepath.Join(dir, "ignore.yaml")
	if err := os.WriteFile(cfg, []byte("ignore:\n  - rule: probe-expectation\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"baseline": {"--no-config", "--baseline", base},
		"ignore":   {"--config", cfg},
	} {
		code, stdout, stderr := runCLI(append(args, "--format", "json", snap)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, code, stderr)
		}
		var doc struct {
			Coverage struct {
				Suppressed      int `json:"vectors_suppressed"`
				SuppressedCalls int `json:"suppressed_calls"`
				Vectors         []struct{ ID, Status string }
			} `json:"coverage"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		status := ""
		for _, v := range doc.Coverage.Vectors {
			if v.ID == "PIL-LEARN-UNKNOWN-ID-B" {
				status = v.Status
			}
		}
		if status != "suppressed" || doc.Coverage.Suppressed != 1 || doc.Coverage.SuppressedCalls != 1 {
			t.Errorf("%s: PIL-LEARN-UNKNOWN-ID-B is %q, %d vectors and %d calls suppressed", name, status, doc.Coverage.Suppressed, doc.Coverage.SuppressedCalls)
		}
	}
}
