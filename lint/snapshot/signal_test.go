package snapshot_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// TestPilotageSignal lists what makes a file a Pilotage surface, and
// lookalikes that do not.
func TestPilotageSignal(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		want       bool
	}{
		{"manifest tool", `{"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}`, true},
		{"other reserved tool", `{"tools": [{"name": "pilotage_get_guide", "inputSchema": {"type": "object"}}]}`, true},
		{"bare manifest", `{"pilotage": "1.1", "languages": []}`, true},
		{"manifest result", `{"structuredContent": {"pilotage": "1.1"}, "isError": false}`, true},
		{"extension in capabilities.extensions", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}`, true},
		{"legacy identifier", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0.pilotage": {}}}}`, true},
		{"identifier in capabilities.experimental", `{"protocolVersion": "2025-06-18", "capabilities": {"experimental": {"io.github.jafarsa0/pilotage": {}}}}`, true},
		{"program declaration in _meta", `{"tools": [{"name": "run", "inputSchema": {"type": "object"}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "flow/1"}}}]}`, true},
		{"manifest resource", `{"resources": {"resources": [{"uri": "pilotage://manifest", "name": "manifest"}]}}`, true},
		{"ordinary tools", `{"tools": [{"name": "actions_run_trigger", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}}]}`, false},
		{"the word in a description", `{"tools": [{"name": "pilot", "description": "pilotage_manifest is not here", "inputSchema": {"type": "object"}}]}`, false},
		{"other extension", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.example/other": {}}}}`, false},
		// Earlier versions of snapshot called pilotage_manifest on every
		// server and stored the "unknown tool" answer under manifest.
		{"unknown-tool answer under manifest", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "Unknown tool: pilotage_manifest"}], "isError": true}}`, false},
		{"error answer of a listed manifest tool", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "down"}], "isError": true}}`, true},
		{"error answer under manifest, no listing", `{"manifest": {"content": [{"type": "text", "text": "down"}], "isError": true}}`, true},
		{"JSON-RPC error of an unlisted reserved tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_get_guide", "arguments": {}, "error": {"code": -32602, "message": "Unknown tool"}}]}`, false},
		{"result of an unlisted reserved tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_get_guide", "arguments": {}, "result": {"content": []}}]}`, true},
		{"a probe's made-up call", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_no_such_tool", "arguments": {}, "result": {"content": []}, "probe": {"name": "unknown-tool"}}]}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := build(t, "in.json", tc.data, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Pilotage(); got != tc.want {
				t.Errorf("Pilotage() = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPilotageSignalBrokenText: text that does not parse carries a signal
// only when it names Pilotage, so a non-JSON dump of an ordinary server is
// silent and a broken Pilotage document still gets its syntax findings.
func TestPilotageSignalBrokenText(t *testing.T) {
	for _, tc := range []struct {
		data string
		want bool
	}{
		{"Error: No initialize response", false},
		{`{"tools": [{"name": "pilotage_manifest"`, true},
		{`{"tools": [`, false},
	} {
		s, err := snapshot.Build(source.Parse("in.json", []byte(tc.data), source.Options{}), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Pilotage(); got != tc.want {
			t.Errorf("%q: Pilotage() = %v, want %v", tc.data, got, tc.want)
		}
	}
}
