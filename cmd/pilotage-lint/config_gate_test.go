package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigAboveRepositoryRoot: a .pilotage-lint.yaml in a folder above
// the repository, here one that ignores every rule, is not used: the 8
// errors of the bad example still fail the run. Before, the search went up
// to / and the run exited 0.
func TestConfigAboveRepositoryRoot(t *testing.T) {
	above := t.TempDir()
	write(t, filepath.Join(above, ".pilotage-lint.yaml"), []byte("ignore:\n  - rule: \"*\"\n"))
	repo := filepath.Join(above, "checkout")
	must(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	data, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	write(t, filepath.Join(repo, "snaps", "pilotage-server.json"), data)
	code, out, errOut := cli(t, filepath.Join(repo, "snaps"), "", "pilotage-server.json")
	if code != exitFindings || !strings.HasSuffix(out, "8 errors, 0 warnings, 2 infos in 1 file\n") || errOut != "" {
		t.Errorf("exit %d, stderr %q, output:\n%s", code, errOut, out)
	}
	code, out, _ = cli(t, "", "", "--print-config")
	if code != exitOK || !strings.Contains(out, "# From: no config file (defaults)") {
		t.Errorf("--print-config: exit %d:\n%s", code, out)
	}
	// The repository's own config is used.
	write(t, filepath.Join(repo, ".pilotage-lint.yaml"), []byte("disable: [meta-key]\n"))
	if code, out, _ := cli(t, "", "", "pilotage-server.json"); code != exitFindings || !strings.HasSuffix(out, "7 errors, 0 warnings, 2 infos in 1 file\n") {
		t.Errorf("the repository's config: exit %d:\n%s", code, out)
	}
}

// TestEmptyIgnoreEntryCLI: an empty ignore entry is a config error, exit
// 2, naming the entry; before, {} suppressed all 8 errors.
func TestEmptyIgnoreEntryCLI(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	write(t, filepath.Join(dir, ".pilotage-lint.yaml"), []byte("ignore:\n  - {}\n"))
	write(t, filepath.Join(dir, ".pilotage-lint.json"), []byte(`{"ignore": [null]}`))
	bad := repoPath(t, "fixtures/examples/bad-server.snapshot.json")
	for _, cfg := range []string{".pilotage-lint.yaml", ".pilotage-lint.json"} {
		code, out, errOut := cli(t, dir, "", "--config", cfg, bad)
		if want := "pilotage-lint: " + cfg + ": ignore entry 1 is empty, which would suppress every finding; give it a rule, a path or a pointer (rule: \"*\" with a path ignores every rule in those files)\n"; code != exitUsage || errOut != want || out != "" {
			t.Errorf("%s: exit %d, stderr %q, want %q", cfg, code, errOut, want)
		}
	}
}

// manifestKinds writes the bad example's manifest in every input kind that
// can carry it, and returns the files to lint (with the flags each needs).
func manifestKinds(t *testing.T, dir string) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	var snap map[string]json.RawMessage
	must(t, json.Unmarshal(data, &snap))
	result, err := json.Marshal(map[string]any{"content": []any{}, "structuredContent": snap["manifest"]})
	must(t, err)
	wrapped := map[string]json.RawMessage{}
	for k, v := range snap {
		wrapped[k] = v
	}
	wrapped["manifest"] = result
	asResult, err := json.MarshalIndent(wrapped, "", "  ")
	must(t, err)
	capture, err := json.Marshal([]any{
		map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": map[string]any{"name": "pilotage_manifest", "arguments": map[string]any{}}},
		map[string]any{"jsonrpc": "2.0", "id": 1, "result": json.RawMessage(result)},
	})
	must(t, err)
	files := map[string][]byte{
		"snapshot.json":    data,
		"wrapped.json":     asResult,
		"manifest.json":    snap["manifest"],
		"call-result.json": result,
		"capture.json":     capture,
		"tools.json":       snap["tools"],
	}
	for name, b := range files {
		write(t, filepath.Join(dir, name), b)
	}
	return map[string][]string{
		"snapshot":                   {"snapshot.json"},
		"snapshot holding a result":  {"wrapped.json"},
		"manifest":                   {"manifest.json"},
		"call-result":                {"call-result.json"},
		"capture":                    {"capture.json"},
		"tools with --manifest":      {"--manifest", "manifest.json", "tools.json"},
		"tools with --manifest call": {"--manifest", "call-result.json", "tools.json"},
	}
}

