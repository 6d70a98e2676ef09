package rules_test

import (
	"os"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestRulesDocFresh keeps docs/rules.md equal to the registry.
func TestRulesDocFresh(t *testing.T) {
	want := rules.Markdown()
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
		t.Fatal("docs/rules.md is stale: run go generate ./lint/rules")
	}
}
