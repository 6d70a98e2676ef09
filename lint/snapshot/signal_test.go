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
		{"guide tool", `{"tools": [{"name": "pilotage_get_guide", "inputSchema": {"type": "object"}}]}`, true},
		{"catalog tool", `{"tools": [{"name": "pilotage_catalog", "inputSchema": {"type": "object"}}]}`, true},
		// "Pilotage" is French and Dutch for steering: a fleet server's
		// tools are no signal, nor is any name but the three fixed ones.
		{"French fleet tools", `{"tools": [{"name": "pilotage_flotte", "inputSchema": {"type": "object"}}, {"name": "pilotage_route", "inputSchema": {"type": "object"}}]}`, false},
		{"a loop-like name", `{"tools": [{"name": "pilotage_validate", "inputSchema": {"type": "object"}}]}`, false},
		{"a fixed name in other case", `{"tools": [{"name": "Pilotage_Manifest", "inputSchema": {"type": "object"}}]}`, false},
		{"bare manifest", `{"pilotage": "1.1", "languages": []}`, true},
		{"manifest without its version", `{"languages": [{"name": "flow/1", "title": "Flows"}]}`, true},
		{"manifest result", `{"structuredContent": {"pilotage": "1.1"}, "isError": false}`, true},
		// An app's or i18n config's locales are no Language entries.
		{"i18n config", `{"name": "fleet-app", "languages": ["fr", "en", "nl"]}`, false},
		{"i18n config with a pilotage member", `{"pilotage": "1.1", "languages": ["fr", "en"]}`, false},
		{"described locales", `{"languages": [{"code": "fr", "name": "Français"}, {"code": "nl", "name": "Nederlands"}]}`, false},
		{"a French setting", `{"pilotage": {"mode": "auto"}, "langue": "fr"}`, false},
		{"extension in capabilities.extensions", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}`, true},
		{"legacy identifier", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0.pilotage": {}}}}`, true},
		{"identifier in capabilities.experimental", `{"protocolVersion": "2025-06-18", "capabilities": {"experimental": {"io.github.jafarsa0/pilotage": {}}}}`, true},
		{"the next major's identifier", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0/pilotage-v2": {}}}}`, false},
		{"shorthand extension key", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"pilotage": {}}}}`, false},
		{"program declaration in _meta", `{"tools": [{"name": "run", "inputSchema": {"type": "object"}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "flow/1"}}}]}`, true},
		{"shorthand _meta key", `{"tools": [{"name": "pilotage_flotte", "inputSchema": {"type": "object"}, "_meta": {"pilotage": {"mode": "auto"}}}]}`, false},
		// pilotage:// is a convention (Part III §3.2), and a name.
		{"manifest resource", `{"resources": {"resources": [{"uri": "pilotage://manifest", "name": "manifest"}]}}`, false},
		{"ordinary tools", `{"tools": [{"name": "actions_run_trigger", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}}]}`, false},
		{"the word in a description", `{"tools": [{"name": "pilot", "description": "pilotage_manifest is not here", "inputSchema": {"type": "object"}}]}`, false},
		{"other extension", `{"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.example/other": {}}}}`, false},
		// Earlier versions of snapshot called pilotage_manifest on every
		// server and stored the "unknown tool" answer under manifest.
		{"unknown-tool answer under manifest", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "Unknown tool: pilotage_manifest"}], "isError": true}}`, false},
		{"unflagged answer of an unlisted manifest tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "Unknown tool: pilotage_manifest"}]}}`, false},
		{"a manifest from an unlisted manifest tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "manifest": {"structuredContent": {"pilotage": "1.1", "languages": []}}}`, true},
		{"error answer of a listed manifest tool", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "down"}], "isError": true}}`, true},
		{"error answer under manifest, no listing", `{"manifest": {"content": [{"type": "text", "text": "down"}], "isError": true}}`, true},
		{"a bare result of some tool", `{"content": [{"type": "text", "text": "done"}], "isError": false}`, false},
		{"JSON-RPC error of an unlisted fixed tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_get_guide", "arguments": {}, "error": {"code": -32602, "message": "Unknown tool"}}]}`, false},
		{"result of an unlisted fixed tool", `{"tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_get_guide", "arguments": {}, "result": {"content": []}}]}`, false},
		{"result of a listed fixed tool", `{"tools": {"tools": [{"name": "pilotage_get_guide", "inputSchema": {"type": "object"}}]}, "calls": [{"name": "pilotage_get_guide", "arguments": {}, "result": {"content": []}}]}`, true},
		{"result of a fixed tool, no listing", `{"calls": [{"name": "pilotage_get_guide", "arguments": {}, "result": {"content": []}}]}`, true},
		{"error of a fixed tool, no listing", `{"calls": [{"name": "pilotage_get_guide", "arguments": {}, "result": {"content": [], "isError": true}}]}`, false},
		{"result of a French tool, no listing", `{"calls": [{"name": "pilotage_flotte", "arguments": {}, "result": {"content": []}}]}`, false},
		// A Client declaring Pilotage says nothing of the Server.
		{"only the Client declares", `[{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}}, {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}}}]`, false},
		{"only the stateless Client declares", `[{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": {"io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}, "io.github.jafarsa0/pilotage": {}}}}, {"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}]`, false},
		{"the Server declares in a capture", `[{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}, {"jsonrpc": "2.0", "id": 1, "result": {"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}}]`, true},
		// Part III §1.2: exposing pilotage_manifest "and" returning a
		// valid Pilotage manifest declares support. A harbour-pilot
		// server's cargo manifest tool answers with no manifest, so its
		// name alone is no signal (audit2 n02).
		{"a listed manifest tool answering with a cargo manifest", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object", "properties": {"imo": {"type": "string"}}, "required": ["imo"]}}]}, "manifest": {"structuredContent": {"vessel": "Nordkap", "languages": ["nl", "en"]}, "isError": false}}`, false},
		{"a listed manifest tool answering in text only", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "manifest": {"content": [{"type": "text", "text": "cargo: 12 containers"}]}}`, false},
		{"a cargo answer beside the guide tool", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}, {"name": "pilotage_get_guide", "inputSchema": {"type": "object"}}]}, "manifest": {"structuredContent": {"vessel": "Nordkap"}}}`, true},
		{"a cargo answer beside the extension", `{"initialize": {"protocolVersion": "2025-11-25", "capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {}}}}, "tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "manifest": {"structuredContent": {"vessel": "Nordkap"}}}`, true},
		{"a defective Pilotage manifest", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "manifest": {"structuredContent": {"languages": [{"name": "flow/1", "loop": {"validate": "v"}}]}}}`, true},
		{"a listed manifest tool, no answer recorded", `{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object", "required": ["imo"]}}]}}`, true},
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
		{`{"tools": [{"name": "pilotage_flotte"`, false},
		{`{"pilotage": "1.1", "languages": [`, true},
		{`{"capabilities": {"extensions": {"io.github.jafarsa0/pilotage": {`, true},
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
