package lint_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

func TestKeyOf(t *testing.T) {
	doc := `{"tools": {"tools": [
  {"name": "a", "inputSchema": {"properties": {"x": {}}}},
  {"name": "b/c", "inputSchema": {}},
  {"name": "dup"}, {"name": "dup"},
  {"title": "no name"},
  7
]},
"manifest": {"languages": [{"name": "flow/1", "guides": [{"id": "intro"}, {"id": "more"}]}]},
"resources": {"resources": [{"uri": "x://y"}]},
"calls": [{"name": "get_guide"}, {"name": "get_guide"}]}`
	root := source.Parse("x.json", []byte(doc), source.Options{}).Docs[0].Root
	for ptr, want := range map[string]string{
		"": "",
		"/tools/tools/0/inputSchema/properties/x": "/tools/tools/[name=a]/inputSchema/properties/x",
		"/tools/tools/1":                    "/tools/tools/[name=b~1c]",
		"/tools/tools/2":                    "/tools/tools/2", // not unique
		"/tools/tools/4/title":              "/tools/tools/4/title",
		"/tools/tools/5":                    "/tools/tools/5",
		"/manifest/languages/0/guides/1/id": "/manifest/languages/[name=flow~11]/guides/[id=more]/id",
		"/resources/resources/0":            "/resources/resources/[uri=x:~1~1y]",
		"/calls/1/name":                     "/calls/1/name",
		"/tools/tools/9":                    "/tools/tools/9", // does not resolve
		"/~2bad":                            "/~2bad",
	} {
		if got := lint.KeyOf(root, ptr); got != want {
			t.Errorf("KeyOf(%q) = %q, want %q", ptr, got, want)
		}
	}
}

// TestIgnoreByIdentity: an ignore written in identity form keeps
// suppressing its finding after tools are inserted and reordered, while
// the index form it replaces now names another tool.
func TestIgnoreByIdentity(t *testing.T) {
	// The trailing pilotage_manifest is the Pilotage signal without which
	// no rule runs.
	before := `{"tools": [{"name": "a", "inputSchema": {}}, {"name": "b", "inputSchema": {}}, {"name": "pilotage_manifest", "inputSchema": {}}]}`
	after := `{"tools": [{"name": "new", "inputSchema": {}}, {"name": "b", "inputSchema": {}}, {"name": "a", "inputSchema": {}}, {"name": "pilotage_manifest", "inputSchema": {}}]}`
	flagA := &lint.Rule{ID: "flag-a", Severity: lint.Warning, Spec: "test", Check: func(p *lint.Pass) {
		if tl := p.Snap.Tool("a"); tl != nil {
			p.Report(tl.InputSchema, "a's schema")
		}
	}}
	ig := []lint.Ignore{{Rule: "flag-a", Pointer: "/tools/[name=a]"}}
	for name, doc := range map[string]string{"before": before, "after": after} {
		res := run(t, []lint.Input{{Name: "t.json", Data: []byte(doc)}}, &lint.Options{Rules: []*lint.Rule{flagA}, Ignores: ig})
		if len(res.Findings) != 0 {
			t.Errorf("%s: identity ignore did not hold: %q", name, brief(res.Findings))
		}
	}
	res := run(t, []lint.Input{{Name: "t.json", Data: []byte(after)}}, &lint.Options{Rules: []*lint.Rule{flagA}, Ignores: []lint.Ignore{{Pointer: "/tools/0"}}})
	if got, want := brief(res.Findings), []string{"t.json:1:111 flag-a /tools/2/inputSchema"}; !reflect.DeepEqual(got, want) {
		t.Errorf("index ignore: got %q, want %q", got, want)
	}
}

// TestIgnorePaths: ** crosses folders, and paths are relative to the
// folder of the config that names them, whatever the working directory.
func TestIgnorePaths(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	r := reportAt("r1", "/tools/0")
	names := []string{"proj/snapshots/x.json", "proj/snapshots/legacy/deep/y.json", "other/z.json"}
	var ins []lint.Input
	for _, n := range names {
		ins = append(ins, lint.Input{Name: n, Data: []byte(toolsDoc)})
	}
	for _, tc := range []struct {
		name string
		ig   lint.Ignore
		want []string
	}{
		{"double star", lint.Ignore{Path: "**/legacy/**/*.json"}, []string{"other/z.json:1:12 r1 /tools/0", "proj/snapshots/x.json:1:12 r1 /tools/0"}},
		{"single star stays in a folder", lint.Ignore{Path: "proj/*.json"}, []string{"other/z.json:1:12 r1 /tools/0", "proj/snapshots/legacy/deep/y.json:1:12 r1 /tools/0", "proj/snapshots/x.json:1:12 r1 /tools/0"}},
		{"relative to the config's folder", lint.Ignore{Path: "snapshots/**", Base: "proj"}, []string{"other/z.json:1:12 r1 /tools/0"}},
		{"absolute base", lint.Ignore{Path: "snapshots/x.json", Base: filepath.Join(dir, "proj")}, []string{"other/z.json:1:12 r1 /tools/0", "proj/snapshots/legacy/deep/y.json:1:12 r1 /tools/0"}},
		{"outside the base is not matched", lint.Ignore{Path: "**", Base: "proj"}, []string{"other/z.json:1:12 r1 /tools/0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := run(t, ins, &lint.Options{Rules: []*lint.Rule{r}, Ignores: []lint.Ignore{tc.ig}})
			if got := brief(res.Findings); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
