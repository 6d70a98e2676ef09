package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cli runs the command in-process with the given working directory and
// standard input.
func cli(t *testing.T, dir, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if dir != "" {
		t.Chdir(dir)
	}
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func repoPath(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLintExitCodes(t *testing.T) {
	good := repoPath(t, "fixtures/examples/good-server.snapshot.json")
	bad := repoPath(t, "fixtures/examples/bad-server.snapshot.json")
	tmp := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
		want int
	}{
		{"clean input", []string{"--no-config", good}, 0},
		{"findings", []string{"--no-config", bad}, 1},
		{"malformed JSON is a finding", []string{"--no-config", "-"}, 1},
		{"no paths", []string{"--no-config"}, 2},
		{"unknown flag", []string{"--no-config", "--frobnicate", good}, 2},
		{"unknown rule", []string{"--no-config", "--disable", "no-such-rule", good}, 2},
		{"bad severity", []string{"--no-config", "--severity", "json-bom=fatal", good}, 2},
		{"bad fail-on", []string{"--no-config", "--fail-on", "never", good}, 2},
		{"bad input kind", []string{"--no-config", "--input-kind", "yaml", good}, 2},
		{"missing path, other still linted", []string{"--no-config", filepath.Join(tmp, "missing.json"), good}, 2},
		{"version", []string{"--version"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := cli(t, tmp, `{"tools": [{"name": "pilotage_manifest"`, tc.args...)
			if code != tc.want {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tc.want, stderr)
			}
			if tc.want == 2 && tc.name != "version" && stderr == "" {
				t.Fatal("exit 2 without a message on stderr")
			}
		})
	}
}

func TestLintFailOnAndSelection(t *testing.T) {
	tmp := t.TempDir()
	in := filepath.Join(tmp, "m.json")
	// A 1.0 manifest draws only infos (1.1 is additive, so 1.0 is advice).
	must(t, os.WriteFile(in, []byte(`{"pilotage": "1.0", "languages": [{"name": "flow/1", "title": "Flows", "guides": "pilotage_get_guide", "loop": {"validate": "validate_flow"}, "capabilities": {"guides": true, "validate": true}, "locator": "json-pointer"}]}`), 0o644))
	code, out, _ := cli(t, tmp, "", "--no-config", in)
	if code != 0 || !strings.Contains(out, "info manifest-version-outdated") {
		t.Fatalf("default fail-on error: exit %d\n%s", code, out)
	}
	if code, _, _ := cli(t, tmp, "", "--no-config", "--fail-on", "info", in); code != 1 {
		t.Fatalf("--fail-on info: exit %d, want 1", code)
	}
	if code, out, _ := cli(t, tmp, "", "--no-config", "--fail-on", "info", "--disable", "manifest-version-outdated", "--disable", "cross-checks-skipped", in); code != 0 || strings.Contains(out, "manifest-version-outdated") {
		t.Fatalf("--disable: exit %d\n%s", code, out)
	}
	if code, out, _ := cli(t, tmp, "", "--no-config", "--severity", "manifest-version-outdated=error", in); code != 1 || !strings.Contains(out, "error manifest-version-outdated") {
		t.Fatalf("--severity: exit %d\n%s", code, out)
	}
	if _, out, _ := cli(t, tmp, "", "--no-config", "--enable", "manifest-version-outdated", "-q", in); strings.Count(out, "\n") != 1 {
		t.Fatalf("--enable ran other rules or --quiet printed a summary:\n%s", out)
	}
}

