package lint_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// reportAt is a rule that reports at each pointer that resolves in the
// first document of every file of the snapshot (the input, and the
// --manifest file when one was added).
func reportAt(id string, pointers ...string) *lint.Rule {
	return &lint.Rule{ID: id, Severity: lint.Warning, Spec: "test", Check: func(p *lint.Pass) {
		for _, f := range p.Snap.Files {
			if len(f.Docs) == 0 {
				continue
			}
			for _, ptr := range pointers {
				if n, ok := f.Docs[0].Root.Resolve(ptr); ok {
					p.Report(n, "%s at %s", id, ptr)
				}
			}
		}
	}}
}

// brief renders findings as "file:line:col rule pointer", the part of a
// finding the engine (rather than a rule's message) decides.
func brief(fs []lint.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.File, f.Line, f.Column, f.Rule, f.Pointer))
	}
	return out
}

func run(t *testing.T, ins []lint.Input, opt *lint.Options) *lint.Result {
	t.Helper()
	res, err := lint.Run(context.Background(), ins, opt)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const (
	// toolsDoc ends with a Pilotage signal, after every value the tests
	// point at, so that the rules judge it.
	toolsDoc    = `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}, {"name": "b", "inputSchema": {"type": "object"}}], "_meta": {"io.github.jafarsa0/pilotage": {}}}`
	manifestDoc = `{"pilotage": "1.1", "languages": [{"name": "flow/1"}]}`
)

func TestSelect(t *testing.T) {
	all := []*lint.Rule{
		{ID: "a", Severity: lint.Error},
		{ID: "b", Severity: lint.Warning},
		{ID: "c", Severity: lint.Info},
	}
	for _, tc := range []struct {
		name string
		sel  lint.Selection
		want string // "id=severity ..." in registry order
		err  string
	}{
		{name: "default: all, default severities", want: "a=error b=warning c=info"},
		{name: "disable", sel: lint.Selection{Disable: []string{"b"}}, want: "a=error c=info"},
		{name: "enable only", sel: lint.Selection{Enable: []string{"c", "a"}}, want: "a=error c=info"},
		{name: "disable wins over enable", sel: lint.Selection{Enable: []string{"a", "b"}, Disable: []string{"a"}}, want: "b=warning"},
		{name: "severity", sel: lint.Selection{Severity: map[string]lint.Severity{"a": lint.Info, "c": lint.Error}}, want: "a=info b=warning c=error"},
		{name: "severity of a disabled rule", sel: lint.Selection{Disable: []string{"a"}, Severity: map[string]lint.Severity{"a": lint.Info}}, want: "b=warning c=info"},
		{name: "unknown enable", sel: lint.Selection{Enable: []string{"a", "zz"}}, err: "enable: unknown rule \"zz\" (see `pilotage-lint rules`)"},
		{name: "unknown disable", sel: lint.Selection{Disable: []string{"zz"}}, err: "disable: unknown rule \"zz\" (see `pilotage-lint rules`)"},
		// Several unknown severities: the first in sorted order is named,
		// whatever the map's iteration order.
		{name: "unknown severity", sel: lint.Selection{Severity: map[string]lint.Severity{"zz": lint.Info, "yy": lint.Info, "a": lint.Info}}, err: "severity: unknown rule \"yy\" (see `pilotage-lint rules`)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 5 {
				got, err := lint.Select(all, tc.sel)
				if tc.err != "" {
					if err == nil || err.Error() != tc.err || got != nil {
						t.Fatalf("got %v, %v; want error %q", got, err, tc.err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				var s []string
				for _, r := range got {
					s = append(s, r.ID+"="+r.Severity.String())
				}
				if strings.Join(s, " ") != tc.want {
					t.Fatalf("got %q, want %q", strings.Join(s, " "), tc.want)
				}
			}
		})
	}
	// Select hands out copies: the registry keeps its defaults.
	if all[0].Severity != lint.Error || all[2].Severity != lint.Info {
		t.Errorf("Select changed the rules it was given: %+v %+v", all[0], all[2])
	}
}

func TestIgnores(t *testing.T) {
	ins := []lint.Input{
		{Name: "servers/a/tools.json", Data: []byte(toolsDoc), Explicit: true},
		{Name: "servers/b/tools.json", Data: []byte(toolsDoc), Explicit: true},
		{Name: "servers/ab/tools.json", Data: []byte(toolsDoc), Explicit: true},
	}
	r1 := reportAt("r1", "/tools/0/name", "/tools/1")
	r2 := reportAt("r2", "/tools/0")
	all := []string{
		"servers/a/tools.json:1:12 r2 /tools/0",
		"servers/a/tools.json:1:21 r1 /tools/0/name",
		"servers/a/tools.json:1:62 r1 /tools/1",
		"servers/ab/tools.json:1:12 r2 /tools/0",
		"servers/ab/tools.json:1:21 r1 /tools/0/name",
		"servers/ab/tools.json:1:62 r1 /tools/1",
		"servers/b/tools.json:1:12 r2 /tools/0",
		"servers/b/tools.json:1:21 r1 /tools/0/name",
		"servers/b/tools.json:1:62 r1 /tools/1",
	}
	without := func(drop ...int) []string {
		var out []string
		for i, s := range all {
			if !contains(drop, i) {
				out = append(out, s)
			}
		}
		return out
	}
	for _, tc := range []struct {
		name    string
		ignores []lint.Ignore
		want    []string
	}{
		{name: "none", want: all},
		{name: "rule everywhere", ignores: []lint.Ignore{{Rule: "r1"}}, want: without(1, 2, 4, 5, 7, 8)},
		{name: "star is every rule", ignores: []lint.Ignore{{Rule: "*", Path: "servers/b/tools.json"}}, want: without(6, 7, 8)},
		{name: "empty rule is every rule", ignores: []lint.Ignore{{Path: "servers/b/tools.json"}}, want: without(6, 7, 8)},
		{name: "path glob", ignores: []lint.Ignore{{Rule: "r2", Path: "servers/*/tools.json"}}, want: without(0, 3, 6)},
		{name: "glob does not cross folders", ignores: []lint.Ignore{{Path: "servers/*.json"}}, want: all},
		// A folder prefix covers the files under it, not a folder whose
		// name merely starts with it (servers/ab is not under servers/a).
		{name: "folder prefix", ignores: []lint.Ignore{{Path: "servers/a"}}, want: without(0, 1, 2)},
		{name: "folder prefix with slash", ignores: []lint.Ignore{{Path: "servers/a/"}}, want: without(0, 1, 2)},
		{name: "folder above", ignores: []lint.Ignore{{Rule: "r1", Path: "servers"}}, want: without(1, 2, 4, 5, 7, 8)},
		// A pointer prefix covers the value and everything inside it, not
		// a sibling whose token merely starts with it (/tools/1 is not
		// under /tools/0, and /tools/0 not under /tools/0/name).
		{name: "pointer prefix", ignores: []lint.Ignore{{Pointer: "/tools/0"}}, want: without(0, 1, 3, 4, 6, 7)},
		{name: "pointer exact leaf", ignores: []lint.Ignore{{Pointer: "/tools/0/name"}}, want: without(1, 4, 7)},
		{name: "pointer prefix with slash", ignores: []lint.Ignore{{Pointer: "/tools/"}}, want: []string{}},
		{name: "pointer token prefix is no prefix", ignores: []lint.Ignore{{Pointer: "/tool"}}, want: all},
		{name: "all three", ignores: []lint.Ignore{{Rule: "r1", Path: "servers/b", Pointer: "/tools/1"}}, want: without(8)},
		{name: "rule mismatch keeps", ignores: []lint.Ignore{{Rule: "r3", Path: "servers/b"}}, want: all},
		{name: "several ignores", ignores: []lint.Ignore{{Rule: "r2"}, {Pointer: "/tools/1"}}, want: []string{all[1], all[4], all[7]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, ins, &lint.Options{Rules: []*lint.Rule{r1, r2}, Ignores: tc.ignores})
			if got := brief(res.Findings); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
	// Engine findings are ignorable like any other.
	res := run(t, []lint.Input{{Name: "x.json", Data: []byte(`{"name": "x"}`), Explicit: true}},
		&lint.Options{Rules: lint.EngineRules(), Ignores: []lint.Ignore{{Rule: "input-kind", Path: "x.json"}}})
	if len(res.Findings) != 0 {
		t.Errorf("input-kind not ignored: %q", brief(res.Findings))
	}
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// TestManifestFlag checks --manifest through Run: it completes the inputs
// that lack a manifest and is listed among the files; findings in it are
// reported once however many inputs share it; an input's own manifest is
// kept; a --manifest that is not a manifest is an input-kind finding in it.
func TestManifestFlag(t *testing.T) {
	manifestRule := &lint.Rule{ID: "manifest-seen", Severity: lint.Warning, Spec: "test", Check: func(p *lint.Pass) {
		p.Report(p.Snap.Manifest.Get("pilotage"), "manifest version")
	}}
	toolRule := reportAt("tool-seen", "/tools/0")
	rs := append([]*lint.Rule{manifestRule, toolRule}, lint.EngineRules()...)
	for _, tc := range []struct {
		name     string
		ins      []lint.Input
		manifest string
		want     []string
		files    []lint.FileInfo
		msg      string // the message of the input-kind finding, if any
	}{
		{
			name:     "shared by two inputs",
			ins:      []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}, {Name: "b.json", Data: []byte(toolsDoc)}},
			manifest: manifestDoc,
			want: []string{
				"a.json:1:12 tool-seen /tools/0",
				"b.json:1:12 tool-seen /tools/0",
				"m.json:1:14 manifest-seen /pilotage",
			},
			files: []lint.FileInfo{{Path: "a.json", Kind: snapshot.KindToolsList}, {Path: "b.json", Kind: snapshot.KindToolsList}, {Path: "m.json", Kind: snapshot.KindManifest}},
		},
		{
			name:     "input's own manifest kept",
			ins:      []lint.Input{{Name: "s.json", Data: []byte(`{"manifest": {"pilotage": "1.0", "languages": []}, "tools": ` + toolsDoc + `}`)}},
			manifest: manifestDoc,
			want:     []string{"s.json:1:27 manifest-seen /manifest/pilotage"}, // nothing in m.json
			files:    []lint.FileInfo{{Path: "m.json", Kind: snapshot.KindManifest}, {Path: "s.json", Kind: snapshot.KindSnapshot}},
		},
		{
			name:     "not a manifest, shared by two inputs",
			ins:      []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}, {Name: "b.json", Data: []byte(toolsDoc)}},
			manifest: toolsDoc,
			want: []string{
				"a.json:1:12 tool-seen /tools/0",
				"b.json:1:12 tool-seen /tools/0",
				"m.json:1:1 input-kind ", // a rejected file stays out of the snapshots
			},
			files: []lint.FileInfo{{Path: "a.json", Kind: snapshot.KindToolsList}, {Path: "b.json", Kind: snapshot.KindToolsList}, {Path: "m.json", Kind: snapshot.KindToolsList}},
			msg:   "m.json: --manifest expects a manifest or a pilotage_manifest result",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The skip message differs by nothing between inputs, so the
			// cross-checks finding is made deterministic by a rule of ours.
			skipper := &lint.Rule{ID: "skipper", Severity: lint.Info, Spec: "test", Check: func(p *lint.Pass) {
				if p.Snap.Initialize == nil {
					p.Skip("initialize")
				}
			}}
			res := run(t, tc.ins, &lint.Options{Rules: append(rs, skipper), Manifest: &lint.Input{Name: "m.json", Data: []byte(tc.manifest)}})
			if got := brief(res.Findings); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if !reflect.DeepEqual(res.Files, tc.files) {
				t.Errorf("files %+v, want %+v", res.Files, tc.files)
			}
			for _, f := range res.Findings {
				if f.Rule == lint.InputKindRule.ID && f.Message != tc.msg {
					t.Errorf("input-kind message %q, want %q", f.Message, tc.msg)
				}
			}
		})
	}
}

