package diff_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
)

var update = flag.Bool("update", false, "rewrite fixtures/diff goldens from the current findings")

// fixtureRoot holds one folder per diff rule; each case is a pair
// CASE.old.json / CASE.new.json with the expected findings in CASE.golden.
const fixtureRoot = "../../fixtures/diff"

// golden renders findings one per line, message included, so a message
// regression fails a test.
func golden(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%s %d:%d-%d:%d %s %s %q: %s\n", filepath.Base(f.File), f.Line, f.Column, f.EndLine, f.EndColumn, f.Severity, f.Rule, f.Pointer, f.Message)
	}
	return b.String()
}

func read(t *testing.T, path string) *lint.Input {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &lint.Input{Name: strings.TrimPrefix(filepath.ToSlash(path), "../../"), Data: data, Explicit: true}
}

type fixtureCase struct{ rule, name, dir string }

func cases(t *testing.T) []fixtureCase {
	olds, err := filepath.Glob(filepath.Join(fixtureRoot, "*", "*.old.json"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(olds)
	var out []fixtureCase
	for _, o := range olds {
		out = append(out, fixtureCase{filepath.Base(filepath.Dir(o)), strings.TrimSuffix(filepath.Base(o), ".old.json"), filepath.Dir(o)})
	}
	return out
}

// TestFixtures compares each pair and checks the findings exactly against
// its golden; bad* cases must draw their folder's rule, good* must not.
func TestFixtures(t *testing.T) {
	for _, c := range cases(t) {
		t.Run(c.rule+"/"+c.name, func(t *testing.T) {
			base := filepath.Join(c.dir, c.name)
			res, err := diff.Compare(read(t, base+".old.json"), read(t, base+".new.json"), nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range res.Findings {
				if f.Message == "" || f.Spec == "" || strings.Count(f.Message, ". ") > 0 {
					t.Errorf("finding %s: message must be one sentence with a spec section: %q", f.Rule, f.Message)
				}
			}
			got := golden(res.Findings)
			if *update {
				if err := os.WriteFile(base+".golden", []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(base + ".golden")
			if err != nil {
				t.Fatalf("missing golden (run go test ./lint/diff -update and review it): %v", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s.golden\n--- got\n%s--- want\n%s", base, got, want)
			}
			has := false
			for _, f := range res.Findings {
				has = has || f.Rule == c.rule
			}
			if strings.HasPrefix(c.name, "bad") && !has {
				t.Errorf("%s is a failing case for %s but does not draw it", base, c.rule)
			}
			if strings.HasPrefix(c.name, "good") && has {
				t.Errorf("%s is a passing case for %s but draws it", base, c.rule)
			}
		})
	}
}

// TestEveryRuleHasBothPolarities demands a bad and a good case per rule.
func TestEveryRuleHasBothPolarities(t *testing.T) {
	bad, good := map[string]bool{}, map[string]bool{}
	for _, c := range cases(t) {
		bad[c.rule] = bad[c.rule] || strings.HasPrefix(c.name, "bad")
		good[c.rule] = good[c.rule] || strings.HasPrefix(c.name, "good")
	}
	for _, r := range diff.Rules() {
		if !bad[r.ID] || !good[r.ID] {
			t.Errorf("rule %s needs fixtures/diff/%s/bad*.old.json and good*.old.json pairs", r.ID, r.ID)
		}
		if !strings.HasPrefix(r.ID, "diff-") || r.Check != nil {
			t.Errorf("rule %s: diff rules are prefixed diff- and run through diff.Compare", r.ID)
		}
	}
}

// TestIdentical: a snapshot compared with itself has no findings.
func TestIdentical(t *testing.T) {
	in := read(t, "../../fixtures/examples/good-server.snapshot.json")
	res, err := diff.Compare(in, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Findings) != 0 {
		t.Errorf("findings on identical inputs:\n%s", golden(res.Findings))
	}
}

// TestUnusableInput: input that holds nothing to compare is an error, not
// a silent pass.
func TestUnusableInput(t *testing.T) {
	good := read(t, "../../fixtures/examples/good-server.snapshot.json")
	for _, data := range []string{`{"name": "x"}`, `{"tools": [`, ``} {
		if _, err := diff.Compare(good, &lint.Input{Name: "bad.json", Data: []byte(data)}, nil); err == nil {
			t.Errorf("%q: no error", data)
		}
	}
}

// TestEmptyListingIsCompared: {"tools": []} is a listing of nothing, so a
// NEW that lists no tools is compared (and draws a finding per lost tool)
// instead of being refused.
func TestEmptyListingIsCompared(t *testing.T) {
	old := &lint.Input{Name: "old.json", Data: []byte(`{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`)}
	empty := &lint.Input{Name: "new.json", Data: []byte(`{"tools": []}`)}
	res, err := diff.Compare(old, empty, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := golden(res.Findings); !strings.HasPrefix(got, "new.json 1:11-1:12 error diff-tool-removed \"/tools\": tool \"a\" is gone") || strings.Count(got, "\n") != 1 {
		t.Errorf("got %q", got)
	}
	if _, err := diff.Compare(empty, empty, nil); err != nil {
		t.Errorf("empty against empty: %v", err)
	}
}

// TestSelection: a disabled diff rule reports nothing and a re-graded one
// reports at its new severity; the rules are selected like lint rules.
func TestSelection(t *testing.T) {
	base := "../../fixtures/diff/diff-tool-removed/bad-ordinary"
	old, new := read(t, base+".old.json"), read(t, base+".new.json")
	off, err := lint.Select(diff.Rules(), lint.Selection{Disable: []string{"diff-tool-removed"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := diff.Compare(old, new, &diff.Options{Rules: off})
	if err != nil || len(res.Findings) != 0 {
		t.Errorf("disabled: %v %v", err, res.Findings)
	}
	warn, _ := lint.Select(diff.Rules(), lint.Selection{Severity: map[string]lint.Severity{"diff-tool-removed": lint.Warning}})
	res, err = diff.Compare(old, new, &diff.Options{Rules: warn})
	if err != nil || len(res.Findings) != 1 || res.Findings[0].Severity != lint.Warning {
		t.Errorf("re-graded: %v %v", err, res.Findings)
	}
}

// TestCompatibilityPolicy: most diff rules judge compatibility, not the
// spec: they quote no keyword, a breaking change is an error by default,
// and each doc says whom the change breaks (or that it breaks nobody). A
// rule that quotes a spec sentence judges a duty only two recordings show,
// and is graded by its keyword instead.
func TestCompatibilityPolicy(t *testing.T) {
	byKeyword := map[string]lint.Severity{
		"MUST": lint.Error, "MUST NOT": lint.Error, "REQUIRED": lint.Error,
		"SHOULD": lint.Warning, "SHOULD NOT": lint.Warning, "RECOMMENDED": lint.Warning,
	}
	for _, r := range diff.Rules() {
		if r.Keyword != "" {
			if sev, ok := byKeyword[r.Keyword]; !ok || r.Severity != sev || !strings.Contains(r.Quote, r.Keyword) {
				t.Errorf("%s: keyword %q, severity %s, quote %q: a spec duty quotes its keyword and is graded by it", r.ID, r.Keyword, r.Severity, r.Quote)
			}
			continue
		}
		if r.Quote != "" {
			t.Errorf("%s quotes %q but names no keyword; compatibility rules quote nothing", r.ID, r.Quote)
		}
		if !strings.Contains(r.Doc, "break") {
			t.Errorf("%s: the doc does not say whom the change breaks", r.ID)
		}
		addition := r.ID == "diff-language-added" || r.ID == "diff-capability-added" || r.ID == "diff-tool-added"
		if addition != (r.Severity == lint.Info) {
			t.Errorf("%s: additions are info and breaking changes errors by default, got %s", r.ID, r.Severity)
		}
	}
}

// TestHarborviewSessions: the two final recorded sessions of the
// conformant reference server share guides and catalog entries under the
// same versions and tokens, so comparing them exercises the version-content
// rules on real data; they must compare clean both ways, and one injected
// change under an unchanged version or token must draw exactly its finding.
func TestHarborviewSessions(t *testing.T) {
	paths, err := filepath.Glob("../../fixtures/examples/harborview/good-*.json")
	if err != nil || len(paths) < 2 {
		t.Fatalf("need two Harborview sessions: %v %v", paths, err)
	}
	a, b := read(t, paths[0]), read(t, paths[1])
	for _, pair := range [][2]*lint.Input{{a, b}, {b, a}} {
		res, err := diff.Compare(pair[0], pair[1], nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 0 {
			t.Errorf("%s against %s:\n%s", pair[0].Name, pair[1].Name, golden(res.Findings))
		}
	}
	faults := []struct {
		rule   string
		inject func(call map[string]any) bool
	}{
		{"diff-guide-version-content", func(call map[string]any) bool {
			g, _ := dig(call, "result", "structuredContent", "guide").(map[string]any)
			if g == nil || g["id"] != "quickstart" {
				return false
			}
			g["body"] = g["body"].(string) + "\nOne more paragraph.\n"
			return true
		}},
		{"diff-catalog-version-content", func(call map[string]any) bool {
			items, _ := dig(call, "result", "structuredContent", "items").([]any)
			if len(items) == 0 {
				return false
			}
			items[0].(map[string]any)["risk"] = "destructive"
			return true
		}},
	}
	for _, f := range faults {
		var doc map[string]any
		if err := json.Unmarshal(b.Data, &doc); err != nil {
			t.Fatal(err)
		}
		injected := false
		for _, c := range doc["calls"].([]any) {
			if !injected && f.inject(c.(map[string]any)) {
				injected = true
			}
		}
		if !injected {
			t.Fatalf("%s: nothing to inject into %s", f.rule, b.Name)
		}
		data, _ := json.Marshal(doc)
		res, err := diff.Compare(a, &lint.Input{Name: "faulty.json", Data: data}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != 1 || res.Findings[0].Rule != f.rule || res.Findings[0].Severity != lint.Error {
			t.Errorf("%s injected: got\n%s", f.rule, golden(res.Findings))
		}
	}
}

func dig(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}

const twoTools = `{"tools": [
  {"name": "a", "inputSchema": {"type": "object"}},
  {"name": "b", "inputSchema": {"type": "object"}}
]}
`

// TestRemovalOnNewFile: a removed tool is reported on the NEW file's tools
// array, the nearest value that survives, with the OLD location as a
// related location and the removed tool's identity as its key, which an
// ignore entry scoped to the NEW path matches.
func TestRemovalOnNewFile(t *testing.T) {
	old := &lint.Input{Name: "main:snaps/s.json", Data: []byte(twoTools)}
	// b moved first, a is gone: the key follows the name, not the index.
	cur := &lint.Input{Name: "snaps/s.json", Data: []byte("{\"tools\": [\n  {\"name\": \"c\", \"inputSchema\": {\"type\": \"object\"}},\n  {\"name\": \"b\", \"inputSchema\": {\"type\": \"object\"}}\n]}\n")}
	res, err := diff.Compare(old, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []lint.Finding{
		{Rule: "diff-tool-removed", Severity: lint.Error, File: "snaps/s.json", Line: 1, Column: 11, EndLine: 1, EndColumn: 12, Pointer: "/tools",
			Message: `tool "a" is gone from tools/list; agents and Host policies that call it break, so keep it or keep its old name beside the new one`, Spec: "Part III §3.1",
			Related: []lint.Related{{File: "main:snaps/s.json", Line: 2, Column: 12, EndLine: 2, EndColumn: 15, Pointer: "/tools/0/name", Message: "the old location"}},
			Key:     "/tools/[name=a]/name"},
		{Rule: "diff-tool-added", Severity: lint.Info, File: "snaps/s.json", Line: 2, Column: 12, EndLine: 2, EndColumn: 15, Pointer: "/tools/0/name",
			Message: `tool "c" is new`, Spec: "Part III §3.1", Key: "/tools/[name=c]/name"},
	}
	if len(res.Findings) != len(want) {
		t.Fatalf("got %+v", res.Findings)
	}
	for i := range want {
		want[i].Spec = res.Findings[i].Spec // the rule's citation, checked by the fixtures
		if !reflect.DeepEqual(res.Findings[i], want[i]) {
			t.Errorf("finding %d:\n got %+v\nwant %+v", i, res.Findings[i], want[i])
		}
	}
	for _, tc := range []struct {
		ig   lint.Ignore
		left int
	}{
		{lint.Ignore{Rule: "diff-tool-removed", Path: "snaps/s.json", Pointer: "/tools/[name=a]"}, 1},
		{lint.Ignore{Rule: "diff-tool-removed", Path: "snaps/s.json", Pointer: "/tools/[name=b]"}, 2},
		{lint.Ignore{Rule: "diff-tool-removed", Path: "snaps/other.json", Pointer: "/tools/[name=a]"}, 2},
		{lint.Ignore{Rule: "diff-tool-added", Path: "snaps/*.json"}, 1},
	} {
		res, err := diff.Compare(old, cur, &diff.Options{Ignores: []lint.Ignore{tc.ig}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Findings) != tc.left {
			t.Errorf("ignore %+v: %d findings left, want %d: %s", tc.ig, len(res.Findings), tc.left, golden(res.Findings))
		}
	}
}

// TestAddedAndDeleted: a snapshot that did not exist is all additions; one
// that no longer exists loses every tool and Language, reported in the
// old file since no new one exists.
func TestAddedAndDeleted(t *testing.T) {
	in := read(t, "../../fixtures/diff/diff-language-added/bad.new.json")
	res, err := diff.Compare(nil, in, nil)
	if err != nil {
		t.Fatal(err)
	}
	added := map[string]int{}
	for _, f := range res.Findings {
		added[f.Rule]++
		if f.File != in.Name || f.Severity != lint.Info {
			t.Errorf("addition %+v", f)
		}
	}
	if added["diff-language-added"] == 0 || len(added) == 0 {
		t.Errorf("additions: %v", added)
	}
	res, err = diff.Compare(in, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	removed := map[string]int{}
	for _, f := range res.Findings {
		removed[f.Rule]++
		if f.File != in.Name || f.Severity != lint.Error || len(f.Related) != 0 {
			t.Errorf("removal %+v", f)
		}
	}
	if removed["diff-language-removed"] != added["diff-language-added"] || len(removed) == 0 {
		t.Errorf("removals %v, additions %v", removed, added)
	}
	if _, err := diff.Compare(nil, nil, nil); err == nil {
		t.Error("nothing against nothing: no error")
	}
	tools := &lint.Input{Name: "t.json", Data: []byte(twoTools)}
	res, _ = diff.Compare(nil, tools, nil)
	if got := golden(res.Findings); got != "t.json 2:12-2:15 info diff-tool-added \"/tools/0/name\": tool \"a\" is new\nt.json 3:12-3:15 info diff-tool-added \"/tools/1/name\": tool \"b\" is new\n" {
		t.Errorf("added tools: %q", got)
	}
	res, _ = diff.Compare(tools, nil, nil)
	if got := golden(res.Findings); !strings.HasPrefix(got, "t.json 2:12-2:15 error diff-tool-removed \"/tools/0/name\": tool \"a\" is gone") || strings.Count(got, "\n") != 2 {
		t.Errorf("deleted tools: %q", got)
	}
}
