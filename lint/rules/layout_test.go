package rules_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