// TestFallbackDropped checks that a Fallback rule's finding is dropped
// where a specific rule reported the same pointer of the same file, and
// kept elsewhere: at another pointer, in another file, and where only
// another fallback rule reported.
func TestFallbackDropped(t *testing.T) {
	specific := reportAt("specific", "/tools/0")
	shape := reportAt("shape", "/tools/0", "/tools/1")
	shape.Fallback = true
	shape2 := reportAt("shape2", "/tools/1")
	shape2.Fallback = true
	ins := []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}, {Name: "b.json", Data: []byte(`{"tools": []}`)}}
	res := run(t, ins, &lint.Options{Rules: []*lint.Rule{shape, shape2, specific}})
	want := []string{
		"a.json:1:12 specific /tools/0",
		"a.json:1:62 shape /tools/1",
		"a.json:1:62 shape2 /tools/1",
	}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// Without the specific rule the fallback's finding stands.
	res = run(t, ins, &lint.Options{Rules: []*lint.Rule{shape}})
	want = []string{"a.json:1:12 shape /tools/0", "a.json:1:62 shape /tools/1"}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("without the specific rule: got %q\nwant %q", got, want)
	}
	// The specific finding in one file does not cover the other file.
	onlyA := &lint.Rule{ID: "specific", Severity: lint.Warning, Spec: "test", Check: func(p *lint.Pass) {
		if p.Snap.Files[0].Name == "a.json" {
			specific.Check(p)
		}
	}}
	ins[1] = lint.Input{Name: "b.json", Data: []byte(toolsDoc)}
	res = run(t, ins, &lint.Options{Rules: []*lint.Rule{shape, onlyA}})
	want = []string{
		"a.json:1:12 specific /tools/0",
		"a.json:1:62 shape /tools/1",
		"b.json:1:12 shape /tools/0",
		"b.json:1:62 shape /tools/1",
	}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("across files: got %q\nwant %q", got, want)
	}
}

