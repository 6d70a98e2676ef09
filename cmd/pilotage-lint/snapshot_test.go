package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var updateSnapshots = flag.Bool("update", false, "rewrite lint/snapshotter/testdata goldens from the current output")

const serverTestdata = "../../lint/snapshotter/testdata"

var (
	buildOnce sync.Once
	serverBin string
	buildErr  error
)

// pilotserver builds the testdata server once per test binary.
func pilotserver(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pilotserver")
		if err != nil {
			buildErr = err
			return
		}
		serverBin = filepath.Join(dir, "pilotserver")
		out, err := exec.Command("go", "build", "-o", serverBin, "./"+serverTestdata+"/pilotserver").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return serverBin
}

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

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join(serverTestdata, name)
	if *updateSnapshots {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/pilotage-lint -run Snapshot -update and review it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// TestSnapshotEndToEnd snapshots the compliant and the faulty testdata
// servers over stdio, on the revision the SDK negotiates (server/discover)
// and on a handshake revision, then lints the snapshots: the compliant one
// must lint clean, the faulty one must draw exactly its known findings.
func TestSnapshotEndToEnd(t *testing.T) {
	bin := pilotserver(t)
	calls := filepath.Join(serverTestdata, "calls.json")
	for _, tc := range []struct {
		mode, proto, golden string
		wantLint            int
		extra               []string
	}{
		{"compliant", "", "compliant.snapshot.json", exitOK, nil},
		// One tool per tools/list page: the snapshot must hold them all,
		// byte for byte as with one page.
		{"compliant", "", "compliant.snapshot.json", exitOK, []string{"-pagesize", "1"}},
		{"compliant", "2025-11-25", "compliant-initialize.snapshot.json", exitOK, nil},
		{"faulty", "", "faulty.snapshot.json", exitFindings, nil},
	} {
		t.Run(strings.Join(append([]string{tc.golden}, tc.extra...), " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap.json")
			args := []string{"snapshot", "--out", out, "--calls", calls}
			if tc.proto != "" {
				args = append(args, "--protocol-version", tc.proto)
			}
			args = append(append(args, "--", bin, "-mode", tc.mode), tc.extra...)
			code, _, stderr := runCLI(args...)
			if code != exitOK {
				t.Fatalf("snapshot exit %d: %s", code, stderr)
			}
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			// The committed snapshot is the byte-exact expectation: member
			// order and layout must not change between runs.
			checkGolden(t, tc.golden, string(data))

			code, report, stderr := runCLI("--no-config", "--format", "json", out)
			if code != tc.wantLint {
				t.Errorf("lint exit %d, want %d: %s\n%s", code, tc.wantLint, stderr, report)
			}
			got := findingLines(t, report)
			if tc.mode == "compliant" && got != "" {
				t.Errorf("the compliant server's snapshot draws findings:\n%s", got)
			}
			if tc.mode == "faulty" {
				checkGolden(t, "faulty.findings.golden", got)
			}
		})
	}
}

// TestSnapshotHTTP snapshots the compliant server over Streamable HTTP.
func TestSnapshotHTTP(t *testing.T) {
	bin := pilotserver(t)
	cmd := exec.Command(bin, "-http", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
	out := filepath.Join(t.TempDir(), "snap.json")
	code, _, stderr := runCLI("snapshot", "--out", out, "--url", url)
	if code != exitOK {
		t.Fatalf("snapshot exit %d: %s", code, stderr)
	}
	code, report, _ := runCLI("--no-config", "--format", "json", out)
	if got := findingLines(t, report); code != exitOK || got != "" {
		t.Errorf("lint exit %d, findings:\n%s", code, got)
	}
}

// TestSnapshotFailures checks that servers that cannot be snapshotted give
// exit 2, a message naming the problem, no output file, and no leftover
// process.
func TestSnapshotFailures(t *testing.T) {
	bin := pilotserver(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no manifest tool", []string{"--", bin, "-mode", "nomanifest"}, "JSON-RPC error -32602"},
		{"crash", []string{"--", bin, "-mode", "crash"}, "handshake failed"},
		{"silent", []string{"--timeout", "500ms", "--", bin, "-mode", "silent"}, "timed out after 500ms during handshake"},
		{"not a command", []string{"--", filepath.Join(t.TempDir(), "missing")}, "handshake failed"},
		{"remote url", []string{"--url", "http://example.com/mcp"}, "not on this machine"},
		{"both", []string{"--url", "http://127.0.0.1:1/mcp", "--", bin}, "not both"},
		{"neither", nil, "not both"},
		{"calls not an array", []string{"--calls", "../../go.mod", "--", bin}, "want a JSON array"},
		{"call arguments not an object", []string{"--calls", writeTemp(t, `[{"name": "x", "arguments": [1]}]`), "--", bin}, "not a JSON object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap.json")
			start := time.Now()
			code, stdout, stderr := runCLI(append([]string{"snapshot", "--out", out}, tc.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", stderr, tc.want)
			}
			if stdout != "" {
				t.Errorf("stdout is not empty: %q", stdout)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("a failed snapshot wrote %s", out)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("took %s", d)
			}
		})
	}
	// Every server started above must be gone: a leftover would still hold
	// the binary open.
	time.Sleep(100 * time.Millisecond)
	if out, _ := exec.Command("pgrep", "-f", bin).Output(); len(out) > 0 {
		t.Errorf("server processes left running: %s", out)
	}
}

// TestSnapshotStable runs the same snapshot twice: the bytes must match so
// a committed snapshot only changes when the server does.
func TestSnapshotStable(t *testing.T) {
	bin := pilotserver(t)
	var outs []string
	for range 2 {
		code, stdout, stderr := runCLI("snapshot", "--calls", filepath.Join(serverTestdata, "calls.json"), "--", bin)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		outs = append(outs, stdout)
	}
	if outs[0] != outs[1] {
		t.Error("two snapshots of the same server differ")
	}
	if !strings.HasSuffix(outs[0], "}\n") || !strings.HasPrefix(outs[0], "{\n  \"discover\": {\n    ") {
		t.Errorf("unexpected layout:\n%.200s", outs[0])
	}
}

func writeTemp(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "calls.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
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
	if got, want := findingLines(t, out.String()), "174:20 error diff-trace-weakened \"/manifest/structuredContent/languages/0/trace\"\n"; got != want {
		t.Errorf("got\n%swant\n%s", got, want)
	}
}
