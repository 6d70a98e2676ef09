package rules_test

import (
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// severityExceptions are rules whose default severity does not follow
// their keyword, each with the reason.
var severityExceptions = map[string]string{
	// json-depth is a limit of this tool, not of JSON: the parser stops at
	// the limit, so the rest of the document goes unchecked, and a clean
	// exit would claim what was never read. Like input-kind it reports
	// that the input could not be judged, at error.
	"json-depth": "a limit of the linter: the rest of the document is not read",
	// The spec states these without a keyword, as definitions an answer
	// contradicts: the policy grades such an answer a warning.
	"call-validate-validity-unstable":         "a verdict that contradicts the definition of validity (Part II §3.2, §6.5.2)",
	"call-idempotent-replay-different-result": "a replay that contradicts \"returns the recorded result of the first Run\" (Part II §6.5.6)",
}

// TestSeverityFollowsKeyword holds every lint rule to the severity policy:
// MUST, MUST NOT and REQUIRED are errors, SHOULD, SHOULD NOT and
// RECOMMENDED warnings, and advice beyond the spec (no keyword) info. A
// rule with a keyword quotes the sentence it enforces, keyword included.
func TestSeverityFollowsKeyword(t *testing.T) {
	want := map[string]lint.Severity{
		"MUST": lint.Error, "MUST NOT": lint.Error, "REQUIRED": lint.Error,
		"SHOULD": lint.Warning, "SHOULD NOT": lint.Warning, "RECOMMENDED": lint.Warning,
		"": lint.Info,
	}
	engine := map[string]bool{}
	for _, r := range lint.EngineRules() {
		engine[r.ID] = true
	}
	// The diff rules are a compatibility policy, held to their own test in
	// lint/diff; only the lint families enforce spec sentences.
	for _, r := range rules.Lint() {
		if engine[r.ID] {
			continue
		}
		sev, ok := want[r.Keyword]
		if !ok {
			t.Errorf("%s: keyword %q is not one of MUST, MUST NOT, REQUIRED, SHOULD, SHOULD NOT, RECOMMENDED or \"\"", r.ID, r.Keyword)
			continue
		}
		if r.Keyword != "" && !quotes(r.Quote, r.Keyword) {
			t.Errorf("%s: keyword %s but the quote %q does not carry it", r.ID, r.Keyword, r.Quote)
		}
		// A rule may quote a sentence the spec states without a keyword
		// ("X is a request error"): that is info, and the quote must then
		// really carry none.
		if r.Keyword == "" {
			for _, kw := range []string{"MUST", "SHOULD", "REQUIRED", "RECOMMENDED"} {
				if strings.Contains(r.Quote, kw) {
					t.Errorf("%s: the quote carries %s but the rule names no keyword", r.ID, kw)
				}
			}
		}
		if why, ok := severityExceptions[r.ID]; ok {
			if why == "" {
				t.Errorf("%s: an exception needs its reason", r.ID)
			}
			continue
		}
		if r.Severity != sev {
			t.Errorf("%s: severity %s, but its keyword %q means %s", r.ID, r.Severity, r.Keyword, sev)
		}
	}
}

// quotes reports whether quote carries keyword kw: verbatim; for MUST as a
// field table's "M" (Part II §1.1: "These abbreviations are exact synonyms
// for MUST and MAY"); for MUST NOT as "are prohibited", the plain words
// Part II §6.4 uses for its one prohibition of request fields.
func quotes(quote, kw string) bool {
	if strings.Contains(quote, kw) {
		return true
	}
	return kw == "MUST" && strings.Contains(quote, "| M ") || kw == "MUST NOT" && strings.Contains(quote, "are prohibited")
}