// TestUnrecognizedInputs checks that an input that is no Pilotage surface
// gets only the Syntax rules and an input-kind finding when it was named,
// and nothing at all when a directory walk met it; a walked file that does
// not even parse still gets its syntax finding when it names MCP members.
func TestUnrecognizedInputs(t *testing.T) {
	syntax := reportAt("syntax", "", "/name")
	syntax.Syntax = true
	semantic := reportAt("semantic", "", "/name")
	rs := append([]*lint.Rule{syntax, semantic}, lint.EngineRules()...)
	jsonSyntax := rules.ByID("json-syntax")
	if jsonSyntax == nil || !jsonSyntax.Syntax {
		t.Fatal("json-syntax is not a Syntax rule")
	}
	rs = append(rs, jsonSyntax, rules.ByID("json-trailing-data"))
	pkg := []byte(`{"name": "harborview", "version": "2.4.0"}`)
	for _, tc := range []struct {
		name string
		in   lint.Input
		want []string
		kind snapshot.Kind
		// quiet inputs carry no Pilotage signal, so no rule judges them.
		quiet bool
	}{
		{name: "named", in: lint.Input{Name: "package.json", Data: pkg, Explicit: true}, kind: snapshot.KindUnknown,
			want: []string{"package.json:1:1 input-kind "}, quiet: true},
		{name: "named, Pilotage signal", in: lint.Input{Name: "package.json", Data: []byte(`{"name": "harborview", "_meta": {"io.github.jafarsa0/pilotage": {}}}`), Explicit: true}, kind: snapshot.KindUnknown,
			want: []string{"package.json:1:1 input-kind ", "package.json:1:1 syntax ", "package.json:1:10 syntax /name"}},
		{name: "walked", in: lint.Input{Name: "package.json", Data: pkg}, kind: snapshot.KindUnknown, want: []string{}},
		// A file that does not parse fails closed: it is a json-syntax
		// error whenever it was named, forced, or walked under a name no
		// JSON-with-comments or MCP client config has, Pilotage word or not.
		{name: "walked, broken", in: lint.Input{Name: "broken.json", Data: []byte(`{"name": `)}, kind: snapshot.KindUnknown,
			want: []string{"broken.json:1:10 json-syntax "}},
		{name: "walked, broken Pilotage", in: lint.Input{Name: "broken.json", Data: []byte(`{"pilotage": `)}, kind: snapshot.KindUnknown,
			want: []string{"broken.json:1:14 json-syntax "}},
		{name: "walked tsconfig with comments", in: lint.Input{Name: "tsconfig.json", Data: []byte("{\n  // strict\n  \"compilerOptions\": {}\n}\n")}, kind: snapshot.KindUnknown, want: []string{}},
		{name: "walked tsconfig.base with comments", in: lint.Input{Name: "web/tsconfig.base.json", Data: []byte("{\n  // strict\n}\n")}, kind: snapshot.KindUnknown, want: []string{}},
		{name: "walked MCP client config with comments", in: lint.Input{Name: "x/mcp.json", Data: []byte("{\n  // servers\n  \"servers\": {}\n}\n")}, kind: snapshot.KindUnknown, want: []string{}},
		{name: "walked, broken MCP", in: lint.Input{Name: "broken.json", Data: []byte(`{"tools": [{"name": "a", "inputSchema": `)}, kind: snapshot.KindUnknown,
			want: []string{"broken.json:1:41 json-syntax "}},
		{name: "walked, truncated snapshot", in: lint.Input{Name: "snaps/server.json", Data: []byte("{\n  \"tools\": {\n    \"tools\": [\n      {\"name\": \"a\", \"inputSchema\": {\"type\": \"obj")}, kind: snapshot.KindUnknown,
			want: []string{"snaps/server.json:4:45 json-syntax "}},
		{name: "named, truncated snapshot, client-config name", in: lint.Input{Name: "mcp.json", Data: []byte(`{"tools": {"tools": [`), Explicit: true}, kind: snapshot.KindUnknown,
			want: []string{"mcp.json:1:22 json-syntax "}},
		{name: "walked, broken Pilotage MCP", in: lint.Input{Name: "broken.json", Data: []byte(`{"tools": [{"name": "pilotage_manifest", "inputSchema": `)}, kind: snapshot.KindUnknown,
			want: []string{"broken.json:1:57 json-syntax "}},
		{name: "walked, trailing data", in: lint.Input{Name: "t.json", Data: []byte(`{"tools": []} }`)}, kind: snapshot.KindToolsList,
			want: []string{"t.json:1:1 syntax ", "t.json:1:15 json-trailing-data "}},
		{name: "named JSON Lines log", in: lint.Input{Name: "app.jsonl", Data: []byte("{\"level\": \"info\"}\n{\"level\": \"warn\"}\n"), Explicit: true}, kind: snapshot.KindUnknown,
			want: []string{"app.jsonl:1:1 input-kind "}, quiet: true},
		{name: "walked JSON Lines log", in: lint.Input{Name: "app.jsonl", Data: []byte("{\"level\": \"info\"}\n{\"level\": \"warn\"}\n")}, kind: snapshot.KindUnknown, want: []string{}},
		// A recognized input gets both kinds of rules.
		{name: "recognized", in: lint.Input{Name: "m.json", Data: []byte(`{"pilotage": "1.1", "name": "x"}`)}, kind: snapshot.KindManifest,
			want: []string{"m.json:1:1 semantic ", "m.json:1:1 syntax ", "m.json:1:29 semantic /name", "m.json:1:29 syntax /name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, []lint.Input{tc.in}, &lint.Options{Rules: rs})
			if got := brief(res.Findings); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
			if want := []lint.FileInfo{{Path: tc.in.Name, Kind: tc.kind, NoPilotage: tc.quiet}}; !reflect.DeepEqual(res.Files, want) {
				t.Errorf("files %+v, want %+v", res.Files, want)
			}
		})
	}
}

