package schemas

import (
	"encoding/json"
	"sort"
)

// Minimal valid structuredContent instances, keyed by tool (fixed tool name
// or loop stage, as in OutputSchemaFor) and then by shape ($defs name).
// Each holds only required members, so deleting any member makes it
// invalid; a test checks both properties. A linter can validate them
// against a server's declared outputSchema: a union that rejects one of
// them cannot carry that result (Part III §6).
var examples = map[string]map[string]string{
	"pilotage_manifest": {
		"Manifest": `{"pilotage":"1.1","languages":[{"name":"example/1","title":"Example","guides":"pilotage_get_guide","loop":{"validate":"validate_example"},"capabilities":{"guides":true,"validate":true},"locator":"json-pointer"}]}`,
	},
	"pilotage_get_guide": {
		"GuideIndexResult": `{"guides":[]}`,
		"GuideFetchResult": `{"guide":{"id":"core","title":"Core","level":"core","topics":[],"language":"example/1","version":"1","size_bytes":0,"body":""}}`,
	},
	"pilotage_catalog": {
		"CatalogListResult":         `{"items":[],"catalog_version":"cv1"}`,
		"CatalogGetResult":          `{"entry":{"id":"e1","kind":"table","name":"E1","risk":"safe","risk_hints":{}},"catalog_version":"cv1"}`,
		"CatalogChangedSinceResult": `{"catalog_version":"cv2","changes":[]}`,
	},
	"validate": {
		"ValidateResponse": `{"valid":true,"diagnostics":[]}`,
	},
	"execute": {
		"ExecuteResponse": `{"run_id":"run1","outcome":{"ok":true,"status":"success","error":null}}`,
	},
	"trace": {
		"TraceFetchResponse": `{"run_id":"run1","outcome":{"ok":true,"status":"success","error":null},"trace":{"run_id":"run1","level":"summary","steps":[]}}`,
	},
}

// requestErrorExample is the minimal request-error shape every tool may
// return (Part III §7.2).
const requestErrorExample = `{"error":{"kind":"not_found","message":"not found"}}`

// Examples returns minimal valid instances of every structuredContent shape
// a tool can return, the request-error shape ("RequestError") included.
// tool is a fixed tool name or a loop stage ("validate", "execute",
// "trace"). The map is fresh on every call.
func Examples(tool string) (map[string]json.RawMessage, bool) {
	ex, ok := examples[tool]
	if !ok {
		return nil, false
	}
	out := map[string]json.RawMessage{"RequestError": json.RawMessage(requestErrorExample)}
	for k, v := range ex {
		out[k] = json.RawMessage(v)
	}
	return out, true
}

// Tools returns the keys Examples and OutputSchemaFor accept.
func Tools() []string {
	out := make([]string, 0, len(examples))
	for k := range examples {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
