package config_test

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

func TestDefaultIsTheDefault(t *testing.T) {
	c, err := config.Parse(".pilotage-lint.yaml", []byte(config.Default))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, &config.Config{FailOn: "error"}) {
		t.Errorf("default config = %+v", c)
	}
}

// TestDefaultExamplesWork uncomments every example, which must then be a
// valid configuration naming rules that exist.
func TestDefaultExamplesWork(t *testing.T) {
	uncommented := regexp.MustCompile(`(?m)^# ((?:enable|disable|severity|ignore):|  .*)$`).ReplaceAllString(config.Default, "$1")
	c, err := config.Parse(".pilotage-lint.yaml", []byte(uncommented))
	if err != nil {
		t.Fatalf("%v\n%s", err, uncommented)
	}
	if len(c.Enable) != 2 || len(c.Disable) != 1 || len(c.Severity) != 1 || len(c.Ignore) != 1 {
		t.Fatalf("examples not all uncommented: %+v\n%s", c, uncommented)
	}
	sel, err := c.Selection()
	if err != nil {
		t.Fatal(err)
	}
	sel.Enable = nil // enable and disable together would say the same twice
	if _, err := lint.Select(rules.All(), sel); err != nil {
		t.Errorf("examples name unknown rules: %v", err)
	}
	if rules.ByID(c.Ignore[0].Rule) == nil {
		t.Errorf("ignore example names unknown rule %q", c.Ignore[0].Rule)
	}
}

func TestYAMLRoundTrips(t *testing.T) {
	c := &config.Config{
		Enable:   []string{"json-bom", "json-syntax"},
		Disable:  []string{"json-depth"},
		Severity: map[string]string{"json-syntax": "info", "json-bom": "warning"},
		FailOn:   "warning",
		Ignore:   []lint.Ignore{{Rule: "json-syntax", Path: "x/*.json", Pointer: "/tools/0", Base: "."}},
	}
	out, err := c.YAML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := config.Parse("x.yaml", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, c) {
		t.Errorf("round trip:\n%s\n%+v", out, back)
	}
	want := "enable:\n  - json-bom\n  - json-syntax\ndisable:\n  - json-depth\nseverity:\n  json-bom: warning\n  json-syntax: info\nfail-on: warning\nignore:\n  - rule: json-syntax\n    path: x/*.json\n    pointer: /tools/0\n"
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
}

// TestDefaultNamesNoDeprecatedRule: init must not suggest a rule that no
// longer does anything.
func TestDefaultNamesNoDeprecatedRule(t *testing.T) {
	for _, id := range regexp.MustCompile(`[a-z0-9]+(?:-[a-z0-9]+)+`).FindAllString(config.Default, -1) {
		if r := rules.ByID(id); r != nil && r.Deprecated {
			t.Errorf("the default config suggests deprecated rule %s", id)
		}
	}
}
