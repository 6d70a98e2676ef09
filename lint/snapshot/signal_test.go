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
