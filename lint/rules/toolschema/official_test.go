package toolschema_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// officialOutputs are the definitions of the spec's official schema that
// Part III §6 binds to each Pilotage tool's result: the outputSchema
// unions, by tool of the Harborview listing.
var officialOutputs = map[string]string{
	"pilotage_manifest":  "ManifestToolOutput",
	"pilotage_get_guide": "GetGuideToolOutput",
	"pilotage_catalog":   "CatalogToolOutput",
	"validate_flow":      "ValidateToolOutput",
	"run_flow":           "ExecuteToolOutput",
	"trace_run":          "TraceToolOutput",
}

// TestOfficialSchemaAsOutputSchema declares, as each Pilotage tool's
// outputSchema, the spec's own official schema pointed at the definition
// the spec binds to that tool, as a server author who copies the published
// file would: the linter must find nothing at all. The Retention pattern
// uses an ECMA-262 look-ahead, which RE2 cannot compile; schemacheck's
// ECMA-262 engine does, so not even an info names it.
func TestOfficialSchemaAsOutputSchema(t *testing.T) {
	root := rulestest.Root(t)
	official := readJSON(t, officialPath(t))
	defs := official["$defs"].(map[string]any)
	for _, def := range officialOutputs {
		if defs[def] == nil {
			t.Fatalf("the official schema has no $defs/%s", def)
		}
	}
	for _, form := range []string{"document", "defs"} {
		t.Run(form, func(t *testing.T) {
			listing := readJSON(t, filepath.Join(root, "fixtures", "toolschema", "toolschema-output-schema-rejects-shape", "good.json"))
			seen := 0
			for _, tool := range listing["tools"].(map[string]any)["tools"].([]any) {
				tool := tool.(map[string]any)
				def, ok := officialOutputs[tool["name"].(string)]
				if !ok {
					continue
				}
				seen++
				var schema map[string]any
				switch form {
				case "document":
					// The whole published file, $id and $schema included.
					schema = maps.Clone(official)
					schema["$ref"] = "#/$defs/" + def
				case "defs":
					// Only the definitions, the union copied to the root.
					schema = maps.Clone(defs[def].(map[string]any))
					schema["$defs"] = defs
				}
				tool["outputSchema"] = schema
			}
			if seen != len(officialOutputs) {
				t.Fatalf("the listing has %d of the %d Pilotage tools", seen, len(officialOutputs))
			}
			path := filepath.Join(t.TempDir(), "official.json")
			b, err := json.MarshalIndent(listing, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, f := range rulestest.Lint(t, path) {
				t.Errorf("%s %s at %s: %s", f.Severity, f.Rule, f.Pointer, f.Message)
			}
		})
	}
}

// officialPath is the spec's official schema, from the repository's copy
// of the reference data (testdata/reference).
func officialPath(t *testing.T) string {
	p := filepath.Join(rulestest.Root(t), "testdata", "reference", "pilotage.schema.json")
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
