package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// fixtureRoot is the repository's fixtures/ folder.
const fixtureRoot = "../../fixtures"

// ownPackage reports whether a family's rules live in a package of their
// own beneath this one, whose TestFixtures runs fixtures/<family>/.
func ownPackage(f rules.Family) bool {
	return f.Command == rules.CommandLint && f.Name != "engine"
}

// TestFixtures runs the fixture folders that belong to no family package:
// the engine's, the example servers, unusual inputs and input handling.
// spec-examples holds the spec's own JSON examples for pkg/types round
// trips (fragments, not lint cases); diff holds old/new pairs checked by
// lint/diff's own golden test.
func TestFixtures(t *testing.T) {
	own := map[string]bool{"spec-examples": true, "diff": true}
	for _, f := range rules.Families() {
		if ownPackage(f) {
			own[f.Name] = true
			// A family folder no test reads would pass unseen.
			if _, err := os.Stat(filepath.Join(f.Name, "fixtures_test.go")); err != nil {
				t.Errorf("family %s has no lint/rules/%s/fixtures_test.go to run fixtures/%s", f.Name, f.Name, f.Name)
			}
		}
	}
	dirs, err := os.ReadDir(fixtureRoot)
	if err != nil {
		t.Fatal(err)
	}
	var rest []string
	for _, d := range dirs {
		if d.IsDir() && !own[d.Name()] {
			rest = append(rest, d.Name())
		}
	}
	rulestest.Fixtures(t, rest...)
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
