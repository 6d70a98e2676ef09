package ruledoc

import (
	"flag"
	"os"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesDocFresh keeps docs/rules.md equal to the registries.
func TestRulesDocFresh(t *testing.T) {
	want := Markdown()
	if *update {
		if err := os.WriteFile("../../docs/rules.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/rules.md is stale: run go generate ./lint/ruledoc")
	}
}

// TestRuleIDsUnique: lint and diff rules share one ID space, so a SARIF
// driver or a config file never confuses them.
func TestRuleIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Sections() {
		for _, r := range s.Rules {
			if seen[r.ID] {
				t.Errorf("rule ID %s is used twice", r.ID)
			}
			seen[r.ID] = true
		}
	}
}
