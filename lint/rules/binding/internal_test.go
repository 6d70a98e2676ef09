package binding

import "testing"

func TestSignpostWords(t *testing.T) {
	cases := []struct {
		name string
		ok   func(string) bool
		yes  []string
		no   []string
	}{
		{"first", reFirst.MatchString,
			[]string{"Start here.", "call this first", "the entry point", "the entry-point", "Before anything else, call it", "Begin with this tool", "Before anything, call pilotage_manifest", "call this before other tools", "Appelez d'abord cet outil", "Llame a esta herramienta primero", "Zuerst aufrufen"},
			[]string{"restart the server", "firstly-named", "startup"}},
		{"learn", reLearn.MatchString,
			[]string{"Learn a Language", "returns the guides", "Tutorials", "documentation for", "how-to articles"},
			[]string{"guidelines", "learned-nothing"}},
		{"lookup", reLookup.MatchString,
			[]string{"Look up names", "look-up", "search the catalog", "Catalogue of devices", "inventory", "Find the devices a program may name", "Buscar en el catálogo"},
			[]string{"lookups-only", "research"}},
		{"validate", reValidate.MatchString,
			[]string{"Validate a flow", "checks a flow", "Verify it", "lints programs"},
			[]string{"checkout", "invalidated"}},
		{"execute", reExecute.MatchString,
			[]string{"Execute a workflow", "runs the flow", "Deploy it", "invokes", "Carries out a flow or installs it", "Exécute un programme", "Ejecuta un flujo"},
			[]string{"rerun", "runtime", "executed"}},
		{"fetch", reFetch.MatchString,
			[]string{"the trace", "stored traces", "the run record", "shows what an earlier run did", "Inspect a past run", "Devuelve la traza de una ejecución"},
			[]string{"traceability", "record"}},
	}
	for _, c := range cases {
		for _, s := range c.yes {
			if !c.ok(s) {
				t.Errorf("%s: %q should match", c.name, s)
			}
		}
		for _, s := range c.no {
			if c.ok(s) {
				t.Errorf("%s: %q should not match", c.name, s)
			}
		}
	}
}

// TestSignpostLanguage pins the family decision: the family alone names a
// Language unless another Language shares the family.
func TestSignpostLanguage(t *testing.T) {
	one := []string{"buildingflow/1", "sql/postgres-15"}
	two := []string{"buildingflow/1", "buildingflow/2"}
	cases := []struct {
		name  string
		names []string
		text  string
		want  bool
	}{
		{"buildingflow/1", one, "Validate buildingflow/1 programs", true},
		{"buildingflow/1", one, "Validate BuildingFlow programs", true},
		{"buildingflow/1", one, "Validate buildingflow/10 programs", false},
		{"buildingflow/1", one, "Validate flows", false},
		{"buildingflow/1", two, "Validate buildingflow programs", false},
		{"buildingflow/1", two, "Validate buildingflow/1 programs", true},
		{"sql/postgres-15", one, "Run SQL queries", true},
		{"sql/postgres-15", one, "Run sql/postgres-15 queries", true},
		{"sql/postgres-15", one, "Run mysql queries", false},
		{"sql/postgres-15", one, "Run SQL/Postgres-15.", true},
		{"buildingflow/1", one, "(buildingflow/1)", true},
		{"buildingflow/1", one, "Valide les programmes buildingflow/1.", true},
	}
	for _, c := range cases {
		if got := signpostNamesLanguage(c.text, c.name, signpostFamilies(c.names)); got != c.want {
			t.Errorf("%s in %q (names %v) = %v, want %v", c.name, c.text, c.names, got, c.want)
		}
	}
}

// TestShorthandKey (Part III §2, issue 30 §3): a shorthand is the bare word
// or the full key cut short; a key with the whole vendor prefix, such as
// the next major's identifier, and the dotted legacy identifier are not.
func TestShorthandKey(t *testing.T) {
	for key, want := range map[string]bool{
		"pilotage":                       true,
		"Pilotage":                       true,
		"jafarsa0/pilotage":              true,
		"github.jafarsa0/pilotage":       true,
		"io.github.jafarsa0/pilotage":    false,
		"io.github.jafarsa0/pilotage-v2": false,
		"io.github.jafarsa0/risk":        false,
		"io.github.jafarsa0.pilotage":    false,
		"otherpilotage":                  false,
		"pilotage-v2":                    false,
		"io.modelcontextprotocol/x":      false,
	} {
		if got := bindingShorthandKey(key); got != want {
			t.Errorf("bindingShorthandKey(%q) = %v, want %v", key, got, want)
		}
	}
}
