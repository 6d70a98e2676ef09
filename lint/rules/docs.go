package rules

//go:generate sh -c "go run ../../cmd/pilotage-lint rules --markdown > ../../docs/rules.md"

import (
	"fmt"
	"strings"
)

// Markdown renders the rules reference, docs/rules.md. A test keeps the
// committed file equal to this output.
func Markdown() string {
	var b strings.Builder
	b.WriteString("# pilotage-lint rules\n\n")
	b.WriteString("Generated from the rule registry by `go generate ./lint/rules`; do not edit by hand.\n\n")
	b.WriteString("Severities follow the spec: MUST and MUST NOT are errors, SHOULD is a warning, advice beyond the spec is info. Rule IDs are permanent.\n\n")
	b.WriteString("| Rule | Severity | Spec | Summary |\n|---|---|---|---|\n")
	for _, r := range All() {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.ID, r.ID, r.Severity, r.Spec, escapeCell(r.Summary))
	}
	for _, r := range All() {
		fmt.Fprintf(&b, "\n## %s\n\n", r.ID)
		fmt.Fprintf(&b, "Severity: **%s**. Enforces: %s.\n\n%s\n\n%s\n", r.Severity, r.Spec, r.Summary, r.Doc)
		if r.Bad != "" {
			fmt.Fprintf(&b, "\nBad:\n\n```json\n%s\n```\n", strings.TrimSpace(r.Bad))
		}
		if r.Good != "" {
			fmt.Fprintf(&b, "\nGood:\n\n```json\n%s\n```\n", strings.TrimSpace(r.Good))
		}
	}
	return b.String()
}

func escapeCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