func TestLintConfigFileFoundUpward(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "a", "b")
	must(t, os.MkdirAll(sub, 0o755))
	// The search goes up to the repository's root.
	must(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	bad := repoPath(t, "fixtures/examples/bad-server.snapshot.json")
	data, err := os.ReadFile(bad)
	must(t, err)
	must(t, os.WriteFile(filepath.Join(sub, "server.json"), data, 0o644))
	_, before, _ := cli(t, sub, "", "--format", "json", "server.json")
	var doc struct {
		Findings []struct{ Rule, Pointer string }
	}
	must(t, json.Unmarshal([]byte(before), &doc))
	if len(doc.Findings) < 2 {
		t.Fatalf("the bad example should draw several findings:\n%s", before)
	}
	first := doc.Findings[0]
	// The path is relative to the config file's folder, not the working
	// directory.
	cfg := "# ignore one finding by rule, path and pointer; demote another rule\n" +
		"ignore:\n  - rule: " + first.Rule + "\n    path: \"a/**/*.json\"\n    pointer: " + first.Pointer + "\n" +
		"disable: [" + doc.Findings[1].Rule + "]\n"
	must(t, os.WriteFile(filepath.Join(root, ".pilotage-lint.yaml"), []byte(cfg), 0o644))
	_, after, stderr := cli(t, sub, "", "--format", "json", "server.json")
	if strings.Contains(after, `"pointer": "`+first.Pointer+`"`) && strings.Contains(after, `"rule": "`+first.Rule+`"`) {
		t.Fatalf("ignored finding still reported (stderr %s):\n%s", stderr, after)
	}
	if strings.Contains(after, `"rule": "`+doc.Findings[1].Rule+`"`) {
		t.Fatalf("disabled rule still reported:\n%s", after)
	}
	must(t, os.WriteFile(filepath.Join(root, ".pilotage-lint.yaml"), []byte("disabel: [x]\n"), 0o644))
	if code, _, stderr := cli(t, sub, "", "server.json"); code != 2 || !strings.Contains(stderr, "disabel") {
		t.Fatalf("a misspelt config key must be a usage error naming it: exit %d, %s", code, stderr)
	}
}

func TestLintStdinAndManifestFlag(t *testing.T) {
	tmp := t.TempDir()
	snap := repoPath(t, "fixtures/examples/good-server.snapshot.json")
	var s map[string]json.RawMessage
	data, err := os.ReadFile(snap)
	must(t, err)
	must(t, json.Unmarshal(data, &s))
	must(t, os.WriteFile(filepath.Join(tmp, "manifest.json"), s["manifest"], 0o644))
	must(t, os.WriteFile(filepath.Join(tmp, "tools.json"), s["tools"], 0o644))
	// tools alone: the manifest cross-checks are skipped and said so.
	// It is a summary line, not a finding, so --fail-on info passes.
	code, out, _ := cli(t, tmp, "", "--no-config", "--fail-on", "info", "tools.json")
	if !strings.Contains(out, "tools.json: cross-checks not run") || code != 0 {
		t.Fatalf("tools alone should say which cross-checks it skipped, and pass --fail-on info (exit %d):\n%s", code, out)
	}
	code, out, stderr := cli(t, tmp, "", "--no-config", "--manifest", "manifest.json", "tools.json")
	if strings.Contains(out, "loop tools named in the manifest") {
		t.Fatalf("--manifest did not supply the manifest (exit %d, %s):\n%s", code, stderr, out)
	}
	code, out, _ = cli(t, tmp, string(s["manifest"]), "--no-config", "--stdin-filename", "piped.json", "--format", "json", "-")
	if code != 0 || !strings.Contains(out, `"path": "piped.json"`) || !strings.Contains(out, `"kind": "manifest"`) {
		t.Fatalf("stdin: exit %d\n%s", code, out)
	}
}

func TestLintInputKindForced(t *testing.T) {
	tmp := t.TempDir()
	must(t, os.WriteFile(filepath.Join(tmp, "x.json"), []byte(`{"pilotage": "1.1", "languages": []}`), 0o644))
	code, out, _ := cli(t, tmp, "", "--no-config", "--input-kind", "tools-list", "x.json")
	if code != 1 || !strings.Contains(out, "input-kind") {
		t.Fatalf("a forced kind that does not fit must be an input-kind finding: exit %d\n%s", code, out)
	}
}

func TestRulesSubcommand(t *testing.T) {
	code, out, _ := cli(t, "", "", "rules")
	if code != 0 || !strings.Contains(out, "json-syntax") || !strings.Contains(out, "Part III") {
		t.Fatalf("rules: exit %d\n%s", code, out)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
