package binding_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

// TestBindingRulesSurviveWrongTypes replaces every value of the conformant
// example, one at a time, with a value of each other JSON type and demands
// that no binding rule fails: real snapshots put anything anywhere.
func TestBindingRulesSurviveWrongTypes(t *testing.T) {
	b, err := os.ReadFile("../../../fixtures/examples/good-server.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	var root any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	// An inline manifest too, so the comparison with the result is
	// exercised; a copy, so mutating one side leaves the other intact.
	var inline any
	if err := json.Unmarshal(b, &inline); err != nil {
		t.Fatal(err)
	}
	ini := root.(map[string]any)["initialize"].(map[string]any)
	ini["_meta"] = map[string]any{"io.github.jafarsa0/pilotage": map[string]any{"manifest": inline.(map[string]any)["manifest"]}}
	replacements := []any{nil, 1.5, "x", []any{}, map[string]any{}, true}
	var walk func(v any, set func(any))
	runs := 0
	walk = func(v any, set func(any)) {
		for _, r := range replacements {
			set(r)
			data, _ := json.Marshal(root)
			for _, f := range bindingLint(t, "mutant.json", data) {
				if f.Rule == lint.InternalRule.ID {
					t.Fatalf("%s", f.Message)
				}
			}
			runs++
		}
		set(v)
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				walk(c, func(n any) { x[k] = n })
			}
		case []any:
			for i, c := range x {
				walk(c, func(n any) { x[i] = n })
			}
		}
	}
	walk(root, func(n any) { root = n })
	if runs < 100 {
		t.Fatalf("only %d mutants", runs)
	}
}
