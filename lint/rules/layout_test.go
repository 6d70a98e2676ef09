package rules_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
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

// TestSpecCopyFresh holds the repository's copy of Parts II and III
// (testdata/spec, which the verbatim tests read) to the spec beside the
// checkout, when it is there.
func TestSpecCopyFresh(t *testing.T) {
	for _, part := range []string{"part-ii-abstract-model.md", "part-iii-mcp-binding.md"} {
		shared, err := os.ReadFile(filepath.Join("..", "..", "..", "shared", "spec", part))
		if err != nil {
			t.Skipf("no spec beside the checkout to compare the copy with: %v", err)
		}
		copied, err := os.ReadFile(filepath.Join("..", "..", "testdata", "spec", part))
		if err != nil {
			t.Fatal(err)
		}
		if string(shared) != string(copied) {
			t.Errorf("testdata/spec/%s differs from ../shared/spec/%s: copy it again", part, part)
		}
	}
}

// TestRuleQuotesAreVerbatim: every rule quoting Part II or III quotes the
// spec's own words (pieces that stand apart joined by " … " or "…"), so a
// finding cites what the spec says and not a gloss on it.
func TestRuleQuotesAreVerbatim(t *testing.T) {
	var b strings.Builder
	for _, part := range []string{"part-ii-abstract-model.md", "part-iii-mcp-binding.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "spec", part))
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(normaliseSpec(string(data)))
		b.WriteByte('\n')
	}
	spec := b.String()
	for _, r := range rules.All() {
		if r.Quote == "" || !strings.HasPrefix(r.Spec, "Part I") {
			continue
		}
		for _, piece := range quotePieces.Split(r.Quote, -1) {
			// A list's last item may be joined with "and" or "or".
			piece = strings.TrimSpace(piece)
			for _, lead := range []string{"- ", "and ", "or "} {
				piece = strings.TrimPrefix(piece, lead)
			}
			if piece != "" && !strings.Contains(spec, normaliseSpec(piece)) {
				t.Errorf("%s: not verbatim in Parts II–III: %q", r.ID, piece)
			}
		}
	}
}

// quotePieces splits a quote where it joins what stands apart in the spec:
// an elision ("…", "[...]"), an editorial insertion ("[That set:]"), and
// the "; " or ": " with which a quote runs a list's items on in one line.
var quotePieces = regexp.MustCompile(`…|\[[^\]]*\]|;\s|:\s`)

func normaliseSpec(s string) string {
	s = strings.NewReplacer("**", "", "*", "", "`", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
