package rulekit_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// predicateDoc holds one call for each answer the call predicates tell
// apart.
const predicateDoc = `{
  "tools": [
    {"name": "validate_w", "inputSchema": {"type": "object", "properties": {"w": {}, "context": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}},
    {"name": "run_w", "inputSchema": {"type": "object", "properties": {"w": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}}
  ],
  "manifest": {"pilotage": "1.1", "languages": [
    {"name": "flow/1", "loop": {"validate": "validate_w", "execute": "run_w"}}
  ]},
  "calls": [
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 5}, "result": {"structuredContent": {"items": [], "next_cursor": null, "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "q": "lamp"}, "result": {"structuredContent": {"items": [], "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "get", "id": "x"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "not_found", "message": "no"}, "catalog_version": "c2"}}},
    {"name": "validate_w", "arguments": {"w": {}, "context": null}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}},
    {"name": "validate_w", "arguments": {"w": {}, "context": {}}, "result": {"structuredContent": {"valid": false, "diagnostics": []}}},
    {"name": "run_w", "arguments": {"w": {}}, "result": {"structuredContent": {"run_id": "r1", "outcome": {"ok": false, "status": "failed", "error": "x"}}}},
    {"name": "run_w", "arguments": {"w": {}}, "result": {"structuredContent": {"run_id": "r2", "outcome": {"ok": false, "status": "catalog_drift", "error": "x"}}}},
    {"name": "run_w", "arguments": {"w": {}}, "result": {"structuredContent": {"run_id": "r3", "outcome": {"ok": true, "status": "success", "error": null}}}},
    {"name": "world_status", "arguments": {}, "result": {"structuredContent": {"time": "14:03"}}}
  ]
}`

func TestCallPredicates(t *testing.T) {
	s, err := snapshot.Build(source.Parse("calls.json", []byte(predicateDoc), source.Options{}), "")
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		accepted, started, read, complete bool
		cv                                string
	}
	wants := []want{
		{read: true, complete: true, cv: "c1"}, // a limit is no filter; next_cursor null is none
		{read: true, cv: "c1"},                 // q filters
		{read: true, cv: "c2"},                 // a failed get still reports its token
		{accepted: true, read: true},
		{read: true},
		{started: true}, // a Run that failed had started
		{},              // catalog_drift is a refusal: never started
		{accepted: true, started: true},
		{},
	}
	if len(s.Calls) != len(wants) {
		t.Fatalf("%d calls, want %d", len(s.Calls), len(wants))
	}
	for i, c := range s.Calls {
		cv, _ := rulekit.CatalogVersion(c)
		got := want{rulekit.Accepted(c), rulekit.Started(c), rulekit.Read(c), rulekit.CompleteListing(c), cv}
		if got != wants[i] {
			t.Errorf("call %d (%s): got %+v, want %+v", i, c.Name, got, wants[i])
		}
	}
	if rulekit.Present(s.Calls[3], "context") != nil || rulekit.Present(s.Calls[4], "context") == nil || rulekit.Present(s.Calls[4], "missing") != nil {
		t.Error("Present must read a null member as absent and a given one as given")
	}
}
