package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

func TestParseYAMLAndJSON(t *testing.T) {
	yml := "fail-on: warning\nenable: [a]\ndisable: [b]\nseverity:\n  c: info\nignore:\n  - rule: d\n    path: x/*.json\n    pointer: /tools\n"
	js := `{"fail-on": "warning", "enable": ["a"], "disable": ["b"], "severity": {"c": "info"}, "ignore": [{"rule": "d", "path": "x/*.json", "pointer": "/tools"}]}`
	for name, text := range map[string]string{"c.yaml": yml, "c.json": js} {
		c, err := Parse(name, []byte(text))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if c.FailOn != "warning" || c.Enable[0] != "a" || c.Disable[0] != "b" || c.Severity["c"] != "info" || c.Ignore[0] != (lint.Ignore{Rule: "d", Path: "x/*.json", Pointer: "/tools"}) {
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
