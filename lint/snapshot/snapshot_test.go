package snapshot_test

import (
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// TestAccessors checks Tool, Language, Metas and FileOf on a snapshot
// built from two files (an input and a --manifest).
func TestAccessors(t *testing.T) {
	m := source.Parse("m.json", []byte(`{"pilotage": "1.1", "_meta": {}, "languages": [{"name": "a/1"}, 7, {"name": "b/1"}, {"title": "no name"}]}`), source.Options{})
	s, err := buildWith(t, "tools.json", `{"tools": [
  {"name": "dup", "inputSchema": {"type": "object"}, "_meta": {"x": 1}},
  {"name": "dup", "inputSchema": {"type": "object"}},
  {"name": "v", "inputSchema": {"type": "object", "properties": {"p": {"_meta": "not an object"}}}, "_meta": {"io.github.jafarsa0/pilotage": {"argument": "p", "language": "a/1"}, "nested": {"_meta": {}}}}
]}`, m)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Tool("dup"); got == nil || got.Node.Pointer() != "/tools/0" {
		t.Errorf("Tool(dup) is not the first of the two: %v", got)
	}
	if s.Tool("missing") != nil {
		t.Error("Tool(missing) is not nil")
	}
	// Index is the position in the languages array, non-objects counted.
	var langs []string
	for _, l := range s.Languages {
		langs = append(langs, fmt.Sprintf("%d:%q", l.Index, l.Name))
	}
	if got, want := strings.Join(langs, " "), `0:"a/1" 2:"b/1" 3:""`; got != want {
		t.Errorf("Languages %s, want %s", got, want)
	}
	// A Language without a usable name is labelled by its index.
	var labels []string
	for _, l := range s.Languages {
		labels = append(labels, l.Label())
	}
	if got, want := strings.Join(labels, " "), `a/1 b/1 languages[3]`; got != want {
		t.Errorf("Labels %s, want %s", got, want)
	}
	if l := s.Language("b/1"); l == nil || l.Index != 2 {
		t.Errorf("Language(b/1) = %+v", l)
	}
	if s.Language("c/1") != nil {
		t.Error("Language(c/1) is not nil")
	}
	// Every _meta object of both files, in document order; a _meta that
	// is not an object is none.
	var metas []string
	for _, n := range s.Metas() {
		metas = append(metas, s.FileOf(n).Name+"#"+n.Pointer())
	}
	want := []string{
		"tools.json#/tools/0/_meta",
		"tools.json#/tools/2/_meta",
		"tools.json#/tools/2/_meta/nested/_meta",
		"m.json#/_meta",
	}
	if !reflect.DeepEqual(metas, want) {
		t.Errorf("Metas %q, want %q", metas, want)
	}
	if f := s.FileOf(s.Manifest.Get("languages")); f == nil || f.Name != "m.json" {
		t.Errorf("FileOf(manifest node) = %v", f)
	}
	foreign := source.Parse("other.json", []byte(`{"a": 1}`), source.Options{})
	if f := s.FileOf(foreign.Docs[0].Root.Get("a")); f != nil {
		t.Errorf("FileOf(a node of another file) = %s", f.Name)
	}
	if d := s.Tool("v").ProgramDeclaration(); d.Pointer() != "/tools/2/_meta/io.github.jafarsa0~1pilotage" {
		t.Errorf("ProgramDeclaration at %q", d.Pointer())
	}
	var none *snapshot.Tool
	if none.ProgramDeclaration() != nil || s.Tool("dup").ProgramDeclaration() != nil {
		t.Error("ProgramDeclaration of a nil tool or a tool without one is not nil")
	}
}

// TestStateless checks which inputs are read as the stateless revision.
func TestStateless(t *testing.T) {
	const (
		init0 = `{"protocolVersion": %q, "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}`
		disc  = `{"supportedVersions": ["2026-07-28"], "capabilities": {}, "serverInfo": {"name": "s", "version": "1"}}`
	)
	for _, tc := range []struct {
		name, data string
		want       bool
	}{
		{"discover result", disc, true},
		{"snapshot with discover only", `{"discover": ` + disc + `}`, true},
		{"initialize 2025-11-25", fmt.Sprintf(init0, "2025-11-25"), false},
		{"initialize 2026-07-28", fmt.Sprintf(init0, "2026-07-28"), true},
		{"snapshot with initialize and discover", `{"initialize": ` + fmt.Sprintf(init0, "2025-06-18") + `, "discover": ` + disc + `}`, false},
		{"manifest alone", `{"pilotage": "1.1", "languages": []}`, false},
		{"tools alone", `{"tools": []}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := build(t, "in.json", tc.data, "")
			if err != nil {
				t.Fatal(err)
			}
			if got := s.Stateless(); got != tc.want {
				t.Errorf("Stateless() = %v, want %v (revision %q)", got, tc.want, s.Revision)
			}
		})
	}
	// A snapshot built by hand with a discover result and no revision.
	s := &snapshot.Snapshot{Discover: &source.Node{Kind: source.Object}}
	if !s.Stateless() {
		t.Error("discover without initialize and without a revision is not stateless")
	}
}

// TestCapabilities checks the effective capability map of each Language:
// a Language-level entry replaces the Server-level one in full, the
// governing node is the one that replaced, and a declaration exists when
// either level has one.
func TestCapabilities(t *testing.T) {
	s, err := build(t, "m.json", `{"pilotage": "1.1",
 "capabilities": {"guides": true, "catalog": {"search": true}, "execute": true},
 "languages": [
  {"name": "a/1", "capabilities": {"catalog": {"changed_since": true}, "execute": false}},
  {"name": "b/1"},
  {"name": "c/1", "capabilities": {}}
 ]}`, "")
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		lang, cap, sub string
		declared, subF bool
		decl           string // pointer of the governing node, or "-"
	}
	var got []row
	for _, l := range s.Languages {
		for _, c := range []struct{ cap, sub string }{{"guides", ""}, {"catalog", "search"}, {"catalog", "changed_since"}, {"execute", ""}, {"plan", ""}} {
			r := row{lang: l.Name, cap: c.cap, sub: c.sub, declared: l.Caps.Declared(c.cap), decl: "-"}
			if c.sub != "" {
				r.subF = l.Caps.SubFeature(c.cap, c.sub)
			}
			if d := l.Caps.Decl(c.cap); d != nil {
				r.decl = d.Pointer()
			}
			got = append(got, r)
		}
		if !l.Caps.Exists() {
			t.Errorf("%s: no declaration, yet the Server declares one", l.Name)
		}
	}
	want := []row{
		{"a/1", "guides", "", true, false, "/capabilities/guides"},
		{"a/1", "catalog", "search", true, false, "/languages/0/capabilities/catalog"}, // replaced in full
		{"a/1", "catalog", "changed_since", true, true, "/languages/0/capabilities/catalog"},
		{"a/1", "execute", "", false, false, "/languages/0/capabilities/execute"},
		{"a/1", "plan", "", false, false, "-"},
		{"b/1", "guides", "", true, false, "/capabilities/guides"},
		{"b/1", "catalog", "search", true, true, "/capabilities/catalog"},
		{"b/1", "catalog", "changed_since", true, false, "/capabilities/catalog"},
		{"b/1", "execute", "", true, false, "/capabilities/execute"},
		{"b/1", "plan", "", false, false, "-"},
		{"c/1", "guides", "", true, false, "/capabilities/guides"},
		{"c/1", "catalog", "search", true, true, "/capabilities/catalog"},
		{"c/1", "catalog", "changed_since", true, false, "/capabilities/catalog"},
		{"c/1", "execute", "", true, false, "/capabilities/execute"},
		{"c/1", "plan", "", false, false, "-"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got  %+v\nwant %+v", got, want)
	}

	// Without a Server-level declaration, only a Language's own counts.
	s, err = build(t, "m.json", `{"pilotage": "1.1", "capabilities": "all", "languages": [{"name": "a/1"}, {"name": "b/1", "capabilities": {}}, {"name": "c/1", "capabilities": []}]}`, "")
	if err != nil {
		t.Fatal(err)
	}
	var exists []string
	for _, l := range s.Languages {
		exists = append(exists, fmt.Sprintf("%s=%v", l.Name, l.Caps.Exists()))
	}
	if got, want := strings.Join(exists, " "), "a/1=false b/1=true c/1=false"; got != want {
		t.Errorf("Exists: %s, want %s", got, want)
	}
}

func describeLoops(lts []*snapshot.LoopTool) []string {
	var out []string
	for _, lt := range lts {
		var stages []string
		for st, langs := range lt.Stages {
			var names []string
			for _, l := range langs {
				names = append(names, l.Name)
			}
			stages = append(stages, string(st)+"["+strings.Join(names, ",")+"]")
		}
		sort.Strings(stages)
		one, ok := lt.Stage()
		out = append(out, fmt.Sprintf("%s tool=%v stages=%s stage=%s/%v", lt.Name, lt.Tool != nil, strings.Join(stages, " "), one, ok))
	}
	return out
}

// TestLoopTools checks the loop tools read from a manifest (sorted by name,
// shared between Languages, one tool for two stages, named but not listed)
// and that without a manifest there are none, whatever the tools declare.
func TestLoopTools(t *testing.T) {
	const tools = `{"tools": [
 {"name": "check", "inputSchema": {"type": "object"}},
 {"name": "run", "inputSchema": {"type": "object"}},
 {"name": "trace_run", "inputSchema": {"type": "object"}}
]}`
	m := `{"pilotage": "1.1", "languages": [
 {"name": "a/1", "loop": {"validate": "check", "execute": "run", "trace": "trace_run", "plan": "planner"}},
 {"name": "b/1", "loop": {"validate": "check", "execute": "check", "trace": 5}},
 {"name": "c/1", "loop": {"validate": "ghost", "execute": ""}},
 {"name": "d/1", "loop": "check"}
]}`
	s, err := buildWith(t, "tools.json", tools, source.Parse("m.json", []byte(m), source.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"check tool=true stages=execute[b/1] validate[a/1,b/1] stage=/false",
		"ghost tool=false stages=validate[c/1] stage=validate/true",
		"run tool=true stages=execute[a/1] stage=execute/true",
		"trace_run tool=true stages=trace[a/1] stage=trace/true",
	}
	if got := describeLoops(s.LoopTools()); !reflect.DeepEqual(got, want) {
		t.Errorf("from the manifest:\ngot  %q\nwant %q", got, want)
	}
	if lt := s.LoopTools()[0]; !lt.Serves(types.StageExecute) || !lt.Serves(types.StageValidate) || lt.Serves(types.StageTraceFetch) {
		t.Errorf("Serves of check: %+v", lt.Stages)
	}

	// Without a manifest the stage is read from each tool.
	const decl = `"_meta": {"io.github.jafarsa0/pilotage": {"argument": "flow", "language": "a/1"}}`
	s, err = build(t, "tools.json", `{"tools": [
 {"name": "validate_flow", "inputSchema": {"type": "object", "properties": {"flow": {}}}, `+decl+`},
 {"name": "run_flow", "inputSchema": {"type": "object", "properties": {"flow": {}, "program_ref": {"type": "string"}}}, `+decl+`},
 {"name": "run_test", "inputSchema": {"type": "object", "properties": {"flow": {}, "test_run": {"type": "boolean"}}}, `+decl+`},
 {"name": "trace_run", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}},
 {"name": "trace_flow", "inputSchema": {"type": "object", "properties": {"run_id": {"type": "string"}}}, `+decl+`},
 {"name": "plain", "inputSchema": {"type": "object", "properties": {"q": {}}}},
 {"name": "shorthand", "inputSchema": {"type": "object", "properties": {"flow": {}}}, "_meta": {"pilotage": {"argument": "flow"}}}
]}`, "")
	if err != nil {
		t.Fatal(err)
	}
	// Argument names and program declarations make no loop tool: only a
	// manifest's loop map does.
	if got := describeLoops(s.LoopTools()); len(got) != 0 {
		t.Errorf("without a manifest: got %q, want none", got)
	}
}

// TestReadOnlyAfterBuild: every view is computed in Build, so readers on
// many goroutines share one Snapshot without a lock (run with -race).
func TestReadOnlyAfterBuild(t *testing.T) {
	m := source.Parse("m.json", []byte(`{"pilotage": "1.1", "languages": [{"name": "a/1", "loop": {"validate": "v"}}]}`), source.Options{})
	s, err := buildWith(t, "tools.json", `{"tools": [{"name": "v", "inputSchema": {"type": "object"}, "_meta": {}}]}`, m)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan bool)
	for range 4 {
		go func() {
			ok := s.Tool("v") != nil && len(s.LoopTools()) == 1 && len(s.Metas()) == 1 && s.Language("a/1") != nil && len(s.ExtensionMaps()) == 0
			done <- ok
		}()
	}
	for range 4 {
		if !<-done {
			t.Error("a reader saw an incomplete view")
		}
	}
}
