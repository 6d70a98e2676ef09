package rulestest

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// Exceptions holds every error rule of the family to the way an error is
// earned (issue 30 §7): its Scope says what it binds; every sentence that
// narrows its quote is listed with a good fixture that exists and keeps the
// rule silent, or NoExceptions says why none does; each listed sentence is
// verbatim in Parts II–III, read from the repository's copy in
// testdata/spec (the subtest "verbatim"). Rules with no quote (the tool's own
// policies) are not held to it.
func Exceptions(t *testing.T, family string) {
	t.Helper()
	root := Root(t)
	var fam *rules.Family
	for _, f := range rules.Families() {
		if f.Name == family {
			fam = &f
			break
		}
	}
	if fam == nil {
		t.Fatalf("no family %q", family)
	}
	type quote struct{ rule, text string }
	var quotes []quote
	for _, r := range fam.Rules {
		// A rule with no quote grades the tool's own policy (an input it
		// cannot read), not a sentence that other sentences could narrow.
		if r.Severity != lint.Error || r.Deprecated || r.Quote == "" {
			continue
		}
		if strings.TrimSpace(r.Scope) == "" {
			t.Errorf("%s: an error rule with no Scope: say which Languages, calls, entries and versions it binds", r.ID)
		}
		if len(r.Exceptions) == 0 && strings.TrimSpace(r.NoExceptions) == "" {
			t.Errorf("%s: an error rule with neither Exceptions nor NoExceptions: list each sentence that narrows its quote with a good fixture, or say why none does", r.ID)
		}
		for _, x := range r.Exceptions {
			if x.Spec == "" || x.Quote == "" {
				t.Errorf("%s: exception %+v lacks its section or sentence", r.ID, x)
			}
			if strings.HasPrefix(x.Spec, "Part I") {
				quotes = append(quotes, quote{r.ID, x.Quote})
			}
			in, err := ExceptionFixture(family, r.ID, x.Fixture)
			if err != nil {
				t.Errorf("%s: %v", r.ID, err)
				continue
			}
			if _, err := os.Stat(filepath.Join(root, in)); err != nil {
				t.Errorf("%s: exception fixture %s: %v", r.ID, in, err)
				continue
			}
			for _, f := range Lint(t, in) {
				if f.Rule == r.ID {
					t.Errorf("%s: exception fixture %s draws the rule at %s: %s", r.ID, in, f.Pointer, f.Message)
				}
			}
		}
	}
	// Each listed sentence is the spec's own, read from the repository's
	// copy of it (testdata/spec).
	t.Run("verbatim", func(t *testing.T) {
		spec, err := specText(root)
		if err != nil {
			t.Fatalf("the spec copy in testdata/spec cannot be read, so exception quotes cannot be checked against it: %v", err)
		}
		for _, q := range quotes {
			if !strings.Contains(spec, normalise(strings.TrimSuffix(q.text, "…"))) {
				t.Errorf("%s: exception %q is not verbatim in Parts II–III", q.rule, q.text)
			}
		}
	})
}

// ExceptionFixture returns the path, from the repository root, of the
// fixture an exception of rule id in family names: NAME is
// fixtures/<family>/<rule-id>/NAME.json, and lookalikes/NAME is
// fixtures/lookalikes/NAME.json, a legal input that several rules' exceptions
// or look-alikes share instead of each keeping a byte-identical copy. NAME
// starts with "good".
func ExceptionFixture(family, id, fixture string) (string, error) {
	dir, name := path.Split(fixture)
	if !strings.HasPrefix(name, "good") {
		return "", fmt.Errorf("exception fixture %q must be a passing fixture (good*)", fixture)
	}
	switch dir {
	case "":
		return path.Join("fixtures", family, id, name+".json"), nil
	case Shared + "/":
		return path.Join("fixtures", Shared, name+".json"), nil
	}
	return "", fmt.Errorf("exception fixture %q names a folder other than the rule's own or %s/", fixture, Shared)
}

// specText is Parts II and III, normalised, from the copy the repository
// keeps in testdata/spec, so that the verbatim check never depends on a
// folder outside the checkout.
func specText(root string) (string, error) {
	var b strings.Builder
	for _, part := range []string{"part-ii-abstract-model.md", "part-iii-mcp-binding.md"} {
		data, err := os.ReadFile(filepath.Join(root, "testdata", "spec", part))
		if err != nil {
			return "", err
		}
		b.WriteString(normalise(string(data)))
		b.WriteByte('\n')
	}
	return b.String(), nil
}

// normalise drops markdown emphasis and folds whitespace, so a quote
// matches across the spec's line breaks.
func normalise(s string) string {
	s = strings.NewReplacer("**", "", "*", "", "`", "").Replace(s)
	return strings.Join(strings.Fields(s), " ")
}
