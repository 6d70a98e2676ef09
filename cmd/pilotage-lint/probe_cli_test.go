package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
)

// probeCLI runs pilotage-lint with args; its own helper, so the test does
// not depend on the snapshot tests' helpers.
func probeCLI(args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestSnapshotProbeCLI is the quick start's second step against the
// testdata server over Streamable HTTP: probe it, then lint the snapshot
// offline in text, JSON and HTML.
func TestSnapshotProbeCLI(t *testing.T) {
	dir := t.TempDir()
	pilotservertest.Build(t) // while PATH still holds go: snapshotTool narrows it
	snapshotTool(t)
	url := pilotservertest.StartHTTP(t, "-mode", "full")
	prog := filepath.Join(dir, "prog.json")
	if err := os.WriteFile(prog, []byte(`{"steps": [{"id": "a", "op": "neg", "args": [2]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := filepath.Join(dir, "server.snapshot.json")
	code, _, stderr := probeCLI("snapshot", "--probe", "--probe-run", prog, "--probe-timeout", "3s", "--out", snap, "--url", url)
	if code != exitOK || !strings.Contains(stderr, "recorded calls") {
		t.Fatalf("snapshot exit %d: %s", code, stderr)
	}
	code, text, _ := probeCLI("--no-config", snap)
	if code != exitOK || !strings.Contains(text, "probe coverage: 32 of 52 official server vectors probed (32 passed, 0 failed), 2 not applicable, 3 judged offline") {
		t.Errorf("lint exit %d:\n%s", code, text)
	}
	code, js, _ := probeCLI("--no-config", "--format", "json", snap)
	var doc struct {
		Coverage struct {
			Calls  int `json:"calls"`
			Failed int `json:"vectors_failed"`
		} `json:"coverage"`
	}
	if err := json.Unmarshal([]byte(js), &doc); err != nil || code != exitOK || doc.Coverage.Calls == 0 || doc.Coverage.Failed != 0 {
		t.Errorf("json exit %d, %v: %s", code, err, js)
	}
	page := filepath.Join(dir, "report.html")
	if code, _, stderr := probeCLI("--no-config", "--output", "html="+page, snap); code != exitOK {
		t.Errorf("html exit %d: %s", code, stderr)
	}
	if b, err := os.ReadFile(page); err != nil || !bytes.Contains(b, []byte("PIL-EXECUTE-STORE-UNSUPPORTED-B")) {
		t.Errorf("the html page lacks the probes: %v", err)
	}
	for _, bad := range [][]string{
		{"snapshot", "--probe-run", prog, "--url", url},
		{"snapshot", "--probe", "--probe-run", filepath.Join(dir, "missing.json"), "--url", url},
		{"snapshot", "--probe", "--probe-input", prog, "--url", url},
		{"--format", "html", "--format", "text", snap},
	} {
		if code, _, stderr := probeCLI(bad...); code != exitUsage || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", bad, code, stderr)
		}
	}
}
