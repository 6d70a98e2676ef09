package rules_test

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

var update = flag.Bool("update", false, "rewrite the .golden files of fixtures/ from the current findings")

// fixtureRoot is the repository's fixtures/ folder; inputs are named
// relative to the repository root so goldens do not depend on where the
// test runs.
const fixtureRoot = "../../fixtures"

// golden renders findings one per line: position, severity, rule, pointer
// and message, so a message regression fails a test; each related location
// follows on an indented line.
func golden(fs []lint.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "%d:%d-%d:%d %s %s %q: %s\n", f.Line, f.Column, f.EndLine, f.EndColumn, f.Severity, f.Rule, f.Pointer, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(&b, "\trelated %s:%d:%d-%d:%d %q: %s\n", r.File, r.Line, r.Column, r.EndLine, r.EndColumn, r.Pointer, r.Message)
		}
	}
	return b.String()
}

func lintFixture(t *testing.T, path string) []lint.Finding {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := strings.TrimPrefix(filepath.ToSlash(path), "../../")
	opt := &lint.Options{Rules: rules.Lint()}
	companion := strings.TrimSuffix(strings.TrimSuffix(path, ".jsonl"), ".json") + ".manifest.json"
	if m, err := os.ReadFile(companion); err == nil {
		opt.Manifest = &lint.Input{Name: strings.TrimPrefix(filepath.ToSlash(companion), "../../"), Data: m, Explicit: true}
	}
	res, err := lint.Run(context.Background(), []lint.Input{{Name: name, Data: data, Explicit: true}}, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range res.Findings {
		if f.Message == "" || f.Spec == "" {
			t.Errorf("%s: finding %s lacks a message or spec section", path, f.Rule)
		}
		if f.Rule == lint.InternalRule.ID {
			t.Errorf("%s: %s", path, f.Message)
		}
	}
	return res.Findings
}

func fixtureInputs(t *testing.T) []string {
	var inputs []string
	err := filepath.WalkDir(fixtureRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// spec-examples holds the spec's own JSON examples for pkg/types
		// round trips; they are fragments, not lint cases. diff holds
		// old/new pairs checked by lint/diff's own golden test.
		if d.IsDir() && (d.Name() == "spec-examples" || d.Name() == "diff") {
			return filepath.SkipDir
		}
		if d.IsDir() || strings.HasSuffix(p, ".manifest.json") {
			return nil
		}
		if strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl") {
			inputs = append(inputs, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(inputs)
	return inputs
}

// TestFixtures lints every input under fixtures/ and compares the findings
// exactly with its .golden file. An input in a folder named after a rule is
// a polarity case: bad*.json must draw that rule, good*.json must not.
func TestFixtures(t *testing.T) {
	for _, in := range fixtureInputs(t) {
		t.Run(strings.TrimPrefix(in, fixtureRoot+"/"), func(t *testing.T) {
			findings := lintFixture(t, in)
			got := golden(findings)
			gpath := strings.TrimSuffix(strings.TrimSuffix(in, ".jsonl"), ".json") + ".golden"
			if *update {
				if err := os.WriteFile(gpath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(gpath)
			if err != nil {
				t.Fatalf("missing golden (run go test ./lint/rules -run TestFixtures -update and review it): %v", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s\n--- got\n%s--- want\n%s", gpath, got, want)
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

// TestEveryRuleHasBothPolarities demands, for each rule of the table, a
// folder fixtures/<family>/<rule-id>/ with at least one bad* and one good*
// input (for diff rules, bad*.old.json and good*.old.json pairs), and that
// every rule folder under a family's fixtures names a rule of that family.
func TestEveryRuleHasBothPolarities(t *testing.T) {
	for _, fam := range rules.Families() {
		inFamily := map[string]bool{}
		for _, r := range fam.Rules {
			inFamily[r.ID] = true
			if r.Deprecated || r.ID == lint.InternalRule.ID {
				continue
			}
			dir := filepath.Join(fixtureRoot, fam.Name, r.ID)
			ext := ".json"
			if fam.Command == rules.CommandDiff {
				ext = ".old.json"
			}
			bad, _ := filepath.Glob(filepath.Join(dir, "bad*"+ext))
			good, _ := filepath.Glob(filepath.Join(dir, "good*"+ext))
			if len(bad) == 0 || len(good) == 0 {
				t.Errorf("rule %s needs %s/bad*%s and good*%s (bad=%d good=%d)", r.ID, dir, ext, ext, len(bad), len(good))
			}
		}
		dirs, err := os.ReadDir(filepath.Join(fixtureRoot, fam.Name))
		if err != nil {
			t.Errorf("family %s has no fixtures folder: %v", fam.Name, err)
			continue
		}
		for _, d := range dirs {
			if d.IsDir() && !inFamily[d.Name()] {
				t.Errorf("fixtures/%s/%s names no rule of family %s", fam.Name, d.Name(), fam.Name)
			}
		}
	}
}
