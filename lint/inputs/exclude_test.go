package inputs

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExclude(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{
		"snaps/a.json", "snaps/legacy/b.json", "snaps/legacy/deep/c.json",
		"snaps/x/tsconfig.json", "snaps/x/d.tmp.json", "other/legacy/e.json",
	} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		exclude []string
		want    string
	}{
		{nil, "other/legacy/e.json snaps/a.json snaps/legacy/b.json snaps/legacy/deep/c.json snaps/x/d.tmp.json snaps/x/tsconfig.json"},
		{[]string{"snaps/legacy/**"}, "other/legacy/e.json snaps/a.json snaps/x/d.tmp.json snaps/x/tsconfig.json"},
		{[]string{"legacy"}, "snaps/a.json snaps/x/d.tmp.json snaps/x/tsconfig.json"},
		{[]string{"**/*.tmp.json", "tsconfig.json"}, "other/legacy/e.json snaps/a.json snaps/legacy/b.json snaps/legacy/deep/c.json"},
		{[]string{"snaps/*.json"}, "other/legacy/e.json snaps/legacy/b.json snaps/legacy/deep/c.json snaps/x/d.tmp.json snaps/x/tsconfig.json"},
	} {
		ins, errs := Collect([]string{"other", "snaps"}, Options{Exclude: tc.exclude})
		if len(errs) > 0 {
			t.Fatalf("%v: %v", tc.exclude, errs)
		}
		var got []string
		for _, in := range ins {
			got = append(got, in.Name)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("--exclude %q:\ngot  %s\nwant %s", tc.exclude, strings.Join(got, " "), tc.want)
		}
	}
	// A named file is the user's choice; the walk's excludes do not apply.
	ins, _ := Collect([]string{"snaps/legacy/b.json"}, Options{Exclude: []string{"legacy"}})
	if len(ins) != 1 {
		t.Errorf("a named file was excluded")
	}
	if _, errs := Collect([]string{"snaps"}, Options{Exclude: []string{"snaps/[a"}}); len(errs) != 1 || errs[0].Error() != `--exclude "snaps/[a" is not a valid glob` {
		t.Errorf("invalid glob: %v", errs)
	}
}

func TestNamedAsWalked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, walked := range []bool{false, true} {
		ins, errs := Collect([]string{p}, Options{NamedAsWalked: walked})
		if len(errs) > 0 || len(ins) != 1 {
			t.Fatal(errs)
		}
		if got := []bool{ins[0].Explicit}; !reflect.DeepEqual(got, []bool{!walked}) {
			t.Errorf("NamedAsWalked %v: Explicit %v", walked, ins[0].Explicit)
		}
	}
}

// TestWalked: Walked agrees with the walk on every file of a tree, by name.
func TestWalked(t *testing.T) {
	dir := t.TempDir()
	files := []string{"a.json", "b.jsonl", "c.txt", ".hidden/d.json", "vendor/e.json", "x/node_modules/f.json", "x/legacy/g.json", "x/h.tmp.json", "x/i.json"}
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	exclude := []string{"legacy", "**/*.tmp.json"}
	walked, errs := walk(dir, exclude)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, f := range files {
		if Walked(dir, filepath.Join(dir, f), exclude) {
			got = append(got, filepath.Join(dir, f))
		}
	}
	if !reflect.DeepEqual(got, walked) {
		t.Errorf("Walked %q, walk %q", got, walked)
	}
	if Walked(dir, filepath.Join(filepath.Dir(dir), "a.json"), nil) {
		t.Error("a file outside dir is walked")
	}
}
