package ruledoc

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md")

// TestRulesDocFresh keeps docs/rules.md equal to the registries.
func TestRulesDocFresh(t *testing.T) {
	want := Markdown()
	if *update {
		if err := os.WriteFile("../../docs/rules.md", []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("../../docs/rules.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Fatal("docs/rules.md is stale: run go generate ./lint/ruledoc")
	}
}

// TestRuleIDsUnique: lint and diff rules share one ID space, so a SARIF
// driver or a config file never confuses them.
func TestRuleIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range Sections() {
		for _, r := range s.Rules {
			if seen[r.ID] {
				t.Errorf("rule ID %s is used twice", r.ID)
			}
			seen[r.ID] = true
		}
	}
}

// TestFamiliesAgree: every rule's Family is the family that lists it, the
// docs have one section per family with exactly its rules, SARIF tags each
// rule with its family, and fixtures/ has one folder per family.
func TestFamiliesAgree(t *testing.T) {
	secs := Sections()
	fams := rules.Families()
	if len(secs) != len(fams) {
		t.Fatalf("%d docs sections for %d families", len(secs), len(fams))
	}
	md := Markdown()
	for i, f := range fams {
		if secs[i].Family != f.Name || len(secs[i].Rules) != len(f.Rules) {
			t.Errorf("docs section %d is %s with %d rules; family %s has %d", i, secs[i].Family, len(secs[i].Rules), f.Name, len(f.Rules))
		}
		if !strings.Contains(md, "Family `"+f.Name+"`.") {
			t.Errorf("docs/rules.md has no section for family %s", f.Name)
		}
		if fi, err := os.Stat("../../fixtures/" + f.Name); err != nil || !fi.IsDir() {
			t.Errorf("fixtures/%s missing for family %s", f.Name, f.Name)
		}
		var buf bytes.Buffer
		run := &report.Run{Tool: report.Tool{Name: "pilotage-lint", Version: "v0.1.0"}, Result: &lint.Result{}, Rules: f.Rules}
		if err := report.SARIF(&buf, run); err != nil {
			t.Fatal(err)
		}
		var log struct {
			Runs []struct {
				Tool struct {
					Driver struct {
						Rules []struct {
							ID         string `json:"id"`
							HelpURI    string `json:"helpUri"`
							Full       struct{ Text string }
							Properties struct{ Tags []string } `json:"properties"`
						} `json:"rules"`
					} `json:"driver"`
				} `json:"tool"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
			t.Fatal(err)
		}
		for j, r := range f.Rules {
			if r.Family != f.Name {
				t.Errorf("rule %s: Family %q, listed in %s", r.ID, r.Family, f.Name)
			}
			sr := log.Runs[0].Tool.Driver.Rules[j]
			if sr.ID != r.ID || !slices.Contains(sr.Properties.Tags, f.Name) || !strings.HasSuffix(sr.HelpURI, "#"+r.ID) {
				t.Errorf("SARIF rule %s: tags %v, helpUri %s; want tag %s", sr.ID, sr.Properties.Tags, sr.HelpURI, f.Name)
			}
		}
	}
}
