package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
)

const serverTestdata = "../../lint/snapshotter/testdata"

// pilotserver builds the testdata server once per test binary.
func pilotserver(t *testing.T) string { return pilotservertest.Build(t) }

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, strings.NewReader(""), &o, &e)
	return code, o.String(), e.String()
}

// findingLines renders a --format json report as "line:col severity rule
// pointer" lines, the shape the goldens hold.
func findingLines(t *testing.T, report string) string {
	t.Helper()
	var doc struct {
		Findings []struct {
			Rule, Severity, Pointer string
			Line, Column            int
		}
	}
	if err := json.Unmarshal([]byte(report), &doc); err != nil {
		t.Fatalf("not a JSON report: %v\n%s", err, report)
	}
	var b strings.Builder
	for _, f := range doc.Findings {
		fmt.Fprintf(&b, "%d:%d %s %s %q\n", f.Line, f.Column, f.Severity, f.Rule, f.Pointer)
	}
	return b.String()
}

// snapshotTool builds pilotage-lint-snapshot into a folder and puts only
// that folder on PATH, as `go install ./cmd/...` leaves it.
func snapshotTool(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds pilotage-lint-snapshot")
	}
	dir := t.TempDir()
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, snapshotCommand), "../pilotage-lint-snapshot").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	t.Setenv("PATH", dir)
}

// TestSnapshotHandOff runs `pilotage-lint snapshot` through the separate
// pilotage-lint-snapshot binary: a real snapshot, its exit status for a
// usage error, and the message when the binary is missing.
func TestSnapshotHandOff(t *testing.T) {
	bin := pilotserver(t)
	snapshotTool(t)
	out := filepath.Join(t.TempDir(), "snap.json")
	code, _, stderr := runCLI("snapshot", "--out", out, "--", bin)
	if code != exitOK {
		t.Fatalf("snapshot exit %d: %s", code, stderr)
	}
	if code, report, _ := runCLI("--no-config", "--format", "json", out); code != exitOK || findingLines(t, report) != "" {
		t.Errorf("lint exit %d:\n%s", code, report)
	}
	if code, _, stderr := runCLI("snapshot", "--bogus"); code != exitUsage || !strings.Contains(stderr, "unknown flag: --bogus") {
		t.Errorf("snapshot --bogus: exit %d, stderr %q", code, stderr)
	}

	t.Setenv("PATH", t.TempDir())
	code, _, stderr = runCLI("snapshot", "--", bin)
	if code != exitUsage || !strings.Contains(stderr, "pilotage-lint-snapshot is not installed") || !strings.Contains(stderr, "go install github.com/pilotagekit/pilotagekit/cmd/pilotage-lint-snapshot@") {
		t.Errorf("without pilotage-lint-snapshot: exit %d, stderr %q", code, stderr)
	}
}

// TestLintLinksNoMCPClient keeps the MCP client out of the pilotage-lint
// binary, which a pre-commit hook and a CI gate start on every run.
func TestLintLinksNoMCPClient(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		switch {
		case strings.HasSuffix(dep, "/lint/snapshotter"),
			strings.HasPrefix(dep, "github.com/modelcontextprotocol/go-sdk"),
			strings.HasPrefix(dep, "golang.org/x/oauth2"),
			dep == "net/http", dep == "crypto/tls":
			t.Errorf("pilotage-lint links %s; keep it in pilotage-lint-snapshot", dep)
		}
	}
}

// TestSnapshotDiff diffs the committed snapshots of the compliant and the
// faulty server, the CI use: the only breaking change between them is the
// lowered trace ceiling. OLD comes from standard input, as from
// `git show HEAD:server.snapshot.json | pilotage-lint diff - server.snapshot.json`.
func TestSnapshotDiff(t *testing.T) {
	old, err := os.ReadFile(filepath.Join(serverTestdata, "compliant.snapshot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	code := run([]string{"diff", "--format", "json", "-", filepath.Join(serverTestdata, "faulty.snapshot.json")}, bytes.NewReader(old), &out, &errOut)
	if code != exitFindings {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if got, want := findingLines(t, out.String()), "176:20 error diff-trace-weakened \"/manifest/structuredContent/languages/0/trace\"\n"; got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}
