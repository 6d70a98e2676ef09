package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

func TestParseYAMLAndJSON(t *testing.T) {
	yml := "fail-on: warning\nenable: [a]\ndisable: [b]\nseverity:\n  c: info\nignore:\n  - rule: json-syntax\n    path: x/*.json\n    pointer: /tools\n"
	js := `{"fail-on": "warning", "enable": ["a"], "disable": ["b"], "severity": {"c": "info"}, "ignore": [{"rule": "json-syntax", "path": "x/*.json", "pointer": "/tools"}]}`
	for name, text := range map[string]string{"c.yaml": yml, "c.json": js} {
		c, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.FailOn != "warning" || c.Enable[0] != "a" || c.Disable[0] != "b" || c.Severity["c"] != "info" || c.Ignore[0] != (lint.Ignore{Rule: "json-syntax", Path: "x/*.json", Pointer: "/tools", Base: "."}) {
			t.Fatalf("%s: decoded %+v", name, c)
		}
		sel, err := c.Selection()
		if err != nil || sel.Severity["c"] != lint.Info {
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
	c, err := Parse("d.yaml", []byte("severity:\n  x: fatal\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Selection(); err == nil || !strings.Contains(err.Error(), "fatal") {
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
// is reported every time.
func TestSeverityErrorsDeterministic(t *testing.T) {
	c, err := Parse("c.yaml", []byte("severity:\n  zz: bad1\n  aa: bad2\n  mm: bad3\n"))
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if _, err := c.Selection(); err == nil || !strings.HasPrefix(err.Error(), "severity of aa:") {
			t.Fatalf("got %v", err)
		}
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
