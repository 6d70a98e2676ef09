package binding_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// bindingRuleIDs are the rules of the binding files (Part III §1-§5).
var bindingRuleIDs = []string{
	"binding-extension-declared", "binding-extension-legacy-id", "binding-extension-version",
	"meta-key", "meta-value-object", "meta-discovery-manifest", "meta-inline-manifest-differs",
	"signpost-welcome", "signpost-entry-point", "signpost-guide-stage", "signpost-catalog-stage", "signpost-loop-tool",
	"binding-manifest-tool", "binding-guide-tool", "binding-catalog-tool", "binding-loop-tool-exists",
	"binding-tool-name-unique", "binding-shared-loop-tool", "binding-program-declaration",
}

func bindingLint(t *testing.T, name string, data []byte) []lint.Finding {
	t.Helper()
	var rs []*lint.Rule
	for _, id := range bindingRuleIDs {
		r := rules.ByID(id)
		if r == nil {
			t.Fatalf("rule %s is not registered", id)
		}
		rs = append(rs, r)
	}
	_, fs := lint.LintFile(&lint.Input{Name: name, Data: data, Explicit: true}, &lint.Options{Rules: rs})
	return fs
}

func readSpecExample(t *testing.T, file string) map[string]any {
	t.Helper()
	b, err := os.ReadFile("../../../fixtures/spec-examples/" + file)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBindingConformantExample: the bundled conformant server draws none of
// the binding rules.
func TestBindingConformantExample(t *testing.T) {
	b, err := os.ReadFile("../../../fixtures/examples/good-server.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bindingLint(t, "good-server.snapshot.json", b) {
		t.Errorf("%s %s: %s", f.Rule, f.Pointer, f.Message)
	}
}

// TestBindingSpecExamples: the spec's own wire examples pass the rules they
// are examples of. §9.2's execute tool, listed with §9.1's inline manifest,
// states its stage ("Execute") and names its Language by family
// ("workflow"); its program declaration is well formed. §9.1's response on
// its own shows no tools/list, so the welcome text cannot be judged.
func TestBindingSpecExamples(t *testing.T) {
	init91 := readSpecExample(t, "part-iii-L1362.json")["result"]
	tool92 := readSpecExample(t, "part-iii-L1418.json")
	snap, _ := json.Marshal(map[string]any{
		"initialize": init91,
		"tools":      map[string]any{"tools": []any{tool92}},
	})
	for _, f := range bindingLint(t, "spec-9.1+9.2.json", snap) {
		if strings.HasPrefix(f.Pointer, "/tools/tools/0") {
			t.Errorf("§9.2 run_workflow draws %s at %s: %s", f.Rule, f.Pointer, f.Message)
		}
	}
	resp, err := os.ReadFile("../../../fixtures/spec-examples/part-iii-L1362.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range bindingLint(t, "part-iii-L1362.json", resp) {
		if f.Rule != lint.SkippedRule.ID {
			t.Errorf("§9.1 draws %s at %s: %s", f.Rule, f.Pointer, f.Message)
		}
	}
	// §5: the single-Language declaration example, checked against its own
	// schema; the Language has no manifest here, so that check is skipped.
	tool5 := readSpecExample(t, "part-iii-L0868.json")
	list, _ := json.Marshal(map[string]any{"tools": []any{tool5}})
	for _, f := range bindingLint(t, "part-iii-L0868.json", list) {
		if f.Rule == "binding-program-declaration" || f.Rule == "meta-key" || f.Rule == "meta-value-object" {
			t.Errorf("§5 example draws %s at %s: %s", f.Rule, f.Pointer, f.Message)
		}
	}
}
