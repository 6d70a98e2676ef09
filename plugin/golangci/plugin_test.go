package golangci_test

import (
	"slices"
	"testing"

	"github.com/golangci/plugin-module-register/register"
	"golang.org/x/tools/go/analysis"

	_ "github.com/pilotagekit/pilotagekit/plugin/golangci"
)

func names(as []*analysis.Analyzer) []string {
	var out []string
	for _, a := range as {
		out = append(out, a.Name)
	}
	return out
}

func TestRegisteredAndConfigurable(t *testing.T) {
	newPlugin, err := register.GetPlugin("pilotage")
	if err != nil {
		t.Fatal(err)
	}
	// golangci-lint passes the decoded YAML settings, or nil without any.
	for _, tc := range []struct {
		settings any
		want     []string
	}{
		{nil, []string{"metakey", "strictschema", "envelope", "canonical"}},
		{map[string]any{"disable": []any{"canonical", "metakey"}}, []string{"strictschema", "envelope"}},
	} {
		p, err := newPlugin(tc.settings)
		if err != nil {
			t.Fatalf("settings %v: %v", tc.settings, err)
		}
		as, err := p.BuildAnalyzers()
		if err != nil {
			t.Fatal(err)
		}
		if got := names(as); !slices.Equal(got, tc.want) {
			t.Errorf("settings %v: analyzers %v, want %v", tc.settings, got, tc.want)
		}
		if p.GetLoadMode() != register.LoadModeTypesInfo {
			t.Errorf("load mode %q", p.GetLoadMode())
		}
	}
	for _, bad := range []any{
		map[string]any{"disable": []any{"nosuch"}},
		map[string]any{"enable": []any{"metakey"}},
	} {
		if _, err := newPlugin(bad); err == nil {
			t.Errorf("settings %v accepted", bad)
		}
	}
}