// TestForcedKindThroughRun checks that --input-kind reaches every input
// and that a kind that does not fit is an input-kind finding.
func TestForcedKindThroughRun(t *testing.T) {
	ins := []lint.Input{{Name: "t.json", Data: []byte(toolsDoc), Explicit: true}, {Name: "m.json", Data: []byte(manifestDoc), Explicit: true}}
	res := run(t, ins, &lint.Options{Rules: lint.EngineRules(), InputKind: snapshot.KindToolsList})
	want := []string{"m.json:1:1 input-kind "}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if msg := res.Findings[0].Message; msg != `forced input kind "tools-list" does not fit this document, which looks like "manifest"` {
		t.Errorf("message %q", msg)
	}
	// A manifest read as a tool list shows no Pilotage surface.
	wantFiles := []lint.FileInfo{{Path: "m.json", Kind: snapshot.KindToolsList, NoPilotage: true}, {Path: "t.json", Kind: snapshot.KindToolsList}}
	if !reflect.DeepEqual(res.Files, wantFiles) {
		t.Errorf("files %+v", res.Files)
	}
	// An unknown kind: the finding, and the file reported with that kind.
	res = run(t, ins[:1], &lint.Options{Rules: lint.EngineRules(), InputKind: "yaml"})
	if got := brief(res.Findings); !reflect.DeepEqual(got, []string{"t.json:1:1 input-kind "}) || res.Files[0].Kind != "yaml" {
		t.Errorf("unknown kind: %q %+v", got, res.Files)
	}
}

// TestSkippedCrossChecks checks that the cross-checks a rule could not run
// are said once per input, sorted and without repeats, in Result.Skipped
// and never as a finding, so --fail-on info does not fail on them.
func TestSkippedCrossChecks(t *testing.T) {
	skip := func(id string, what ...string) *lint.Rule {
		return &lint.Rule{ID: id, Severity: lint.Error, Spec: "test", Check: func(p *lint.Pass) {
			for _, w := range what {
				p.Skip(w)
			}
		}}
	}
	rs := []*lint.Rule{skip("r1", "the tools", "the initialize result"), skip("r2", "the tools", "a call")}
	in := []lint.Input{{Name: "m.json", Data: []byte(manifestDoc)}, {Name: "n.json", Data: []byte(manifestDoc)}}
	res := run(t, in, &lint.Options{Rules: append(rs, lint.EngineRules()...)})
	if len(res.Findings) != 0 {
		t.Fatalf("findings %q", brief(res.Findings))
	}
	want := []lint.Skipped{{File: "m.json", Checks: []string{"a call", "the initialize result", "the tools"}}, {File: "n.json", Checks: []string{"a call", "the initialize result", "the tools"}}}
	if !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("skipped %+v", res.Skipped)
	}
}

// TestSkipAt checks that a value a rule could not judge is said among the
// skipped cross-checks and kept, with its pointer and rule, in
// FileInfo.Unjudged, for the probe coverage; a value of the --manifest,
// another file, is said but not kept against the input.
func TestSkipAt(t *testing.T) {
	judge := &lint.Rule{ID: "judge", Severity: lint.Error, Spec: "test", Check: func(p *lint.Pass) {
		p.SkipAt(p.Snap.Tools[0].Node, "the first tool, because it is opaque")
		p.SkipAt(p.Snap.Manifest.Get("pilotage"), "the manifest's version")
	}}
	res := run(t, []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}}, &lint.Options{Rules: append([]*lint.Rule{judge}, lint.EngineRules()...), Manifest: &lint.Input{Name: "m.json", Data: []byte(manifestDoc)}})
	if want := []lint.Skipped{{File: "a.json", Checks: []string{"the first tool, because it is opaque", "the manifest's version"}}}; !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("skipped %+v", res.Skipped)
	}
	var got []lint.Unjudged
	for _, fi := range res.Files {
		got = append(got, fi.Unjudged...)
	}
	if want := []lint.Unjudged{{Pointer: "/tools/0", Rule: "judge", What: "the first tool, because it is opaque"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("unjudged %+v, want %+v", got, want)
	}
	if res.Manifest != "m.json" {
		t.Errorf("Result.Manifest %q", res.Manifest)
	}
}

