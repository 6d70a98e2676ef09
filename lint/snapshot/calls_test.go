package snapshot_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// callsDoc is a snapshot with one call of every kind the view tells apart,
// including a JSON-RPC error, a request error and a probe tag.
const callsDoc = `{
  "tools": [
    {"name": "validate_q", "inputSchema": {"type": "object", "properties": {"q": {}, "w": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"languages": [{"argument": "q", "language": "sql/1"}, {"argument": "w", "language": "flow/1"}]}}},
    {"name": "run_w", "inputSchema": {"type": "object", "properties": {"w": {}, "program_ref": {"type": "string"}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}},
    {"name": "trace_w", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}, "required": ["run_id"]}}
  ],
  "manifest": {"pilotage": "1.1", "languages": [
    {"name": "sql/1", "loop": {"validate": "validate_q"}},
    {"name": "flow/1", "loop": {"validate": "validate_q", "execute": "run_w", "trace": "trace_w"}}
  ]},
  "calls": [
    {"name": "pilotage_get_guide", "arguments": {"language": "flow/1"}, "result": {"structuredContent": {"guides": []}}},
    {"name": "pilotage_get_guide", "arguments": {"language": "sql/1", "id": "core"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "no"}}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "x"}, "result": {"structuredContent": {"entry": {}, "catalog_version": "c"}}},
    {"name": "validate_q", "arguments": {"q": "select 1", "w": {}}, "result": {"structuredContent": {"valid": true}}},
    {"name": "run_w", "arguments": {"w": {"steps": []}}, "error": {"code": -32602, "message": "bad"},
     "probe": {"name": "execute-value-fault", "vector": "V-17", "defect": "trace_level-unknown"}},
    {"name": "trace_w", "arguments": {"run_id": "r1"}, "result": {"structuredContent": {"run_id": "r1", "outcome": {"ok": true}}}},
    {"name": "world_status", "arguments": {}, "result": {"structuredContent": {"time": "14:03"}}}
  ]
}`

func TestCallView(t *testing.T) {
	s, err := snapshot.Build(source.Parse("calls.json", []byte(callsDoc), source.Options{}), "")
	if err != nil {
		t.Fatal(err)
	}
	type view struct {
		op       snapshot.Op
		channel  snapshot.Channel
		lang     string
		arg      string
		programs int
		kind     string
		verb     string
	}
	want := []view{
		{snapshot.OpGuideIndex, snapshot.ChannelResult, "flow/1", "", 0, "", ""},
		{snapshot.OpGuideFetch, snapshot.ChannelRequestError, "sql/1", "", 0, "not_found", ""},
		{snapshot.OpCatalog, snapshot.ChannelResult, "flow/1", "", 0, "", "get"},
		// A shared tool with both program arguments: the first declared
		// one decides the Language, and both are counted.
		{snapshot.OpValidate, snapshot.ChannelResult, "sql/1", "q", 2, "", ""},
		{snapshot.OpExecute, snapshot.ChannelCarrier, "flow/1", "w", 1, "", ""},
		{snapshot.OpTraceFetch, snapshot.ChannelResult, "flow/1", "", 0, "", ""},
		{snapshot.OpOther, snapshot.ChannelResult, "", "", 0, "", ""},
	}
	if len(s.Calls) != len(want) {
		t.Fatalf("got %d calls, want %d", len(s.Calls), len(want))
	}
	for i, c := range s.Calls {
		lang := ""
		if c.Lang != nil {
			lang = c.Lang.Name
		}
		got := view{c.Op, c.Channel, lang, c.ProgramArg, c.Programs, c.ErrorKind, c.Verb}
		if got != want[i] {
			t.Errorf("call %d (%s): got %+v, want %+v", i, c.Name, got, want[i])
		}
	}
	p := s.Calls[4].Probe
	if p == nil || p.Name != "execute-value-fault" || p.Vector != "V-17" || p.Defect != "trace_level-unknown" {
		t.Errorf("probe tag not parsed: %+v", p)
	}
	if s.Calls[0].Probe != nil {
		t.Error("a call without a probe member has a probe tag")
	}
	if n := len(s.CallsOf(snapshot.OpExecute)); n != 1 {
		t.Errorf("CallsOf(execute) = %d calls, want 1", n)
	}
}
