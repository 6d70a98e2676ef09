package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

var updateSnapshots = flag.Bool("update", false, "rewrite lint/snapshotter/testdata goldens from the current output")

const serverTestdata = "../../lint/snapshotter/testdata"

// pilotserver builds the testdata server once per test binary.
func pilotserver(t *testing.T) string { return pilotservertest.Build(t) }

// noEnv is an empty environment, so tests do not depend on the caller's.
func noEnv(string) (string, bool) { return "", false }

func runCLI(args ...string) (code int, stdout, stderr string) {
	return runEnv(noEnv, args...)
}

func runEnv(env func(string) (string, bool), args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(args, &o, &e, env)
	return code, o.String(), e.String()
}

// lintFile lints a snapshot with every rule at its default severity, as
// `pilotage-lint --no-config` does, and renders the findings as "line:col
// severity rule pointer" lines, the shape the goldens hold.
func lintFile(t *testing.T, path string) (lines string, errors int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rs, err := lint.Select(rules.All(), lint.Selection{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run(context.Background(), []lint.Input{{Name: path, Data: data, Explicit: true}}, &lint.Options{Rules: rs})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range res.Findings {
		fmt.Fprintf(&b, "%d:%d %s %s %q\n", f.Line, f.Column, f.Severity, f.Rule, f.Pointer)
		if f.Severity == lint.Error {
			errors++
		}
	}
	return b.String(), errors
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
		t.Fatalf("%v (run go test ./cmd/pilotage-lint-snapshot -run Snapshot -update and review it)", err)
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
		extra               []string
	}{
		{"compliant", "", "compliant.snapshot.json", nil},
		// One tool per tools/list page: the snapshot must hold them all,
		// byte for byte as with one page.
		{"compliant", "", "compliant.snapshot.json", []string{"-pagesize", "1"}},
		{"compliant", "2025-11-25", "compliant-initialize.snapshot.json", nil},
		{"faulty", "", "faulty.snapshot.json", nil},
	} {
		t.Run(strings.Join(append([]string{tc.golden}, tc.extra...), " "), func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap.json")
			args := []string{"--out", out, "--calls", calls}
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

			got, errs := lintFile(t, out)
			if tc.mode == "compliant" && got != "" {
				t.Errorf("the compliant server's snapshot draws findings:\n%s", got)
			}
			if tc.mode == "faulty" {
				if errs == 0 {
					t.Error("the faulty server's snapshot draws no error")
				}
				checkGolden(t, "faulty.findings.golden", got)
			}
		})
	}
}

// TestSnapshotHTTP snapshots the compliant server over Streamable HTTP.
func TestSnapshotHTTP(t *testing.T) {
	url := pilotservertest.StartHTTP(t)
	out := filepath.Join(t.TempDir(), "snap.json")
	code, _, stderr := runCLI("--out", out, "--url", url)
	if code != exitOK {
		t.Fatalf("snapshot exit %d: %s", code, stderr)
	}
	if got, _ := lintFile(t, out); got != "" {
		t.Errorf("findings:\n%s", got)
	}
}

// TestSnapshotNonPilotage snapshots a server that does not list
// pilotage_manifest, as most MCP servers: the snapshot is written, exit 0,
// and pilotage_manifest is never called.
func TestSnapshotNonPilotage(t *testing.T) {
	bin := pilotserver(t)
	out := filepath.Join(t.TempDir(), "snap.json")
	code, _, stderr := runCLI("--out", out, "--", bin, "-mode", "nomanifest")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["manifest"] != nil || doc["calls"] != nil {
		t.Errorf("the snapshot of a server without pilotage_manifest records a manifest call:\n%s", data)
	}
	if doc["tools"] == nil {
		t.Errorf("the snapshot lacks the tools:\n%s", data)
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
		{"crash", []string{"--", bin, "-mode", "crash"}, "handshake failed"},
		{"silent", []string{"--timeout", "500ms", "--", bin, "-mode", "silent"}, "timed out after 500ms during the handshake (initialize, tried after server/discover drew no answer within 166ms)"},
		{"silent, still starting", []string{"--timeout", "500ms", "--", bin, "-mode", "silent"}, "the server has not sent anything yet: if it is still starting (a cold npx -y or uvx downloads its package first), raise --timeout"},
		{"not a command", []string{"--", filepath.Join(t.TempDir(), "missing")}, "handshake failed"},
		{"not http", []string{"--url", "ftp://example.com/mcp"}, "not an http or https URL"},
		{"both", []string{"--url", "http://127.0.0.1:1/mcp", "--", bin}, "not both"},
		{"neither", nil, "not both"},
		{"header without url", []string{"--header", "A: b", "--", bin}, "--header goes with --url"},
		{"calls not an array", []string{"--calls", "../../go.mod", "--", bin}, "want a JSON array"},
		{"call arguments not an object", []string{"--calls", writeTemp(t, `[{"name": "x", "arguments": [1]}]`), "--", bin}, "not a JSON object"},
		{"unknown flag", []string{"--bogus"}, "unknown flag: --bogus"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "snap.json")
			start := time.Now()
			code, stdout, stderr := runCLI(append([]string{"--out", out}, tc.args...)...)
			if code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.Contains(stderr, tc.want) {
				t.Errorf("stderr %q lacks %q", stderr, tc.want)
			}
			if (tc.name == "neither" || tc.name == "unknown flag") && !strings.Contains(stderr, "usage: pilotage-lint snapshot") {
				t.Errorf("a usage error without the usage line:\n%s", stderr)
			}
			if strings.Contains(stderr, "goroutine ") {
				t.Errorf("stderr holds a stack trace:\n%s", stderr)
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

// TestSnapshotOutFolders writes --out into folders that do not exist yet,
// and names the user's path, never a temporary file, when it cannot write.
func TestSnapshotOutFolders(t *testing.T) {
	bin := pilotserver(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "a", "b", "c.json")
	if code, _, stderr := runCLI("--out", out, "--", bin); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if _, err := os.Stat(out); err != nil {
		t.Fatal(err)
	}
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(blocker, "x", "snap.json")
	code, _, stderr := runCLI("--out", bad, "--", bin)
	if code != exitUsage || !strings.Contains(stderr, "cannot write "+bad+": ") || strings.Contains(stderr, ".snap.json.") {
		t.Errorf("exit %d, stderr %q; want exit 2 and a message naming %s", code, stderr, bad)
	}
}

// TestSnapshotStable runs the same snapshot twice: the bytes must match so
// a committed snapshot only changes when the server does.
func TestSnapshotStable(t *testing.T) {
	bin := pilotserver(t)
	var outs []string
	for range 2 {
		code, stdout, stderr := runCLI("--calls", filepath.Join(serverTestdata, "calls.json"), "--", bin)
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
