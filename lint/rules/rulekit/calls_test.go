package rulekit_test

import (
	"reflect"
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
		accepted, started, complete bool
		cv                          string
	}
	wants := []want{
		{complete: true, cv: "c1"}, // a limit is no filter; next_cursor null is none
		{cv: "c1"},                 // q filters
		{cv: "c2"},                 // a failed get still reports its token
		{accepted: true},
		{},
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
		got := want{rulekit.Accepted(c), rulekit.Started(c), rulekit.CompleteListing(c), cv}
		if got != wants[i] {
			t.Errorf("call %d (%s): got %+v, want %+v", i, c.Name, got, wants[i])
		}
	}
	if rulekit.Present(s.Calls[3], "context") != nil || rulekit.Present(s.Calls[4], "context") == nil || rulekit.Present(s.Calls[4], "missing") != nil {
		t.Error("Present must read a null member as absent and a given one as given")
	}
}

// listingsDoc holds, after one one-page listing and one filtered list, a
// three-page chain with another call between its pages, and then one
// chain for each way a chain can fail to be complete.
const listingsDoc = `{
  "tools": [
    {"name": "validate_w", "inputSchema": {"type": "object", "properties": {"w": {}}},
     "_meta": {"io.github.jafarsa0/pilotage": {"argument": "w", "language": "flow/1"}}}
  ],
  "manifest": {"pilotage": "1.1", "languages": [
    {"name": "flow/1", "loop": {"validate": "validate_w"}}
  ]},
  "calls": [
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 5}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": null, "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "q": "a"}, "result": {"structuredContent": {"items": [{"id": "a"}], "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 2}, "result": {"structuredContent": {"items": [{"id": "a"}, {"id": "b"}], "next_cursor": "p2", "catalog_version": "c1"}}},
    {"name": "validate_w", "arguments": {"w": {}}, "result": {"structuredContent": {"valid": true, "diagnostics": []}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 2, "cursor": "p2"}, "result": {"structuredContent": {"items": [{"id": "c"}, {"id": "d"}], "next_cursor": "p3", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"cursor": "p3", "verb": "list", "language": "flow/1", "limit": 2.0}, "result": {"structuredContent": {"items": [{"id": "e"}], "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "v2", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "v2"}, "result": {"structuredContent": {"items": [{"id": "b"}], "catalog_version": "c2"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "m2", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "m3"}, "result": {"structuredContent": {"items": [{"id": "c"}], "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "t2", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "t2"}, "result": {"structuredContent": {"items": [{"id": "b"}], "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "t2"}, "result": {"structuredContent": {"items": [{"id": "c"}], "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 1}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "l2", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "limit": 3, "cursor": "l2"}, "result": {"structuredContent": {"items": [{"id": "b"}], "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "b2"}, "result": {"structuredContent": {"items": [{"id": "b"}], "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "b2", "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": "e2", "catalog_version": "c1"}}},
    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list", "cursor": "e2"}, "result": {"isError": true, "structuredContent": {"error": {"kind": "invalid_request", "message": "bad cursor"}, "catalog_version": "c1"}}},

    {"name": "pilotage_catalog", "arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "a"}], "next_cursor": 2, "catalog_version": "c1"}}}
  ]
}`

func TestCompleteListings(t *testing.T) {
	s, err := snapshot.Build(source.Parse("listings.json", []byte(listingsDoc), source.Options{}), "")
	if err != nil {
		t.Fatal(err)
	}
	index := map[*snapshot.Call]int{}
	for i, c := range s.Calls {
		index[c] = i
	}
	type listing struct {
		pages []int
		cv    string
		ids   []string
	}
	// Only the one-page listing and the three-page chain are complete: a
	// filtered list, a page at another catalog_version, a missing page, a
	// cursor answered twice, a page with another limit, a page before its
	// predecessor, a failed page and a next_cursor that is no string all
	// leave a chain unjudged.
	want := []listing{
		{[]int{0}, "c1", []string{"a"}},
		{[]int{2, 4, 5}, "c1", []string{"a", "b", "c", "d", "e"}},
	}
	var got []listing
	for _, l := range rulekit.CompleteListings(s.Calls) {
		g := listing{cv: l.CatalogVersion}
		for _, p := range l.Pages {
			g.pages = append(g.pages, index[p])
		}
		for _, e := range l.Items {
			id, _ := e.Str("id")
			g.ids = append(g.ids, id)
		}
		if l.Lang != s.Language("flow/1") {
			t.Errorf("listing %v: Lang %v, want flow/1", g.pages, l.Lang)
		}
		if len(l.IDs) != len(g.ids) {
			t.Errorf("listing %v: IDs %v, want the ids of %v", g.pages, l.IDs, g.ids)
		}
		for _, id := range g.ids {
			if !l.IDs[id] {
				t.Errorf("listing %v: IDs lack %q", g.pages, id)
			}
		}
		got = append(got, g)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CompleteListings:\n got %+v\nwant %+v", got, want)
	}
	// Both listings show flow/1 at c1: the later one stands for it.
	by := rulekit.ByCatalog(rulekit.CompleteListings(s.Calls))
	if l := by[rulekit.ListingKey{Lang: s.Language("flow/1"), CatalogVersion: "c1"}]; len(by) != 1 || len(l.Pages) != 3 {
		t.Errorf("ByCatalog = %v", by)
	}
}
