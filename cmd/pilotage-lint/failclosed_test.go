package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTruncatedInputsFailClosed: a truncated snapshot whose break comes
// before any Pilotage word is a json-syntax error, exit 1, whether it was
// named, forced with --input-kind, or met by the walk; a JSON-with-comments
// config met by the walk is still skipped quietly.
func TestTruncatedInputsFailClosed(t *testing.T) {
	dir := t.TempDir()
	truncated := "{\n  \"tools\": {\n    \"tools\": [\n      {\"name\": \"list_berths\", \"inputSchema\": {\"type\": \"obj"
	write(t, filepath.Join(dir, "snaps", "server.json"), []byte(truncated))
	write(t, filepath.Join(dir, "snaps", "tsconfig.json"), []byte("{\n  // strict\n  \"compilerOptions\": {}\n}\n"))
	t.Chdir(dir)
	want := "snaps/server.json:4:55: error json-syntax: "
	for _, args := range [][]string{
		{"snaps/server.json"},
		{"--input-kind", "tools-list", "snaps/server.json"},
		{"snaps"},
		{"--skip-unrecognized", "snaps/server.json"},
	} {
		code, out, errOut := cli(t, "", "", append([]string{"--no-config"}, args...)...)
		if code != exitFindings || !strings.Contains(out, want) || strings.Contains(out, "tsconfig") {
			t.Errorf("%v: exit %d, stderr %q, output:\n%s", args, code, errOut, out)
		}
	}
	// Without the truncated file, the walk passes: the config is skipped.
	must(t, os.Remove("snaps/server.json"))
	if code, out, errOut := cli(t, "", "", "--no-config", "snaps"); code != exitOK || strings.Contains(out, "tsconfig") {
		t.Errorf("config only: exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
}

// TestEmptyTargetSet: paths that hold no .json or .jsonl file, or whose
// every file is excluded, are exit 2 with a message; --allow-empty makes
// them exit 0.
func TestEmptyTargetSet(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "snaps", "README.md"), []byte("# snapshots\n"))
	write(t, filepath.Join(dir, "other", "a.json"), []byte(`{"tools": []}`))
	t.Chdir(dir)
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"snaps"}, exitUsage, "pilotage-lint: no inputs were targeted: path snaps holds no .json or .jsonl file; check the paths, or pass --allow-empty\n"},
		{[]string{"--exclude", "a.json", "other", "snaps"}, exitUsage, "pilotage-lint: no inputs were targeted: paths other snaps hold no .json or .jsonl file after --exclude; check the paths, or pass --allow-empty\n"},
		{[]string{"--allow-empty", "snaps"}, exitOK, ""},
		{[]string{"other"}, exitOK, ""},
	} {
		code, _, errOut := cli(t, "", "", append([]string{"--no-config"}, tc.args...)...)
		if code != tc.code || errOut != tc.msg {
			t.Errorf("%v: exit %d, want %d; stderr %q, want %q", tc.args, code, tc.code, errOut, tc.msg)
		}
	}
}

// TestConfigValueIsTheFiles: a bad value read from the config file is
// reported as the file's, and the same value given as a flag as the flag's.
func TestConfigValueIsTheFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".pilotage-lint.yaml"), []byte("fail-on: fatal\n"))
	write(t, filepath.Join(dir, "a.json"), []byte(`{"tools": []}`))
	code, _, errOut := cli(t, dir, "", "a.json")
	if code != exitUsage || !strings.Contains(errOut, ".pilotage-lint.yaml: fail-on: unknown severity \"fatal\"") || strings.Contains(errOut, "--fail-on") {
		t.Errorf("from the file: exit %d, stderr %q", code, errOut)
	}
	must(t, os.Remove(filepath.Join(dir, ".pilotage-lint.yaml")))
	code, _, errOut = cli(t, dir, "", "--fail-on", "fatal", "a.json")
	if code != exitUsage || !strings.Contains(errOut, "--fail-on: unknown severity \"fatal\"") {
		t.Errorf("from the flag: exit %d, stderr %q", code, errOut)
	}
}

// TestEmptyWalkedFiles: an empty, whitespace-only or byte-order-mark-only
// .json met by a walk or passed by the pre-commit hook is json-empty, exit
// 1, as it is when named; a failed snapshot > file leaves exactly this, and
// before it passed as "0 errors". An empty config-named file is still
// skipped.
func TestEmptyWalkedFiles(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "snaps/pilotage-server.json:1:1: error json-empty: the file holds no JSON value, which is what a failed capture such as snapshot > FILE leaves; record it again (pilotage-lint snapshot --out FILE writes nothing when it fails) (RFC 8259 §2, §10)\n"},
		{"whitespace", " \n\t\r\n", "snaps/pilotage-server.json:3:1: error json-empty: "},
		{"BOM only", "\uFEFF", "snaps/pilotage-server.json:1:2: error json-empty: "},
		{"BOM and blank", "\uFEFF\n  \n", "snaps/pilotage-server.json:3:1: error json-empty: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "snaps", "pilotage-server.json"), []byte(tc.text))
			write(t, filepath.Join(dir, "snaps", "tsconfig.json"), nil)
			t.Chdir(dir)
			for _, args := range [][]string{
				{"snaps"},
				{"--skip-unrecognized", "snaps/pilotage-server.json", "snaps/tsconfig.json"},
				{"snaps/pilotage-server.json"},
			} {
				code, out, errOut := cli(t, "", "", append([]string{"--no-config"}, args...)...)
				if code != exitFindings || !strings.Contains(out, tc.want) || strings.Contains(out, "tsconfig") || errOut != "" {
					t.Errorf("%v: exit %d, stderr %q, output:\n%s", args, code, errOut, out)
				}
			}
		})
	}
}

// TestTruncatedManifest: a --manifest that is empty, cut short or not
// UTF-8 fails the run with its own finding; before, the tools it was meant
// for were linted without it and passed, while the whole manifest passed
// as well.
func TestTruncatedManifest(t *testing.T) {
	var snap struct{ Tools, Manifest json.RawMessage }
	data, err := os.ReadFile(repoPath(t, "fixtures/examples/good-server.snapshot.json"))
	must(t, err)
	must(t, json.Unmarshal(data, &snap))
	dir := t.TempDir()
	t.Chdir(dir)
	write(t, "tools.json", snap.Tools)
	for _, tc := range []struct {
		name, text string
		code       int
		want       string
	}{
		{"whole", string(snap.Manifest), exitOK, "0 errors, 0 warnings, 0 infos in 2 files\n"},
		{"cut short", string(snap.Manifest[:len(snap.Manifest)/2]), exitFindings, "manifest.json:"},
		{"empty", "", exitFindings, "manifest.json:1:1: error json-empty: "},
		{"UTF-16", "\xFF\xFE{\x00}\x00", exitFindings, "manifest.json:1:1: error json-invalid-utf8: the file is UTF-16LE text with a byte-order mark"},
	} {
		write(t, "manifest.json", []byte(tc.text))
		code, out, errOut := cli(t, "", "", "--no-config", "--manifest", "manifest.json", "tools.json")
		if code != tc.code || !strings.Contains(out, tc.want) || errOut != "" {
			t.Errorf("%s: exit %d (want %d), stderr %q, output:\n%s", tc.name, code, tc.code, errOut, out)
		}
		if tc.code == exitFindings && !strings.Contains(out, "1 error, 0 warnings, 0 infos in 2 files\n") {
			t.Errorf("%s: want exactly the manifest's finding:\n%s", tc.name, out)
		}
	}
}
