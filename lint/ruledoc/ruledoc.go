// Package ruledoc renders the reference of every pilotage-lint rule, the
// lint rules and the diff rules, as docs/rules.md. A test keeps the
// committed file equal to the registries.
package ruledoc

//go:generate sh -c "go run ../../cmd/pilotage-lint rules --markdown > ../../docs/rules.md"

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// Section is a titled group of rules.
type Section struct {
	Title, Intro string
	Rules        []*lint.Rule
}

// Sections returns the lint rules and the diff rules.
func Sections() []Section {
	return []Section{
		{"Lint rules", "Run by `pilotage-lint PATH...` on every input.", rules.All()},
		{"Diff rules", "Run by `pilotage-lint diff OLD NEW`: changes from OLD to NEW that break agents or Hosts relying on OLD. Additions are info.", diff.Rules()},
	}
}

// Markdown renders docs/rules.md.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# pilotage-lint rules\n\n")
	b.WriteString("Generated from the rule registries by `go generate ./lint/ruledoc`; do not edit by hand.\n\n")
	b.WriteString("Severities follow the words of the sentence each rule enforces, quoted under the rule: MUST, MUST NOT and REQUIRED are errors, SHOULD, SHOULD NOT and RECOMMENDED warnings, advice beyond the spec is info. Rule IDs are permanent.\n")
	for _, s := range Sections() {
		fmt.Fprintf(&b, "\n## %s\n\n%s\n\n| Rule | Severity | Spec | Summary |\n|---|---|---|---|\n", s.Title, s.Intro)
		for _, r := range s.Rules {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, r.Spec, escapeCell(r.Summary))
		}
	}
	for _, s := range Sections() {
		for _, r := range s.Rules {
			fmt.Fprintf(&b, "\n### %s\n\n", r.ID)
			fmt.Fprintf(&b, "Severity: **%s**. Enforces: %s.\n\n%s\n\n%s\n", r.Severity, r.Spec, r.Summary, r.Doc)
			if r.Quote != "" {
				fmt.Fprintf(&b, "\n> %s\n", r.Quote)
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
