// Package ruledoc renders the reference of every pilotage-lint rule, one
// section per family of the rule table, as docs/rules.md. A test keeps the
// committed file equal to the table.
package ruledoc

//go:generate sh -c "go run ../../cmd/pilotage-lint rules --markdown > ../../docs/rules.md"

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// Section is a titled group of rules: one family.
type Section struct {
	// Family is the family's name, which is also the section's anchor.
	Family, Title, Intro string
	Rules                []*lint.Rule
}

// Sections returns one section per family, in the table's order.
func Sections() []Section {
	var out []Section
	for _, f := range rules.Families() {
		out = append(out, Section{f.Name, f.Title, f.Doc, f.Rules})
	}
	return out
}

// Markdown renders docs/rules.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# pilotage-lint rules\n\n")
	b.WriteString("Generated from the rule table (lint/rules/registry.go) by `go generate ./lint/ruledoc`; do not edit by hand.\n\n")
	b.WriteString("Severities follow the words of the sentence each rule enforces, quoted under the rule: MUST, MUST NOT and REQUIRED are errors, SHOULD, SHOULD NOT and RECOMMENDED warnings, advice beyond the spec is info. Two keyword-less classes are warnings, named under each rule they grade: a declaration the spec tells receivers to ignore or replace with a fallback, and an answer contradicting the spec's definitions. The diff rules are a compatibility policy of their own, except those that quote a spec sentence. Rule IDs are permanent.\n\n")
	var fallbacks []string
	for _, s := range Sections() {
		for _, r := range s.Rules {
			if r.Fallback {
				fallbacks = append(fallbacks, "`"+r.ID+"`")
			}
		}
	}
	fmt.Fprintf(&b, "One defect, one switch. The fallback rules (%s) report only where no specific rule reports at or inside the same value (for `probe-expectation`, anywhere in the same probe call). Whether a rule explains it is judged from the whole table at default severities, whatever the selection; `--enable`, `--disable`, `disable:` in the config and `--severity` then apply to the findings. So turning a rule off or regrading it does not bring its defect back as a fallback's finding: `--disable call-store-unsupported` alone silences an ignored `store` flag, as `pilotagetest.Disable` does, and `--disable probe-expectation` turns off only the generic verdict where no specific rule reports.\n\n", strings.Join(fallbacks, ", "))
	b.WriteString("Each section is one family of the table. A new rule is a `lint.Rule` literal in its family's function, its Check, and fixtures/<family>/<rule-id>/bad*.json and good*.json with their goldens; a new family is one line of the table.\n")
	for _, s := range Sections() {
		fmt.Fprintf(&b, "\n## %s\n\nFamily `%s`. %s\n\n| Rule | Severity | Spec | Summary |\n|---|---|---|---|\n", s.Title, s.Family, s.Intro)
		for _, r := range s.Rules {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, r.Spec, escapeCell(r.Summary))
		}
	}
	for _, s := range Sections() {
		for _, r := range s.Rules {
			fmt.Fprintf(&b, "\n### %s\n\n", r.ID)
			fmt.Fprintf(&b, "Severity: **%s**. Family: %s. Since: %s. Enforces: %s.\n\n", r.Severity, r.Family, r.Since, r.Spec)
			if r.Deprecated {
				b.WriteString("**Deprecated**")
				if len(r.ReplacedBy) > 0 {
					fmt.Fprintf(&b, "; replaced by %s", strings.Join(r.ReplacedBy, ", "))
				}
				b.WriteString(".\n\n")
			}
			if r.Quote != "" {
				fmt.Fprintf(&b, "> %s\n\n", r.Quote)
			}
			if r.Policy != "" {
				fmt.Fprintf(&b, "Graded by the severity policy: %s.\n\n", r.Policy)
			}
			fmt.Fprintf(&b, "%s\n\n%s\n", r.Summary, r.Doc)
			if r.Scope != "" {
				fmt.Fprintf(&b, "\nScope: %s\n", r.Scope)
			}
			if len(r.Exceptions) > 0 {
				b.WriteString("\nWhere the spec allows what this rule would report (each has a passing fixture):\n\n")
				for _, e := range r.Exceptions {
					fmt.Fprintf(&b, "- %s: %q (fixture `%s`)\n", e.Spec, e.Quote, e.Fixture)
				}
			}
			if r.NoExceptions != "" {
				fmt.Fprintf(&b, "\nNo sentence narrows this rule: %s\n", r.NoExceptions)
			}
			if r.Bad != "" {
				fmt.Fprintf(&b, "\nBad:\n\n```json\n%s\n```\n", strings.TrimSpace(r.Bad))
			}
			if r.Good != "" {
				fmt.Fprintf(&b, "\nGood:\n\n```json\n%s\n```\n", strings.TrimSpace(r.Good))
			}
		}
	}
	return b.String()
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
