// Package rulestest runs the fixtures of fixtures/<family>/ through the
// whole rule table and compares the findings with their .golden files, so
// each family package tests its own rules the way analysistest lets an
// analyzer test its own testdata. Test code only: nothing outside _test.go
// files imports it.
package rulestest

import (
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// update is registered in every test binary that imports this package, so
// `go test ./lint/rules/... -run TestFixtures -update` rewrites each
// family's goldens.
var update = flag.Bool("update", false, "rewrite the .golden files of fixtures/ from the current findings")

// Update reports whether -update was given.
func Update() bool { return *update }

// Root returns the repository root: the nearest folder above the test's
// working directory that holds go.mod. Fixture names are given relative to
// it so goldens do not depend on which package's test reads them.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = up
	}
}

// Golden renders findings one per line: position, severity, rule, pointer
// and message, so a message regression fails a test; each related location
// follows on an indented line.
func Golden(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%d:%d-%d:%d %s %s %q: %s\n", f.Line, f.Column, f.EndLine, f.EndColumn, f.Severity, f.Rule, f.Pointer, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "\trelated %s:%d:%d-%d:%d %q: %s\n", r.File, r.Line, r.Column, r.EndLine, r.EndColumn, r.Pointer, r.Message)
		}
	}
	return b.String()
}

// Lint lints one fixture, named relative to the repository root (or by an
// absolute path, for a file a test wrote), with every lint rule, and with
// its companion NAME.manifest.json as --manifest when there is one. A
// finding without a message or spec section, or from a rule that failed,
// fails the test. A fixture already linted in this test binary with the
// same bytes (an exception fixture, which TestFixtures lints first) is not
// linted again: the findings are the first run's.
func Lint(t testing.TB, name string) []lint.Finding {
	t.Helper()
	path := func(name string) string {
		if filepath.IsAbs(name) {
			return name
		}
		return filepath.Join(Root(t), name)
	}
	data, err := os.ReadFile(path(name))
	if err != nil {
		t.Fatal(err)
	}
	opt := &lint.Options{Rules: rules.Lint()}
	companion := strings.TrimSuffix(strings.TrimSuffix(name, ".jsonl"), ".json") + ".manifest.json"
	if m, err := os.ReadFile(path(companion)); err == nil {
		opt.Manifest = &lint.Input{Name: companion, Data: m, Explicit: true}
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(name), data, []byte(companion)} {
		fmt.Fprintf(h, "%d:", len(part))
		h.Write(part)
	}
	if opt.Manifest != nil {
		h.Write(opt.Manifest.Data)
	}
	key := string(h.Sum(nil))
	linted.Lock()
	fs, ok := linted.m[key]
	linted.Unlock()
	if ok {
		return slices.Clone(fs)
	}
	res, err := lint.Run(context.Background(), []lint.Input{{Name: name, Data: data, Explicit: true}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Message == "" || f.Spec == "" {
			t.Errorf("%s: finding %s lacks a message or spec section", name, f.Rule)
		}
		if f.Rule == lint.InternalRule.ID {
			t.Errorf("%s: %s", name, f.Message)
		}
	}
	linted.Lock()
	linted.m[key] = res.Findings
	linted.n++
	linted.Unlock()
	return slices.Clone(res.Findings)
}

// linted holds the findings of every fixture linted in this test binary,
// by name and contents, and how many lint runs that took.
var linted = struct {
	sync.Mutex
	m map[string][]lint.Finding
	n int
}{m: map[string][]lint.Finding{}}

// Runs returns how many fixtures Lint has linted in this test binary, a
// fixture asked for again counted once.
func Runs() int {
	linted.Lock()
	defer linted.Unlock()
	return linted.n
}

// Inputs returns the lint inputs under fixtures/<dir>/ for each dir, named
// relative to the repository root and sorted. Companion manifests are not
// inputs of their own.
func Inputs(t testing.TB, dirs ...string) []string {
	t.Helper()
	root := Root(t)
	var inputs []string
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, "fixtures", dir), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || strings.HasSuffix(p, ".manifest.json") {
				return nil
			}
			if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl") {
				rel, err := filepath.Rel(root, p)
				if err != nil {
					return err
				}
				inputs = append(inputs, filepath.ToSlash(rel))
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sort.Strings(inputs)
	return inputs
}

// Shared is the folder under fixtures/ of the legal inputs that more than
// one rule keeps as an exception fixture or a look-alike: each is stored
// once, and an exception names it as "lookalikes/NAME".
const Shared = "lookalikes"

// Fixtures lints every input under fixtures/<dir>/ for each dir and
// compares the findings exactly with its .golden file. An input in a folder
// named after a rule is a polarity case: bad* must draw that rule, good*
// must not. An input of fixtures/lookalikes/ is good for every rule: it
// draws no error and no warning.
func Fixtures(t *testing.T, dirs ...string) {
	root := Root(t)
	inputs := Inputs(t, dirs...)
	if len(inputs) == 0 {
		t.Fatalf("no fixtures under fixtures/%s", strings.Join(dirs, ", fixtures/"))
	}
	for _, in := range inputs {
		t.Run(strings.TrimPrefix(in, "fixtures/"), func(t *testing.T) {
			findings := Lint(t, in)
			got := Golden(findings)
			gpath := filepath.Join(root, strings.TrimSuffix(strings.TrimSuffix(in, ".jsonl"), ".json")+".golden")
			if *update {
				if err := os.WriteFile(gpath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(gpath)
			if err != nil {
				t.Fatalf("missing golden (run go test ./lint/rules/... -run TestFixtures -update and review it): %v", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s\n--- got\n%s--- want\n%s", gpath, got, want)
			}
			if strings.HasPrefix(in, "fixtures/"+Shared+"/") {
				for _, f := range findings {
					if f.Severity >= lint.Warning {
						t.Errorf("%s is a shared passing fixture but draws %s %s at %s: %s", in, f.Severity, f.Rule, f.Pointer, f.Message)
					}
				}
				return
			}
			rule := filepath.Base(filepath.Dir(in))
			if rules.ByID(rule) == nil {
				return
			}
			base := filepath.Base(in)
			has := false
			for _, f := range findings {
				has = has || f.Rule == rule
			}
			switch {
			case strings.HasPrefix(base, "bad") && !has:
				t.Errorf("%s is a failing fixture for %s but does not draw it", in, rule)
			case strings.HasPrefix(base, "good") && has:
				t.Errorf("%s is a passing fixture for %s but draws it", in, rule)
			}
		})
	}
}
