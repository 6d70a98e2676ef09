package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestBaselineSurvivesReorder records a baseline into a folder that does
// not exist yet, reverses the order of the snapshot's tools, and checks
// that the baseline still suppresses every finding, from the folder where
// it was written and from another one.
func TestBaselineSurvivesReorder(t *testing.T) {
	root := t.TempDir()
	data, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	must(t, os.MkdirAll(filepath.Join(root, "snaps"), 0o755))
	snap := filepath.Join(root, "snaps", "server.json")
	must(t, os.WriteFile(snap, data, 0o644))

	code, _, stderr := cli(t, root, "", "--no-config", "--write-baseline", "ci/base/baseline.json", "snaps")
	if code != exitOK || !strings.Contains(stderr, "recorded 10 findings in baseline ci/base/baseline.json") {
		t.Fatalf("--write-baseline: exit %d, %s", code, stderr)
	}
	base, err := os.ReadFile(filepath.Join(root, "ci", "base", "baseline.json"))
	must(t, err)
	if !strings.Contains(string(base), `"pointer": "/tools/tools/[name=run_flow]/`) {
		t.Errorf("the baseline does not key tools by name:\n%s", base)
	}

	var doc map[string]json.RawMessage
	must(t, json.Unmarshal(data, &doc))
	var tools struct {
		Tools []json.RawMessage `json:"tools"`
	}
	must(t, json.Unmarshal(doc["tools"], &tools))
	if len(tools.Tools) < 2 {
		t.Fatalf("the example has %d tools", len(tools.Tools))
	}
	slices.Reverse(tools.Tools)
	doc["tools"], err = json.Marshal(tools)
	must(t, err)
	reordered, err := json.MarshalIndent(doc, "", "  ")
	must(t, err)
	must(t, os.WriteFile(snap, reordered, 0o644))

	code, out, stderr := cli(t, root, "", "--no-config", "--baseline", "ci/base/baseline.json", "snaps")
	if code != exitOK || !strings.Contains(out, "0 errors, 0 warnings") || !strings.Contains(stderr, "10 findings suppressed") {
		t.Errorf("after reordering tools: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = cli(t, filepath.Join(root, "snaps"), "", "--no-config", "--baseline", "../ci/base/baseline.json", "server.json")
	if code != exitOK || !strings.Contains(stderr, "10 findings suppressed") {
		t.Errorf("from another folder: exit %d\n%s%s", code, out, stderr)
	}
}
