package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

func TestParseYAMLAndJSON(t *testing.T) {
	yml := "fail-on: warning\nenable: [json-bom]\ndisable: [json-depth]\nseverity:\n  json-syntax: info\nignore:\n  - rule: json-syntax\n    path: x/*.json\n    pointer: /tools\n"
	js := `{"fail-on": "warning", "enable": ["json-bom"], "disable": ["json-depth"], "severity": {"json-syntax": "info"}, "ignore": [{"rule": "json-syntax", "path": "x/*.json", "pointer": "/tools"}]}`
	for name, text := range map[string]string{"c.yaml": yml, "c.json": js} {
		c, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.FailOn != "warning" || c.Enable[0] != "json-bom" || c.Disable[0] != "json-depth" || c.Severity["json-syntax"] != "info" || c.Ignore[0] != (lint.Ignore{Rule: "json-syntax", Path: "x/*.json", Pointer: "/tools", Base: "."}) {
			t.Fatalf("%s: decoded %+v", name, c)
		}
		sel, err := c.Selection()
		if err != nil || sel.Severity["json-syntax"] != lint.Info {
			t.Fatalf("%s: selection %+v, %v", name, sel, err)
		}
	}
}

func TestParseRejectsUnknownKeysAndLevels(t *testing.T) {
	for name, text := range map[string]string{
		"a.yaml": "disabel: [x]\n",
		"b.json": `{"disabel": ["x"]}`,
		"c.yaml": "fail-on: [1, 2\n",
	} {
		if _, err := Parse(name, []byte(text)); err == nil {
			t.Errorf("%s: accepted %q", name, text)
		}
	}
	// An unknown severity is refused by name, as the file's.
	if _, err := Parse("d.yaml", []byte("severity:\n  json-syntax: fatal\n")); err == nil || !strings.HasPrefix(err.Error(), "d.yaml: severity of json-syntax: ") || !strings.Contains(err.Error(), "fatal") {
		t.Fatalf("an unknown severity must be refused by name, got %v", err)
	}
	if c, err := Parse("empty.yaml", nil); err != nil || c == nil {
		t.Fatalf("an empty file is an empty config: %v", err)
	}
}

func TestFindSearchesUpward(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b", "c")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	// The repository's root: the search goes up to it.
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != "" && strings.HasPrefix(got, root) {
		t.Fatalf("found %s in an empty tree", got)
	}
	want := filepath.Join(root, "a", ".pilotage-lint.json")
	if err := os.WriteFile(want, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != want {
		t.Fatalf("Find = %q, want %q", got, want)
	}
	// A nearer file wins, and YAML comes before JSON in the same folder.
	near := filepath.Join(root, "a", "b", ".pilotage-lint.yaml")
	if err := os.WriteFile(near, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "b", ".pilotage-lint.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := Find(deep); got != near {
		t.Fatalf("Find = %q, want %q", got, near)
	}
}

// TestIgnoreUnknownRule names the entry whose rule ID does not exist.
func TestIgnoreUnknownRule(t *testing.T) {
	for name, text := range map[string]string{
		"conf/a.yaml": "ignore:\n  - rule: json-syntax\n  - path: x\n  - rule: signpost-lop-tool\n  - rule: nope\n",
		"conf/b.json": `{"ignore": [{"rule": "json-syntax"}, {"path": "x"}, {"rule": "signpost-lop-tool"}, {"rule": "nope"}]}`,
	} {
		for range 3 {
			_, err := Parse(name, []byte(text))
			want := name + `: ignore entry 3 names unknown rule "signpost-lop-tool"; pilotage-lint rules lists every rule ID`
			if err == nil || err.Error() != want {
				t.Errorf("%s: error %v, want %q", name, err, want)
			}
		}
	}
	// Diff rules and the wildcard are known.
	if _, err := Parse("c.yaml", []byte("ignore:\n  - rule: \"*\"\n  - rule: diff-trace-weakened\n")); err != nil {
		t.Error(err)
	}
}

// TestSeverityErrorsDeterministic: with several bad levels, the same one
// is reported every time, as the file's.
func TestSeverityErrorsDeterministic(t *testing.T) {
	for range 20 {
		if _, err := Parse("c.yaml", []byte("severity:\n  json-syntax: bad1\n  json-bom: bad2\n  manifest-version-outdated: bad3\n")); err == nil || !strings.HasPrefix(err.Error(), "c.yaml: severity of json-bom:") {
			t.Fatalf("got %v", err)
		}
	}
}

// TestConfigMistakes: every mistake is an error that names the file and
// the entry; none is left to ignore nothing silently.
func TestConfigMistakes(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"c.yaml", "ignore:\n  - rule: json-syntax\n    pointer: tools/0\n", `c.yaml: ignore entry 1: pointer "tools/0" does not start with /; write a JSON Pointer such as /tools/0`},
		{"c.yaml", "ignore:\n  - path: \"snaps/[a-\"\n", `c.yaml: ignore entry 1: path "snaps/[a-" is not a valid glob`},
		{"c.yaml", "ignore:\n  - rule: json-syntax\n    pth: x\n", `c.yaml: yaml: unmarshal errors:
  line 3: unknown key "pth" in an ignore entry; the keys are rule, path, pointer`},
		{"c.yaml", "fail_on: warning\n", `c.yaml: yaml: unmarshal errors:
  line 1: unknown key "fail_on"; the keys are enable, disable, severity, fail-on, ignore`},
		{"c.json", `{"ignore": [{"rule": "json-syntax", "pth": "x"}]}`, `c.json: unknown key "pth"; the keys are enable, disable, severity, fail-on, ignore, and rule, path, pointer in an ignore entry`},
		{"c.yaml", "fail-on: fatal\n", `c.yaml: fail-on: unknown severity "fatal"`},
		{"c.yaml", "enable:\n  - json-sintax\n", `c.yaml: enable: unknown rule "json-sintax"; pilotage-lint rules lists every rule ID`},
		{"c.yaml", "disable:\n  - nope\n", `c.yaml: disable: unknown rule "nope"; pilotage-lint rules lists every rule ID`},
		{"c.yaml", "severity:\n  nope: info\n", `c.yaml: severity: unknown rule "nope"; pilotage-lint rules lists every rule ID`},
	} {
		_, err := Parse(tc.name, []byte(tc.text))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
	// The polarity: correct entries parse.
	if _, err := Parse("c.yaml", []byte("fail-on: warning\nignore:\n  - rule: json-syntax\n    path: snaps/**/*.json\n    pointer: /tools/[name=a]\n")); err != nil {
		t.Error(err)
	}
}

