package rules_test

import (
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// specKeywords are the keywords whose sentences docs/spec-coverage.md lists.
var specKeywords = map[string]bool{"MUST": true, "MUST NOT": true, "REQUIRED": true, "SHOULD": true, "SHOULD NOT": true, "RECOMMENDED": true}

var (
	ruleRef     = regexp.MustCompile("`([a-z0-9]+(?:-[a-z0-9]+)+)`")
	countsLine  = regexp.MustCompile(`<!-- counts: covered=(\d+) partial=(\d+) call=(\d+) undecidable=(\d+) gap=(\d+) -->`)
	specChunk   = regexp.MustCompile(`Part (II|III) ((?:§[0-9.]+(?:, )?)+)`)
	sectionMark = regexp.MustCompile(`§([0-9.]+)`)
	rowStart    = regexp.MustCompile(`^\| §[0-9]`)
)

// coverageRow is one requirement row of docs/spec-coverage.md.
type coverageRow struct {
	part, section, status string
}

func readCoverage(t *testing.T) ([]coverageRow, string) {
	t.Helper()
	data, err := os.ReadFile("../../docs/spec-coverage.md")
	if err != nil {
		t.Fatal(err)
	}
	var rows []coverageRow
	part := ""
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "## Part II:"):
			part = "II"
		case strings.HasPrefix(line, "## Part III:"):
			part = "III"
		case strings.HasPrefix(line, "## "):
			part = ""
		case part != "" && rowStart.MatchString(line):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) < 5 {
				t.Fatalf("malformed coverage row: %s", line)
			}
			rows = append(rows, coverageRow{part: part, section: strings.TrimSpace(strings.TrimPrefix(cells[0], " §")), status: cells[len(cells)-1]})
		}
	}
	return rows, string(data)
}

// TestSpecCoverageDoc holds docs/spec-coverage.md to the rule table, so it
// cannot go stale: every rule it names exists and is not deprecated, every
// rule quoting a requirement of Parts II or III is named on a row of a
// section it cites, and the counts are the rows' own.
func TestSpecCoverageDoc(t *testing.T) {
	rows, doc := readCoverage(t)
	if len(rows) == 0 {
		t.Fatal("no coverage rows")
	}
	named := map[string]map[string]bool{} // rule -> "part §section" rows naming it
	var covered, partial, call, undecidable, gap int
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.status, "needs a recorded call: "):
			call++
		case strings.HasPrefix(r.status, "not machine-decidable: "):
			undecidable++
		case strings.HasPrefix(r.status, "no rule yet, "):
			gap++
		default:
			refs := ruleRef.FindAllStringSubmatch(r.status, -1)
			if len(refs) == 0 {
				t.Errorf("row §%s of Part %s has no status: %q", r.section, r.part, r.status)
			}
			// A partial row names the rules that check part of the
			// sentence and says what they leave unchecked.
			if strings.HasPrefix(r.status, "partial: ") {
				partial++
			} else {
				covered++
			}
			for _, m := range refs {
				rule := rules.ByID(m[1])
				if rule == nil {
					t.Errorf("row §%s of Part %s names %s, which is no rule", r.section, r.part, m[1])
					continue
				}
				if rule.Deprecated {
					t.Errorf("row §%s of Part %s names the deprecated rule %s; name its replacements", r.section, r.part, m[1])
				}
				if named[m[1]] == nil {
					named[m[1]] = map[string]bool{}
				}
				named[m[1]][r.part+" "+r.section] = true
			}
		}
	}
	m := countsLine.FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/spec-coverage.md lacks its counts comment")
	}
	if got := fmt.Sprintf("%d %d %d %d %d", covered, partial, call, undecidable, gap); got != strings.Join(m[1:], " ") {
		t.Errorf("counts comment says %v, rows say %s", m[1:], got)
	}
	if !strings.Contains(doc, fmt.Sprintf("| now | %d | %d | %d | %d | %d | %d |", covered, partial, call, undecidable, gap, len(rows))) {
		t.Errorf("the counts table's \"now\" line does not match the rows: %d %d %d %d %d of %d", covered, partial, call, undecidable, gap, len(rows))
	}
	for _, r := range rules.All() {
		if r.Quote == "" || !specKeywords[r.Keyword] || r.Deprecated {
			continue
		}
		// A Spec whose first citation is not Part II or III quotes another
		// text (binding-tool-name-unique quotes the MCP specification and
		// cites Part III only as context); this doc lists sentences of Parts
		// II and III alone, so it has no row for such a quote.
		if !strings.HasPrefix(r.Spec, "Part II") {
			continue
		}
		cited := map[string]bool{}
		for _, c := range specChunk.FindAllStringSubmatch(r.Spec, -1) {
			for _, s := range sectionMark.FindAllStringSubmatch(c[2], -1) {
				cited[c[1]+" "+s[1]] = true
			}
		}
		if len(cited) == 0 {
			continue
		}
		found := false
		for row := range named[r.ID] {
			found = found || cited[row]
		}
		if !found {
			t.Errorf("rule %s quotes a %s requirement of %s but no row of those sections in docs/spec-coverage.md names it", r.ID, r.Keyword, r.Spec)
		}
	}
}

// rowFixture is the fixture a covered or partial row names: the input, the
// rule it draws and the pointer of the finding.
var rowFixture = regexp.MustCompile("; fixture: `(fixtures/[^`]+)` draws `([a-z0-9-]+)` at (\"(?:[^\"\\\\]|\\\\.)*\")\\.\\s*$")

// TestSpecCoverageFixtures holds each claim of docs/spec-coverage.md to a
// failing input: a covered or partial row names a fixture that breaks its
// sentence, and linting it draws the named rule, one the row names, at the
// named pointer. A row that needs a recorded call says which probe, if
// any, can record it.
func TestSpecCoverageFixtures(t *testing.T) {
	rows, _ := readCoverage(t)
	for _, r := range rows {
		switch {
		case strings.HasPrefix(r.status, "needs a recorded call: "):
			if !strings.Contains(r.status, "Provided by: ") {
				t.Errorf("row §%s of Part %s needs a recorded call but does not say whether --probe or --probe-run can provide it", r.section, r.part)
			}
			continue
		case strings.HasPrefix(r.status, "not machine-decidable: "), strings.HasPrefix(r.status, "no rule yet, "):
			continue
		}
		m := rowFixture.FindStringSubmatch(r.status)
		if m == nil {
			t.Errorf("row §%s of Part %s is covered but names no fixture (; fixture: `path` draws `rule` at \"pointer\".)", r.section, r.part)
			continue
		}
		path, rule := m[1], m[2]
		ptr, err := strconv.Unquote(m[3])
		if err != nil {
			t.Errorf("row §%s of Part %s: pointer %s: %v", r.section, r.part, m[3], err)
			continue
		}
		if !strings.Contains(strings.TrimSuffix(r.status, m[0]), "`"+rule+"`") {
			t.Errorf("row §%s of Part %s: its fixture draws %s, which the row does not name", r.section, r.part, rule)
		}
		found := false
		for _, f := range rulestest.Lint(t, path) {
			found = found || f.Rule == rule && f.Pointer == ptr
		}
		if !found {
			t.Errorf("row §%s of Part %s: %s does not draw %s at %q", r.section, r.part, path, rule, ptr)
		}
	}
}