// TestManifestPointerEveryKind: one ignore pointer into the manifest,
// /manifest/languages/..., plain or in identity form, suppresses the
// manifest's finding in every input kind: a snapshot (bare manifest or
// pilotage_manifest result), a bare manifest, a call result, a capture,
// and a --manifest file. Before, it matched only a snapshot holding a bare
// manifest, and nothing said so.
func TestManifestPointerEveryKind(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	kinds := manifestKinds(t, dir)
	t.Chdir(dir)
	for _, pointer := range []string{"/manifest/languages/0/retention", "/manifest/languages/[name=buildingflow~11]", "/manifest/languages"} {
		write(t, ".pilotage-lint.yaml", []byte("ignore:\n  - rule: manifest-retention-format\n    pointer: "+pointer+"\n"))
		for kind, args := range kinds {
			code, out, errOut := cli(t, "", "", append([]string{"--enable", "manifest-retention-format"}, args...)...)
			if code != exitOK || strings.Contains(out, "manifest-retention-format") || errOut != "" {
				t.Errorf("%s, %s: exit %d, stderr %q, output:\n%s", pointer, kind, code, errOut, out)
			}
		}
	}
	// Without the entry each kind draws the finding, so the entry is what
	// suppressed it.
	must(t, os.Remove(".pilotage-lint.yaml"))
	for kind, args := range kinds {
		if code, out, _ := cli(t, "", "", append([]string{"--enable", "manifest-retention-format"}, args...)...); code != exitFindings || !strings.Contains(out, "error manifest-retention-format") {
			t.Errorf("%s without the entry: exit %d:\n%s", kind, code, out)
		}
	}
}

// TestUnmatchedEntriesWarn: an ignore entry that suppresses nothing in the
// files it covers, or whose path matches no file at all, is named in a
// warning on standard error, in lint and diff alike; an entry for a rule
// the command does not run, or for existing files the run did not lint
// (a pre-commit hook's subset), is not. A baseline entry that no longer
// occurs is named too. Warnings do not change the exit status.
func TestUnmatchedEntriesWarn(t *testing.T) {
	dir := t.TempDir()
	must(t, os.Mkdir(filepath.Join(dir, ".git"), 0o755))
	data, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	write(t, filepath.Join(dir, "snaps", "pilotage-server.json"), data)
	write(t, filepath.Join(dir, "legacy", "old.json"), data)
	write(t, filepath.Join(dir, ".pilotage-lint.yaml"), []byte(`ignore:
  - rule: manifest-retention-format
    pointer: /manifest/languages/[name=buildingflow~11]/retention
  - rule: manifest-retention-format
    pointer: /manifest/structuredContent/languages/0/retention
  - rule: meta-key
    path: snapshots/*.json
  - rule: diff-tool-removed
    pointer: /tools/tools/[name=legacy_export]
  - rule: "*"
    path: legacy/**
`))
	t.Chdir(dir)
	code, out, errOut := cli(t, "", "", "snaps")
	want := "pilotage-lint: warning: .pilotage-lint.yaml: ignore entry 2 (rule manifest-retention-format, pointer /manifest/structuredContent/languages/0/retention) matched no finding in the 1 linted file it covers; check its pointer against the finding's (--format json shows it; a manifest's values are under /manifest in every input kind), or remove it\n" +
		"pilotage-lint: warning: .pilotage-lint.yaml: ignore entry 3 (rule meta-key, path snapshots/*.json) its path \"snapshots/*.json\" matches no file under .; fix or remove it\n"
	if code != exitFindings || errOut != want || !strings.Contains(out, "7 errors") {
		t.Errorf("lint: exit %d, stderr:\n%s\nwant:\n%s\noutput:\n%s", code, errOut, want, out)
	}
	// The same config read by diff: the lint entries are no diff's.
	if code, _, errOut := cli(t, "", "", "diff", "snaps/pilotage-server.json", "snaps/pilotage-server.json"); code != exitOK || !strings.Contains(errOut, "ignore entry 4 (rule diff-tool-removed, pointer /tools/tools/[name=legacy_export]) matched no finding in the 1 linted file it covers") || strings.Contains(errOut, "entry 1 ") {
		t.Errorf("diff: exit %d, stderr:\n%s", code, errOut)
	}
	// A baseline entry that no longer occurs is named.
	write(t, "pilotage-baseline.json", []byte(`{"version": 2, "findings": [{"rule": "json-syntax", "file": "snaps/pilotage-server.json", "pointer": "/tools", "message": "fixed since"}]}`))
	_, _, errOut = cli(t, "", "", "--no-config", "--baseline", "pilotage-baseline.json", "snaps")
	if want := "pilotage-lint: 1 finding in baseline pilotage-baseline.json no longer occur; run with --write-baseline pilotage-baseline.json to drop them:\n  json-syntax snaps/pilotage-server.json /tools\n"; errOut != want {
		t.Errorf("baseline: stderr %q, want %q", errOut, want)
	}
}
