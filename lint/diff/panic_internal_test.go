package diff

import (
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
)

// TestPanickingCheck: a check that panics becomes one internal-error
// finding naming its rules and the files, and the other checks still run.
func TestPanickingCheck(t *testing.T) {
	saved := checks
	defer func() { checks = saved }()
	checks = append([]struct {
		check func(*comparison)
		rules []*lint.Rule
	}{{func(*comparison) { panic("boom") }, []*lint.Rule{toolAdded}}}, saved...)
	old := &lint.Input{Name: "old.json", Data: []byte(`{"tools": [{"name": "a"}, {"name": "b"}]}`)}
	new := &lint.Input{Name: "new.json", Data: []byte(`{"tools": [{"name": "a"}]}`)}
	res, err := Compare(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range res.Findings {
		rules = append(rules, f.Rule)
		if f.Rule == lint.InternalRule.ID && (!strings.Contains(f.Message, "diff-tool-added") || !strings.Contains(f.Message, "new.json") || f.File != "new.json") {
			t.Errorf("internal-error finding does not name the rule and file: %+v", f)
		}
	}
	if strings.Join(rules, " ") != "internal-error diff-tool-removed" {
		t.Errorf("findings: %v", rules)
	}
}

// TestMember: a sub-feature reads as the spec writes it, and a name that
// would break a one-line message is quoted.
func TestMember(t *testing.T) {
	for _, c := range [][3]string{
		{"execute", "test_run", "execute.test_run"},
		{"catalog", "changed_since", "catalog.changed_since"},
		{"execute", "test_r\n", `"execute.test_r\n"`},
		{"guides", `a"b`, `"guides.a\"b"`},
		{"", "", `"."`},
	} {
		if got := member(c[0], c[1]); got != c[2] {
			t.Errorf("member(%q, %q) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}
