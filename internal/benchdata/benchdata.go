// Package benchdata generates large, realistic Pilotage inputs for the
// benchmarks: a gateway-sized tools/list and manifests with many Languages.
// Output is deterministic so runs compare.
package benchdata

import (
	"encoding/json"
	"fmt"
)

// Languages returns the manifest's Language entries: each with validate,
// execute and trace tools, a catalog, and the members execute requires.
func languages(n int) []map[string]any {
	out := make([]map[string]any, n)
	for i := range out {
		out[i] = map[string]any{
			"name":    fmt.Sprintf("flow%d/1", i),
			"title":   fmt.Sprintf("Flow language %d", i),
			"guides":  "pilotage_get_guide",
			"catalog": "pilotage_catalog",
			"loop": map[string]any{
				"validate": fmt.Sprintf("validate_flow%d", i),
				"execute":  fmt.Sprintf("run_flow%d", i),
				"trace":    fmt.Sprintf("trace_flow%d", i),
			},
			"capabilities": map[string]any{
				"guides": true, "catalog": map[string]any{"search": true}, "validate": true,
				"plan": true, "execute": true, "trace_fetch": true,
			},
			"locator": "json-pointer", "execution": "immediate", "trace": "full", "retention": "PT1H",
		}
	}
	return out
}

const lorem = "Reads the current state of the addressed building zone and returns it with the timestamps of the last readings, so that a flow can branch on occupancy, temperature and the schedule in force."

func plainTool(i int) map[string]any {
	props := map[string]any{}
	for p := 0; p < 8; p++ {
		props[fmt.Sprintf("param_%d", p)] = map[string]any{
			"type":        []string{"string", "integer", "boolean", "number"}[p%4],
			"description": fmt.Sprintf("Parameter %d of operation %d. %s", p, i, lorem[:80]),
		}
	}
	return map[string]any{
		"name":        fmt.Sprintf("zone_operation_%05d", i),
		"title":       fmt.Sprintf("Zone operation %d", i),
		"description": lorem + fmt.Sprintf(" Operation %d.", i),
		"inputSchema": map[string]any{"type": "object", "properties": props, "required": []string{"param_0"}},
		"outputSchema": map[string]any{"type": "object", "properties": map[string]any{
			"state": map[string]any{"type": "object"}, "updated_at": map[string]any{"type": "string", "format": "date-time"},
		}},
		"annotations": map[string]any{"readOnlyHint": i%3 == 0, "openWorldHint": false},
	}
}

func loopTools(lang int) []map[string]any {
	name := fmt.Sprintf("flow%d/1", lang)
	decl := map[string]any{"io.github.jafarsa0/pilotage": map[string]any{"argument": "flow", "language": name}}
	return []map[string]any{
		{
			"name":         fmt.Sprintf("validate_flow%d", lang),
			"description":  fmt.Sprintf("Validate stage for %s programs: checks a flow and returns diagnostics and a plan.", name),
			"inputSchema":  map[string]any{"type": "object", "properties": map[string]any{"flow": map[string]any{}, "context": map[string]any{"type": "object"}}, "required": []string{"flow"}},
			"outputSchema": map[string]any{"type": "object"},
			"annotations":  map[string]any{"readOnlyHint": true},
			"_meta":        decl,
		},
		{
			"name":        fmt.Sprintf("run_flow%d", lang),
			"description": fmt.Sprintf("Execute stage for %s programs: runs a flow and returns the outcome and trace.", name),
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{
				"flow": map[string]any{}, "program_ref": map[string]any{"type": "string"}, "input": map[string]any{"type": "object"},
				"trace_level": map[string]any{"type": "string"}, "expected_catalog_version": map[string]any{"type": "string"}, "store": map[string]any{"type": "boolean"},
			}},
			"outputSchema": map[string]any{"type": "object"},
			"annotations":  map[string]any{"readOnlyHint": false, "destructiveHint": true},
			"_meta":        decl,
		},
		{
			"name":         fmt.Sprintf("trace_flow%d", lang),
			"description":  fmt.Sprintf("Trace fetch stage for %s: fetches the stored trace of a run by run_id.", name),
			"inputSchema":  map[string]any{"type": "object", "properties": map[string]any{"run_id": map[string]any{"type": "string"}, "trace_level": map[string]any{"type": "string"}}, "required": []string{"run_id"}},
			"outputSchema": map[string]any{"type": "object"},
			"annotations":  map[string]any{"readOnlyHint": true},
		},
	}
}

func fixedTools() []map[string]any {
	str := map[string]any{"type": "string"}
	return []map[string]any{
		{"name": "pilotage_manifest", "description": "Start here: call this first to get the Pilotage manifest of this server.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}, "outputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
		{"name": "pilotage_get_guide", "description": "Learn stage of the Pilotage loop: returns the guides of a Language.",
			"inputSchema":  map[string]any{"type": "object", "properties": map[string]any{"language": str, "id": str, "topic": str}, "required": []string{"language"}},
			"outputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
		{"name": "pilotage_catalog", "description": "Lookup stage of the Pilotage loop: queries the catalog of a Language.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{
				"language": str, "verb": map[string]any{"type": "string", "enum": []string{"list", "get", "changed_since"}},
				"kind": str, "tag": str, "q": str, "cursor": str, "limit": map[string]any{"type": "integer", "minimum": 1}, "id": str, "catalog_version": str,
			}, "required": []string{"language", "verb"}},
			"outputSchema": map[string]any{"type": "object"}, "annotations": map[string]any{"readOnlyHint": true}},
	}
}

// Snapshot returns a pilotage-lint snapshot document of a conformant
// gateway-sized server: nTools tools in all, of which the Pilotage ones
// serve nLangs Languages.
func Snapshot(nTools, nLangs int) []byte {
	tools := fixedTools()
	for l := 0; l < nLangs; l++ {
		tools = append(tools, loopTools(l)...)
	}
	for i := 0; len(tools) < nTools; i++ {
		tools = append(tools, plainTool(i))
	}
	doc := map[string]any{
		"initialize": map[string]any{
			"protocolVersion": "2025-11-25",
			"capabilities":    map[string]any{"tools": map[string]any{}, "extensions": map[string]any{"io.github.jafarsa0/pilotage": map[string]any{"version": "1.1"}}},
			"serverInfo":      map[string]any{"name": "gateway", "version": "1.0.0"},
			"instructions":    "This gateway speaks Pilotage. Call pilotage_manifest first to learn its Languages.",
		},
		"tools":    map[string]any{"tools": tools},
		"manifest": map[string]any{"pilotage": "1.1", "languages": languages(nLangs)},
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}

// SizeString formats a byte count for reports.
func SizeString(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