// TestIgnoreBase: ignore paths are relative to the config file's folder.
func TestIgnoreBase(t *testing.T) {
	c, err := Parse(filepath.Join("ci", "conf", ".pilotage-lint.yaml"), []byte("ignore:\n  - path: snapshots/**\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Ignore[0].Base; got != filepath.Join("ci", "conf") {
		t.Errorf("Base %q", got)
	}
}

// TestFindStopsAtTheRepositoryRoot: a config file above the repository
// (the folder holding .git, a folder or a worktree's file) is not used,
// even one that would switch the gate off; outside any repository only
// the folder itself is searched. Before, the search went on to /.
func TestFindStopsAtTheRepositoryRoot(t *testing.T) {
	above := t.TempDir()
	if err := os.WriteFile(filepath.Join(above, ".pilotage-lint.yaml"), []byte("ignore: [{rule: \"*\"}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, git := range []string{"folder", "file"} {
		repo := filepath.Join(above, "repo-"+git)
		deep := filepath.Join(repo, "snaps", "v1")
		if err := os.MkdirAll(deep, 0o755); err != nil {
			t.Fatal(err)
		}
		if git == "folder" {
			err := os.Mkdir(filepath.Join(repo, ".git"), 0o755)
			if err != nil {
				t.Fatal(err)
			}
		} else if err := os.WriteFile(filepath.Join(repo, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Find(deep); got != "" {
			t.Errorf(".git %s: Find = %q, above the repository", git, got)
		}
		own := filepath.Join(repo, ".pilotage-lint.yml")
		if err := os.WriteFile(own, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := Find(deep); got != own {
			t.Errorf(".git %s: Find = %q, want the repository's %q", git, got, own)
		}
	}
	// No repository: the folder itself, not its parents.
	plain := filepath.Join(above, "plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Find(plain); got != "" {
		t.Errorf("outside a repository: Find = %q", got)
	}
	if got := Find(above); got != filepath.Join(above, ".pilotage-lint.yaml") {
		t.Errorf("outside a repository, the folder itself: Find = %q", got)
	}
}

// TestEmptyIgnoreEntry: an empty ignore entry, {} or null, in YAML or
// JSON, is an error naming it; before, it suppressed every finding.
func TestEmptyIgnoreEntry(t *testing.T) {
	for name, text := range map[string]string{
		"c.yaml": "ignore:\n  - rule: json-syntax\n  - {}\n",
		"d.yaml": "ignore:\n  - rule: json-syntax\n  -\n",
		"e.yml":  "ignore: [{rule: json-syntax}, null]\n",
		"f.json": `{"ignore": [{"rule": "json-syntax"}, {}]}`,
		"g.json": `{"ignore": [{"rule": "json-syntax"}, null]}`,
		"h.yaml": "ignore:\n  - rule: json-syntax\n  - rule: \"\"\n    path: \"\"\n",
	} {
		want := name + ": ignore entry 2 is empty, which would suppress every finding; give it a rule, a path or a pointer (rule: \"*\" with a path ignores every rule in those files)"
		if _, err := Parse(name, []byte(text)); err == nil || err.Error() != want {
			t.Errorf("%s: got %v, want %s", name, err, want)
		}
	}
}
