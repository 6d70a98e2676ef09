package snapshotter

import (
	"encoding/json"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// TestProbeTargetsShareSchemas: every Target of a server reads the
// inputSchema nodes tools/list was parsed into, the same for every
// Language, where each schema was marshalled back to JSON and parsed again
// by every Target (review B 2d).
func TestProbeTargetsShareSchemas(t *testing.T) {
	listing := source.ParseValue([]byte(`{"tools": [
		{"name": "check_flow", "inputSchema": {"type": "object", "properties": {"flow": {"type": "string"}}}},
		{"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {"type": "string"}}}}]}`))
	tools := listing.Get("tools").Kids()
	manifest := json.RawMessage(`{"structuredContent": {"pilotage": "1.1", "languages": [
		{"name": "a/1", "loop": {"validate": "check_flow", "execute": "run_flow"}},
		{"name": "b/1", "loop": {"validate": "check_flow", "execute": "run_flow"}}]}}`)
	targets, warn := probeTargets(manifest, tools, &Probing{})
	if warn != "" || len(targets) != 2 {
		t.Fatalf("%d targets, warning %q", len(targets), warn)
	}
	for _, tg := range targets {
		for i, name := range []string{"check_flow", "run_flow"} {
			if got := tg.InputSchemas[name]; got != tools[i].Get("inputSchema") {
				t.Errorf("%s: the schema of %s is not the listed node", tg.Language.Name, name)
			}
		}
	}
}
