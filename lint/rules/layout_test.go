package rules_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestNoFamilyImportsAnother keeps the families independent: what two
// families need lives in rulekit, so a change to one family neither
// recompiles nor retests another.
func TestNoFamilyImportsAnother(t *testing.T) {
	const prefix = "github.com/pilotagekit/pilotagekit/lint/rules/"
	families := map[string]bool{}
	for _, f := range rules.Families() {
		if _, err := os.Stat(f.Name); err == nil {
			families[f.Name] = true
		}
	}
	if len(families) < 10 {
		t.Fatalf("found %d family packages, want the 10 lint families", len(families))
	}
	for fam := range families {
		files, _ := filepath.Glob(filepath.Join(fam, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if other, ok := strings.CutPrefix(path, prefix); ok && other != "rulekit" {
					t.Errorf("%s imports %s: a family imports only rulekit of lint/rules", file, path)
				}
			}
		}
	}
}

// TestEveryFamilyHoldsItsErrorRules makes sure no family's error rules
// escape rulestest.Exceptions (issue 30 §7): a family package must call it
// for itself, and a family without a package (engine, diff) may hold no
// error rule that quotes a spec sentence without naming its scope and
// exceptions (its fixtures are pairs of recordings, which
// rulestest.Exceptions does not read). Most of diff's rules are a
// compatibility policy and quote nothing.
func TestEveryFamilyHoldsItsErrorRules(t *testing.T) {
	for _, f := range rules.Families() {
		test := filepath.Join(f.Name, "fixtures_test.go")
		data, err := os.ReadFile(test)
		if err != nil {
			for _, r := range f.Rules {
				if r.Severity == lint.Error && r.Quote != "" && !r.Deprecated && (r.Scope == "" || len(r.Exceptions) == 0 && r.NoExceptions == "") {
					t.Errorf("%s (family %s, no fixtures package) is an error rule quoting %s without Scope and Exceptions or NoExceptions", r.ID, f.Name, r.Spec)
				}
			}
			continue
		}
		if !strings.Contains(string(data), `rulestest.Exceptions(t, "`+f.Name+`")`) {
			t.Errorf("%s does not call rulestest.Exceptions(t, %q)", test, f.Name)
		}
	}
}