// TestPanickingRule checks that a rule that panics costs one internal-error
// finding per input, naming the rule, and the other rules still report.
func TestPanickingRule(t *testing.T) {
	t.Setenv("PILOTAGE_LINT_DEBUG_PANIC", "")
	boom := &lint.Rule{ID: "boom", Severity: lint.Warning, Spec: "test", Check: func(p *lint.Pass) {
		p.Report(p.Snap.ToolsArray, "before the panic")
		var tools []*snapshot.Tool
		_ = tools[3].Name
	}}
	rs := []*lint.Rule{boom, reportAt("after", "/tools/1"), lint.InternalRule}
	ins := []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}, {Name: "b.json", Data: []byte(toolsDoc)}}
	res := run(t, ins, &lint.Options{Rules: rs})
	want := []string{
		"a.json:1:1 internal-error ",
		"a.json:1:11 boom /tools", // what it reported before it failed stands
		"a.json:1:62 after /tools/1",
		"b.json:1:1 internal-error ",
		"b.json:1:11 boom /tools",
		"b.json:1:62 after /tools/1",
	}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	for _, f := range res.Findings {
		if f.Rule == "internal-error" && (f.Severity != lint.Error || !strings.HasPrefix(f.Message, "rule boom failed on this input (runtime error: index out of range [3] with length 0)")) {
			t.Errorf("internal-error finding %+v", f)
		}
	}
}

// TestDeterministic lints every input of fixtures/inputs and the examples
// with all rules, in several orders and with 1 and 4 workers, and demands
// identical results.
func TestDeterministic(t *testing.T) {
	var ins []lint.Input
	for _, dir := range []string{"../fixtures/inputs", "../fixtures/examples"} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) == ".golden" {
				return err
			}
			data, err := os.ReadFile(p)
			ins = append(ins, lint.Input{Name: strings.TrimPrefix(p, "../"), Data: data, Explicit: true})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(ins) < 20 {
		t.Fatalf("only %d inputs", len(ins))
	}
	manifest := &lint.Input{Name: "fixtures/inputs/manifest-flag/tools.manifest.json"}
	for _, in := range ins {
		if in.Name == manifest.Name {
			manifest.Data = in.Data
		}
	}
	var first *lint.Result
	for i, order := range [][]int{nil, reversed(len(ins)), rotated(len(ins), 7)} {
		for _, jobs := range []int{1, 4} {
			batch := make([]lint.Input, len(ins))
			for j := range ins {
				if order == nil {
					batch[j] = ins[j]
				} else {
					batch[j] = ins[order[j]]
				}
			}
			res := run(t, batch, &lint.Options{Rules: rules.All(), Jobs: jobs, Manifest: manifest})
			if first == nil {
				first = res
				if !sort.SliceIsSorted(res.Files, func(a, b int) bool { return res.Files[a].Path < res.Files[b].Path }) {
					t.Error("files not sorted")
				}
				continue
			}
			if !reflect.DeepEqual(res, first) {
				t.Errorf("order %d, jobs %d: result differs", i, jobs)
			}
		}
	}
	if len(first.Findings) == 0 {
		t.Error("no findings: the comparison proves nothing")
	}
	// Release frees each text once linted; what the run reports must not
	// depend on it (a finding still quotes text of the file it is on).
	batch := slices.Clone(ins)
	res := run(t, batch, &lint.Options{Rules: rules.All(), Jobs: 4, Manifest: manifest, Release: true})
	runtime.GC()
	if !reflect.DeepEqual(res, first) {
		t.Error("Release: result differs")
	}
	for _, in := range batch {
		if in.Data != nil {
			t.Errorf("Release kept the text of %s", in.Name)
			break
		}
	}
}

func reversed(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = n - 1 - i
	}
	return out
}

func rotated(n, k int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = (i + k) % n
	}
	return out
}

