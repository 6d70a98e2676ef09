package baseline

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

func fd(rule, file, ptr string, line int, msg string) lint.Finding {
	return lint.Finding{Rule: rule, Severity: lint.Error, File: file, Line: line, Column: 1, EndLine: line, EndColumn: 2, Pointer: ptr, Message: msg, Spec: "Part II §1"}
}

func roundTrip(t *testing.T, dir string, fs []lint.Finding) *Baseline {
	t.Helper()
	path := filepath.Join(dir, "baseline.json")
	if err := New(path, fs).Save(path); err != nil {
		t.Fatal(err)
	}
	b, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestFileFormatIsStableAndVersioned(t *testing.T) {
	dir := t.TempDir()
	a := []lint.Finding{
		fd("tool-x", filepath.Join(dir, "b.json"), "/tools/1", 9, "m1"),
		fd("json-duplicate-key", filepath.Join(dir, "a.json"), "/x", 3, "m2"),
		fd("tool-x", filepath.Join(dir, "b.json"), "/tools/0", 4, "m3"),
	}
	rev := []lint.Finding{a[2], a[0], a[1]}
	x, _ := New(filepath.Join(dir, "bl.json"), a).Marshal()
	y, _ := New(filepath.Join(dir, "bl.json"), rev).Marshal()
	if string(x) != string(y) {
		t.Errorf("order depends on input order:\n%s\n%s", x, y)
	}
	want := `{
  "version": 2,
  "findings": [
    {
      "rule": "json-duplicate-key",
      "file": "a.json",
      "pointer": "/x",
      "message": "m2"
    },
    {
      "rule": "tool-x",
      "file": "b.json",
      "pointer": "/tools/0",
      "message": "m3"
    },
    {
      "rule": "tool-x",
      "file": "b.json",
      "pointer": "/tools/1",
      "message": "m1"
    }
  ]
}
`
	if string(x) != want {
		t.Errorf("got\n%s\nwant\n%s", x, want)
	}
	empty, _ := New("bl.json", nil).Marshal()
	if !strings.Contains(string(empty), `"findings": []`) {
		t.Errorf("empty baseline: %s", empty)
	}
}

func TestMatchesByRuleFilePointerNotLineOrMessage(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	b := roundTrip(t, dir, []lint.Finding{fd("r", file, "/a", 3, "old wording")})
	moved := fd("r", file, "/a", 40, "new wording")
	kept, sup, stale := b.Filter([]lint.Finding{moved}, nil)
	if len(kept) != 0 || !reflect.DeepEqual(sup, []lint.Finding{moved}) || len(stale) != 0 {
		t.Errorf("moved finding: kept %v, suppressed %v, stale %v", kept, sup, stale)
	}
	for _, other := range []lint.Finding{
		fd("r2", file, "/a", 3, "old wording"),
		fd("r", filepath.Join(dir, "t.json"), "/a", 3, "old wording"),
		fd("r", file, "/b", 3, "old wording"),
	} {
		kept, sup, stale := b.Filter([]lint.Finding{other}, nil)
		if len(kept) != 1 || len(sup) != 0 || len(stale) != 1 {
			t.Errorf("%+v: kept %v, suppressed %v, stale %v", other, kept, sup, stale)
		}
	}
}

// TestFilterReturnsSuppressed: Filter hands back the findings it
// suppressed, each as it was (line and message included) and in order,
// so that the reports count them as suppressed without rebuilding them.
func TestFilterReturnsSuppressed(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	b := roundTrip(t, dir, []lint.Finding{fd("r", file, "/a", 1, "m"), fd("r", file, "/c", 1, "m")})
	now := []lint.Finding{fd("r", file, "/c", 9, "c today"), fd("r", file, "/b", 2, "new"), fd("r", file, "/a", 4, "a today")}
	kept, sup, _ := b.Filter(now, nil)
	if !reflect.DeepEqual(kept, now[1:2]) || !reflect.DeepEqual(sup, []lint.Finding{now[0], now[2]}) {
		t.Errorf("kept %v, suppressed %v", kept, sup)
	}
}

func TestCountAware(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	two := []lint.Finding{fd("r", file, "/a", 1, "m"), fd("r", file, "/a", 1, "m")}
	b := roundTrip(t, dir, two)
	three := append(two, fd("r", file, "/a", 7, "m"))
	kept, sup, _ := b.Filter(three, nil)
	if !reflect.DeepEqual(sup, three[:2]) || !reflect.DeepEqual(kept, three[2:]) {
		t.Errorf("three against two: kept %v, suppressed %v", kept, sup)
	}
	kept, sup, stale := b.Filter(two[:1], nil)
	if len(sup) != 1 || len(kept) != 0 || len(stale) != 1 {
		t.Errorf("one against two: kept %v, suppressed %v, stale %v", kept, sup, stale)
	}
}

// TestPathsRelativeToBaseline lets CI run from another directory than the
// developer who wrote the baseline.
func TestPathsRelativeToBaseline(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "srv", "s.json")
	b := roundTrip(t, dir, []lint.Finding{fd("r", abs, "/a", 1, "m")})
	if b.Findings[0].File != "srv/s.json" {
		t.Errorf("recorded %q", b.Findings[0].File)
	}
	if err := os.Mkdir(filepath.Join(dir, "srv"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if kept, sup, _ := b.Filter([]lint.Finding{fd("r", "srv/s.json", "/a", 1, "m")}, nil); len(sup) != 1 || len(kept) != 0 {
		t.Errorf("relative name from the baseline's folder not matched")
	}
	t.Chdir(filepath.Join(dir, "srv"))
	if kept, sup, _ := b.Filter([]lint.Finding{fd("r", "s.json", "/a", 1, "m")}, nil); len(sup) != 1 || len(kept) != 0 {
		t.Errorf("relative name from a subfolder not matched")
	}
}

func TestLoadRejects(t *testing.T) {
	for name, text := range map[string]string{
		"version":  `{"version": 3, "findings": []}`,
		"unknown":  `{"version": 1, "findings": [], "extra": 1}`,
		"not json": `version: 1`,
	} {
		if _, err := Parse("b.json", []byte(text)); err == nil {
			t.Errorf("%s: accepted %s", name, text)
		}
	}
	if _, err := Load(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestIdentityKeys: a version 2 baseline records the identity form of the
// pointer and matches on it, so reordering tools keeps a finding
// suppressed; a version 1 file still matches on plain pointers.
func TestIdentityKeys(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "s.json")
	f := fd("r", file, "/tools/tools/3/inputSchema", 1, "m")
	f.Key = "/tools/tools/[name=run_flow]/inputSchema"
	b := roundTrip(t, dir, []lint.Finding{f})
	if got := b.Findings[0].Pointer; got != f.Key {
		t.Errorf("recorded pointer %q, want %q", got, f.Key)
	}
	moved := fd("r", file, "/tools/tools/0/inputSchema", 1, "m")
	moved.Key = f.Key
	if kept, sup, _ := b.Filter([]lint.Finding{moved}, nil); len(sup) != 1 || len(kept) != 0 {
		t.Errorf("the same tool at another index is not matched")
	}
	other := fd("r", file, "/tools/tools/3/inputSchema", 1, "m")
	other.Key = "/tools/tools/[name=new_tool]/inputSchema"
	if kept, sup, _ := b.Filter([]lint.Finding{other}, nil); len(sup) != 0 || len(kept) != 1 {
		t.Errorf("another tool at the old index is suppressed")
	}

	v1, err := Parse(filepath.Join(dir, "old.json"), []byte(`{"version": 1, "findings": [{"rule": "r", "file": "s.json", "pointer": "/tools/tools/3/inputSchema", "message": "m"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if kept, sup, _ := v1.Filter([]lint.Finding{f}, nil); len(sup) != 1 || len(kept) != 0 {
		t.Errorf("a version 1 baseline no longer matches its plain pointer")
	}
}

func TestSaveCreatesFolders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b", "baseline.json")
	if err := New(path, nil).Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatal(err)
	}
}

// TestPartialRun: a run that linted only a.json reports stale entries of
// a.json and of files that are gone, never of b.json, which it did not
// lint; rewriting the baseline from that run keeps b.json's entries and
// drops the gone file's.
func TestPartialRun(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"a.json", "b.json"} {
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := []lint.Finding{fd("r", "a.json", "/x", 1, "a fixed"), fd("r", "a.json", "/y", 2, "a kept"), fd("r", "b.json", "/x", 1, "b"), fd("r", "gone.json", "/x", 1, "gone")}
	b := roundTrip(t, "base", all)
	// a.json's /x was fixed; only a.json was linted.
	now := []lint.Finding{fd("r", "a.json", "/y", 2, "a kept")}
	kept, sup, stale := b.Filter(now, []string{"a.json"})
	var staleFiles []string
	for _, e := range stale {
		staleFiles = append(staleFiles, e.File+e.Pointer)
	}
	if len(kept) != 0 || !reflect.DeepEqual(sup, now) || !reflect.DeepEqual(staleFiles, []string{"../a.json/x", "../gone.json/x"}) {
		t.Errorf("partial run: kept %v, suppressed %v, stale %q", kept, sup, staleFiles)
	}
	// A run of every file sees b.json's entry stale too.
	if _, _, stale := b.Filter(now, []string{"a.json", "b.json"}); len(stale) != 3 {
		t.Errorf("full run: stale %v", stale)
	}
	if _, _, stale := b.Filter(now, nil); len(stale) != 3 {
		t.Errorf("no scope: stale %v", stale)
	}
	merged := New(filepath.Join("base", "baseline.json"), now).Merge(b, []string{"a.json"})
	var got []string
	for _, e := range merged.Findings {
		got = append(got, e.File+e.Pointer)
	}
	if !reflect.DeepEqual(got, []string{"../a.json/y", "../b.json/x"}) {
		t.Errorf("merged %q", got)
	}
	// Written elsewhere, kept entries are re-anchored at the new folder.
	moved := New("other.json", now).Merge(b, []string{"a.json"})
	if moved.Findings[1].File != "b.json" {
		t.Errorf("re-anchored %+v", moved.Findings)
	}
}