// TestCancel checks that a cancelled context stops Run with its error.
func TestCancel(t *testing.T) {
	ins := make([]lint.Input, 64)
	for i := range ins {
		ins[i] = lint.Input{Name: fmt.Sprintf("t%02d.json", i), Data: []byte(toolsDoc)}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := lint.Run(ctx, ins, &lint.Options{Rules: rules.All(), Jobs: 1})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled before: %v, %v", res, err)
	}
	// With one input the worker is ready as soon as the context is done:
	// the cancellation must win every time, not half of them.
	for range 2000 {
		if res, err := lint.Run(ctx, ins[:1], &lint.Options{Rules: rules.All()}); !errors.Is(err, context.Canceled) || res != nil {
			t.Fatalf("cancelled before, one input: %v, %v", res, err)
		}
	}
	// Cancelled while the first file is being linted.
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	started := 0
	res, err = lint.Run(ctx, ins, &lint.Options{Rules: rules.All(), Jobs: 1, Progress: func(string) {
		started++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Fatalf("cancelled during: %v, %v", res, err)
	}
	if started >= len(ins) {
		t.Errorf("all %d inputs were started after the cancellation", started)
	}
}

// TestInputKindsThroughRun lints the inputs of fixtures/inputs with every
// rule and checks the kind each is read as, and that the engine says once
// which cross-checks it skipped exactly when the input lacks a surface.
func TestInputKindsThroughRun(t *testing.T) {
	for _, tc := range []struct {
		file string
		kind snapshot.Kind
		// partial inputs lack a surface some cross-check compares; a
		// whole capture or snapshot lacks none.
		partial bool
	}{
		{"manifest/bare.json", snapshot.KindManifest, true},
		{"call-result/pilotage-manifest.json", snapshot.KindCallResult, true},
		{"tools-list/inspector.json", snapshot.KindToolsList, true},
		{"tools/array.json", snapshot.KindTools, true},
		{"initialize/inline-manifest.json", snapshot.KindInitialize, true},
		{"initialize/plain.json", snapshot.KindInitialize, true},
		{"discover/stateless.json", snapshot.KindDiscover, true},
		{"jsonrpc/tools-list-response.json", snapshot.KindJSONRPC, true},
		{"capture/messages.json", snapshot.KindCapture, false},
		{"capture/session.jsonl", snapshot.KindCapture, false},
		{"capture/session-lines.json", snapshot.KindCapture, false},
		{"capture/relisted.jsonl", snapshot.KindCapture, false},
		{"snapshot/every-member.json", snapshot.KindSnapshot, false},
		{"snapshot/discover-tools-array.json", snapshot.KindSnapshot, false},
		{"positions/meta-shorthand.jsonl", snapshot.KindCapture, true},
	} {
		t.Run(tc.file, func(t *testing.T) {
			name := "fixtures/inputs/" + tc.file
			data, err := os.ReadFile("../" + name)
			if err != nil {
				t.Fatal(err)
			}
			res := run(t, []lint.Input{{Name: name, Data: data, Explicit: true}}, &lint.Options{Rules: rules.All()})
			// The handshake's serverInfo names the server, where there is one.
			want := []lint.FileInfo{{Path: name, Kind: tc.kind}}
			if len(res.Files) == 1 && res.Files[0].Server != "" {
				want[0].Server, want[0].ServerVersion = "harborview-buildings", "2.4.0"
			}
			if !reflect.DeepEqual(res.Files, want) {
				t.Errorf("files %+v, want %+v", res.Files, want)
			}
			for _, f := range res.Findings {
				switch f.Rule {
				case lint.InputKindRule.ID, lint.InternalRule.ID:
					t.Errorf("%s: %s", f.Rule, f.Message)
				}
			}
			if got := len(res.Skipped) > 0; got != tc.partial {
				t.Errorf("cross-checks skipped: %v, want %v", res.Skipped, tc.partial)
			}
		})
	}
}

// TestJSONLinesPositions checks through the engine that a finding in a
// JSON Lines capture carries the file's line and a pointer inside that
// line's document, and that the same capture saved as .json reads the
// same.
func TestJSONLinesPositions(t *testing.T) {
	// A broken line costs only itself: the capture's later lines are
	// still read, and the syntax finding is on the broken line.
	broken := `{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
{"jsonrpc": "2.0", "id": 9, "result": {"tools": [
{"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}}
`
	tool := &lint.Rule{ID: "tool-seen", Severity: lint.Info, Spec: "test", Check: func(p *lint.Pass) {
		for _, tl := range p.Snap.Tools {
			p.Report(tl.Node, "tool")
		}
	}}
	res := run(t, []lint.Input{{Name: "c.jsonl", Data: []byte(broken)}}, &lint.Options{Rules: []*lint.Rule{tool, rules.ByID("json-syntax")}})
	if got, want := brief(res.Findings), []string{"c.jsonl:2:50 json-syntax ", "c.jsonl:3:50 tool-seen /result/tools/0"}; !reflect.DeepEqual(got, want) {
		t.Errorf("broken line: got %q, want %q", got, want)
	}

	data, err := os.ReadFile("../fixtures/inputs/positions/meta-shorthand.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	metaKey := rules.ByID("meta-key")
	for _, name := range []string{"capture.jsonl", "capture.json"} {
		res := run(t, []lint.Input{{Name: name, Data: data}}, &lint.Options{Rules: []*lint.Rule{metaKey}})
		want := []lint.Finding{{
			Rule: "meta-key", Severity: lint.Error, File: name, Line: 3, Column: 1908, EndLine: 3, EndColumn: 1918,
			Pointer: "/result/tools/3/_meta/pilotage", Spec: metaKey.Spec,
			Key: "/result/tools/[name=validate_flow]/_meta/pilotage",
		}}
		if len(res.Findings) == 1 {
			want[0].Message = res.Findings[0].Message
		}
		if !reflect.DeepEqual(res.Findings, want) {
			t.Errorf("%s: got %+v\nwant %+v", name, res.Findings, want)
		}
	}
}

// TestFallbackPerDocument: in JSON Lines the same pointer names values of
// different documents, so a specific finding on one line must not drop a
// fallback finding on another.
func TestFallbackPerDocument(t *testing.T) {
	specific := &lint.Rule{ID: "specific", Severity: lint.Error, Spec: "test", Check: func(p *lint.Pass) {
		p.Report(p.Snap.Files[0].Docs[0].Root.Path("result", "tools"), "specific")
	}}
	shape := &lint.Rule{ID: "shape", Severity: lint.Error, Spec: "test", Fallback: true, Check: func(p *lint.Pass) {
		p.Report(p.Snap.Files[0].Docs[2].Root.Path("result", "tools"), "shape")
	}}
	data := `{"jsonrpc": "2.0", "id": 1, "result": {"tools": []}}
{"jsonrpc": "2.0", "method": "notifications/message", "params": {"_meta": {"io.github.jafarsa0/pilotage": {}}}}
{"jsonrpc": "2.0", "id": 2, "result": {"tools": []}}
`
	res := run(t, []lint.Input{{Name: "c.jsonl", Data: []byte(data)}}, &lint.Options{Rules: []*lint.Rule{specific, shape}})
	want := []string{"c.jsonl:1:49 specific /result/tools", "c.jsonl:3:49 shape /result/tools"}
	if got := brief(res.Findings); !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestEngineRulesSelected: the engine's own findings go through the user's
// selection like any rule's. On the main branch before the rule table,
// --disable input-kind still reported the unknown file.
func TestEngineRulesSelected(t *testing.T) {
	t.Setenv("PILOTAGE_LINT_DEBUG_PANIC", "")
	boom := &lint.Rule{ID: "boom", Severity: lint.Warning, Spec: "test", Check: func(*lint.Pass) { panic("boom") }}
	all := append([]*lint.Rule{boom}, lint.EngineRules()...)
	unknown := []lint.Input{{Name: "u.json", Data: []byte(`{"name": "x"}`), Explicit: true}}
	tools := []lint.Input{{Name: "t.json", Data: []byte(toolsDoc)}}
	sel := func(s lint.Selection) []*lint.Rule {
		t.Helper()
		rs, err := lint.Select(all, s)
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	grade := func(res *lint.Result) []string {
		var out []string
		for _, f := range res.Findings {
			out = append(out, f.Rule+"="+f.Severity.String())
		}
		return out
	}
	for _, tc := range []struct {
		name string
		sel  lint.Selection
		ins  []lint.Input
		want []string
	}{
		{"input-kind default", lint.Selection{}, unknown, []string{"input-kind=error"}},
		{"input-kind disabled", lint.Selection{Disable: []string{"input-kind"}}, unknown, nil},
		{"input-kind re-graded", lint.Selection{Severity: map[string]lint.Severity{"input-kind": lint.Warning}}, unknown, []string{"input-kind=warning"}},
		{"input-kind not enabled", lint.Selection{Enable: []string{"boom"}}, unknown, nil},
		{"internal-error default", lint.Selection{}, tools, []string{"internal-error=error"}},
		{"internal-error re-graded", lint.Selection{Severity: map[string]lint.Severity{"internal-error": lint.Info}}, tools, []string{"internal-error=info"}},
		{"internal-error kept under an enable list", lint.Selection{Enable: []string{"boom"}}, tools, []string{"internal-error=error"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := grade(run(t, tc.ins, &lint.Options{Rules: sel(tc.sel)})); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	if _, err := lint.Select(all, lint.Selection{Disable: []string{"internal-error"}}); err == nil || !strings.Contains(err.Error(), "internal-error cannot be disabled") {
		t.Errorf("disabling internal-error: %v", err)
	}
}

// TestDeprecatedRunsOnlyWhenNamed: a deprecated rule is off by default and
// runs when the enable list names it.
func TestDeprecatedRunsOnlyWhenNamed(t *testing.T) {
	old := &lint.Rule{ID: "old", Severity: lint.Warning, Spec: "test", Deprecated: true, ReplacedBy: []string{"new"}}
	cur := &lint.Rule{ID: "new", Severity: lint.Warning, Spec: "test"}
	ids := func(s lint.Selection) []string {
		rs, err := lint.Select([]*lint.Rule{old, cur}, s)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	if got := ids(lint.Selection{}); !reflect.DeepEqual(got, []string{"new"}) {
		t.Errorf("default: %v", got)
	}
	if got := ids(lint.Selection{Enable: []string{"old"}}); !reflect.DeepEqual(got, []string{"old"}) {
		t.Errorf("enabled by name: %v", got)
	}
}

// TestFallbackScope: a fallback rule with a FallbackScope yields to a
// specific finding anywhere inside its scope that weighs as much, but not
// to a lighter one; at its own value any specific finding replaces it.
func TestFallbackScope(t *testing.T) {
	toolScope := func(ptr string) string { return "/tools/" + strings.Split(ptr, "/")[2] }
	verdict := reportAt("verdict", "/tools/0/inputSchema", "/tools/1/inputSchema", "/tools/2/inputSchema")
	verdict.Fallback, verdict.FallbackScope = true, toolScope
	heavy := reportAt("heavy", "/tools/0/name") // warning, as heavy as the verdict
	light := reportAt("light", "/tools/1/name")
	light.Severity = lint.Info
	own := reportAt("own", "/tools/2/inputSchema")
	own.Severity = lint.Info
	doc := `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}, {"name": "c", "inputSchema": {}}], "_meta": {"io.github.jafarsa0/pilotage": {}}}`
	res := run(t, []lint.Input{{Name: "a.json", Data: []byte(doc)}}, &lint.Options{Rules: []*lint.Rule{verdict, heavy, light, own}})
	var got []string
	for _, f := range res.Findings {
		got = append(got, f.Rule+" "+f.Pointer)
	}
	want := []string{"heavy /tools/0/name", "light /tools/1/name", "verdict /tools/1/inputSchema", "own /tools/2/inputSchema"}
	sort.Strings(got)
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestListFailed: a snapshot that records a tools/list or resources/list
// error is an error at the recorded error, for any server, Pilotage or
// not; a snapshot with its lists is not, and the rule can be turned off.
func TestListFailed(t *testing.T) {
	failed := []byte("{\n  \"initialize\": {\"protocolVersion\": \"2025-11-25\", \"capabilities\": {\"tools\": {}}, \"serverInfo\": {\"name\": \"x\", \"version\": \"1\"}},\n  \"tools\": {\"error\": {\"code\": -32603, \"message\": \"database unavailable\"}}\n}\n")
	resources := []byte(`{"tools": {"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}, "resources": {"error": {"code": -32601, "message": "Method not found"}}}`)
	healthy := []byte(`{"initialize": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "x", "version": "1"}}, "tools": {"tools": []}}`)
	rs := lint.EngineRules()
	for _, tc := range []struct {
		name string
		data []byte
		rs   []*lint.Rule
		want []string
	}{
		{"tools/list refused", failed, rs, []string{"s.json:3:22 snapshot-list-failed /tools/error"}},
		{"resources/list refused", resources, rs, []string{"s.json:1:113 snapshot-list-failed /resources/error"}},
		{"healthy", healthy, rs, []string{}},
		{"turned off", failed, []*lint.Rule{lint.InputKindRule}, []string{}},
	} {
		res := run(t, []lint.Input{{Name: "s.json", Data: tc.data}}, &lint.Options{Rules: tc.rs})
		if got := brief(res.Findings); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
	res := run(t, []lint.Input{{Name: "s.json", Data: failed}}, &lint.Options{Rules: rs})
	if msg := res.Findings[0].Message; msg != `the server answered tools/list with JSON-RPC error -32603 "database unavailable", so the snapshot holds no tools and nothing about them was checked; fix the server and take the snapshot again` || res.Findings[0].Severity != lint.Error {
		t.Errorf("finding %+v", res.Findings[0])
	}
}

// TestRead: an input read at its turn is linted as if read up front, and
// one whose read fails is left out of Files and named in Unread, in input
// order, never passed in silence.
func TestRead(t *testing.T) {
	opt := &lint.Options{Rules: rules.All(), Release: true}
	want := run(t, []lint.Input{{Name: "a.json", Data: []byte(toolsDoc)}}, opt)
	gone := errors.New("b.json: no such file or directory")
	got := run(t, []lint.Input{
		{Name: "a.json", Read: func() ([]byte, error) { return []byte(toolsDoc), nil }},
		{Name: "b.json", Read: func() ([]byte, error) { return nil, gone }},
	}, opt)
	if !reflect.DeepEqual(got.Files, want.Files) || !reflect.DeepEqual(got.Findings, want.Findings) {
		t.Errorf("read at its turn: %+v, up front: %+v", got, want)
	}
	if len(got.Unread) != 1 || got.Unread[0] != gone || want.Unread != nil {
		t.Errorf("Unread = %v, want [%v]", got.Unread, gone)
	}
}

// TestFallbackExplainedWhatever the selection: with Options.From, whether a
// specific rule explains a fallback's finding is judged from the whole
// rule table at default severities, and the selection applies to the
// findings after: a rule that is off or regraded still explains what it
// reports, so one defect takes one switch, as pilotagetest's Disable.
func TestFallbackExplainedWhateverTheSelection(t *testing.T) {
	toolScope := func(ptr string) string { return "/tools/" + strings.Split(ptr, "/")[2] }
	verdict := reportAt("verdict", "/tools/0/inputSchema", "/tools/1/inputSchema", "/tools/2/inputSchema")
	verdict.Fallback, verdict.FallbackScope, verdict.Severity = true, toolScope, lint.Error
	heavy := reportAt("heavy", "/tools/0/name")
	heavy.Severity = lint.Error
	regraded := reportAt("regraded", "/tools/1/name")
	regraded.Severity = lint.Error
	old := reportAt("old", "/tools/2/name")
	old.Severity, old.Deprecated = lint.Error, true
	skipper := &lint.Rule{ID: "skipper", Severity: lint.Error, Spec: "test", Check: func(p *lint.Pass) { p.Skip("a check of skipper") }}
	all := []*lint.Rule{verdict, heavy, regraded, old, skipper}
	doc := `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}, {"name": "c", "inputSchema": {}}], "_meta": {"io.github.jafarsa0/pilotage": {}}}`
	lintWith := func(sel lint.Selection, from []*lint.Rule, ignores ...lint.Ignore) *lint.Result {
		t.Helper()
		rs, err := lint.Select(all, sel)
		if err != nil {
			t.Fatal(err)
		}
		return run(t, []lint.Input{{Name: "a.json", Data: []byte(doc)}}, &lint.Options{Rules: rs, From: from, Ignores: ignores})
	}
	got := func(res *lint.Result) []string {
		out := []string{}
		for _, f := range res.Findings {
			out = append(out, f.Rule+"="+f.Severity.String()+" "+f.Pointer)
		}
		sort.Strings(out)
		return out
	}
	for _, tc := range []struct {
		name string
		sel  lint.Selection
		from []*lint.Rule
		want []string
	}{
		{"everything on", lint.Selection{}, all, []string{"heavy=error /tools/0/name", "regraded=error /tools/1/name", "verdict=error /tools/2/inputSchema"}},
		// The deprecated rule is off by default, so it explains nothing
		// unless named: its replacements cover it.
		{"one off, one regraded", lint.Selection{Disable: []string{"heavy"}, Severity: map[string]lint.Severity{"regraded": lint.Info}}, all, []string{"regraded=info /tools/1/name", "verdict=error /tools/2/inputSchema"}},
		{"the fallback alone", lint.Selection{Enable: []string{"verdict"}}, all, []string{"verdict=error /tools/2/inputSchema"}},
		{"the deprecated rule named", lint.Selection{Enable: []string{"verdict", "old"}}, all, []string{"old=error /tools/2/name"}},
		{"the fallback regraded", lint.Selection{Disable: []string{"heavy"}, Severity: map[string]lint.Severity{"verdict": lint.Warning}}, all, []string{"regraded=error /tools/1/name", "verdict=warning /tools/2/inputSchema"}},
		// Without From, only the selected rules explain (diff, callers
		// of their own).
		{"no From", lint.Selection{Disable: []string{"heavy"}}, nil, []string{"regraded=error /tools/1/name", "verdict=error /tools/0/inputSchema", "verdict=error /tools/2/inputSchema"}},
	} {
		res := lintWith(tc.sel, tc.from)
		if g := got(res); !reflect.DeepEqual(g, tc.want) {
			t.Errorf("%s: got %q\nwant %q", tc.name, g, tc.want)
		}
	}
	// A rule that is off only explains: its skips are not the run's, and
	// an ignore entry that names it suppresses nothing.
	res := lintWith(lint.Selection{Disable: []string{"heavy", "skipper"}}, all, lint.Ignore{Rule: "heavy"})
	if len(res.Skipped) > 0 || len(res.Suppressed) > 0 || res.Files[0].IgnoreHits[0] != 0 {
		t.Errorf("a disabled rule's findings reached the run: skipped %v, suppressed %v, ignore hits %v", res.Skipped, res.Suppressed, res.Files[0].IgnoreHits)
	}
}
