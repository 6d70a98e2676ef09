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
	// binding-extension-missing checks a MUST, but on the handshake
	// revisions a recording that lacks the declaration may have lost it
	// to an intermediary or SDK (Part III §1.2), so that the Server failed
	// is an inference, which is at most a warning.
	"binding-extension-missing": "an inference: the recording may have lost the declaration to an intermediary (Part III §1.2)",
	// manifest-stateless-session-retention-inferred checks a MUST NOT,
	// but the recording shows the stateless revision in use, not that the
	// deployment serves it alone (audit2 2.3): that it is a stateless
	// Server is an inference.
	"manifest-stateless-session-retention-inferred": "an inference: the recording does not show a stateless deployment (Part III §8.1)",
}

// TestSeverityFollowsKeyword holds every lint rule to the severity policy:
// MUST, MUST NOT and REQUIRED are errors, SHOULD, SHOULD NOT and
// RECOMMENDED warnings, and advice beyond the spec (no keyword) info. Two
// keyword-less classes are warnings, each named by the rule's Policy: a
// declaration the spec tells receivers to ignore or replace with a
// fallback (it silently has no effect), and an answer contradicting the
// spec's definitions. A rule with a keyword quotes the sentence it
// enforces, keyword included, and names no Policy.
func TestSeverityFollowsKeyword(t *testing.T) {
	want := map[string]lint.Severity{
		"MUST": lint.Error, "MUST NOT": lint.Error, "REQUIRED": lint.Error,
		"SHOULD": lint.Warning, "SHOULD NOT": lint.Warning, "RECOMMENDED": lint.Warning,
		"": lint.Info,
	}
	policies := map[lint.Policy]lint.Severity{
		lint.PolicyIgnored:       lint.Warning,
		lint.PolicyContradiction: lint.Warning,
	}
	engine := map[string]bool{}
	for _, r := range lint.EngineRules() {
		engine[r.ID] = true
	}
	// The diff rules are a compatibility policy, held to their own test in
	// lint/diff; only the lint families enforce spec sentences.
	for _, r := range rules.Lint() {
		// A deprecated rule without a Check reports nothing at any severity.
		if engine[r.ID] || r.Deprecated && r.Check == nil {
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
		if r.Policy != "" {
			psev, ok := policies[r.Policy]
			switch {
			case !ok:
				t.Errorf("%s: policy %q is not a clause of the severity policy", r.ID, r.Policy)
			case r.Keyword != "":
				t.Errorf("%s: keyword %s decides its severity; a policy clause is for keyword-less sentences", r.ID, r.Keyword)
			default:
				sev = psev
			}
		}
		// A rule may quote a sentence the spec states without a keyword
		// ("X is a request error"): the quote must then really carry none.
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
			t.Errorf("%s: severity %s, but its keyword %q and policy %q mean %s", r.ID, r.Severity, r.Keyword, r.Policy, sev)
		}
	}
}

// TestSeverityPolicyClasses pins the rules the refined policy raised to
// warning, each to its clause: a rule leaving its class is a decision, not
// an accident of editing.
func TestSeverityPolicyClasses(t *testing.T) {
	want := map[string]lint.Policy{
		"capability-unknown":                      lint.PolicyIgnored,
		"capability-subfeature":                   lint.PolicyIgnored,
		"manifest-language-duplicate":             lint.PolicyIgnored,
		"manifest-trace-subprogram":               lint.PolicyIgnored,
		"manifest-promotion-authority":            lint.PolicyIgnored,
		"manifest-value-unknown":                  lint.PolicyIgnored,
		"meta-key-legacy":                         lint.PolicyIgnored,
		"result-value-unknown":                    lint.PolicyIgnored,
		"call-response-identity":                  lint.PolicyContradiction,
		"call-fetched-trace-differs":              lint.PolicyContradiction,
		"call-request-fault-accepted":             lint.PolicyContradiction,
		"call-plan-step-riskier-than-entry":       lint.PolicyContradiction,
		"result-risk-contradictory":               lint.PolicyContradiction,
		"toolschema-reserved-wrong-stage":         lint.PolicyContradiction,
		"toolschema-reserved-required":            lint.PolicyContradiction,
		"call-listed-entry-not-found":             lint.PolicyContradiction,
		"call-listing-cursor-repeats":             lint.PolicyContradiction,
		"call-trace-step-id-context":              lint.PolicyContradiction,
		"result-guide-id-duplicate":               lint.PolicyContradiction,
		"result-catalog-id-duplicate":             lint.PolicyContradiction,
		"call-validate-validity-unstable":         lint.PolicyContradiction,
		"call-idempotent-replay-different-result": lint.PolicyContradiction,
		"call-drifted-ref-ran":                    lint.PolicyContradiction,
		// Inferences (issue 30 §7): which entries are callable, and whether
		// two unknown names are an unauthorized and a nonexistent one.
		"result-invoked-entry-input-schema-missing": lint.PolicyContradiction,
		"result-not-found-message-differs":          lint.PolicyContradiction,
		// audit2 2.8: calls in a Language without catalog shows either
		// environment-bound names or a calls value outside its definition.
		"call-calls-without-catalog": lint.PolicyContradiction,
		// audit2 2.13: a blank title is a string, present; it contradicts
		// the description "Human-readable Language name".
		"manifest-language-title-blank": lint.PolicyContradiction,
		// audit2 2.14: ISO 8601's alternative duration format, which a
		// Client reading designators falls back on.
		"manifest-retention-alternative-format": lint.PolicyIgnored,
		// "Reserved statuses retain their specified meanings when used for
		// a step" carries no keyword.
		"result-step-outcome-reserved-status": lint.PolicyContradiction,
	}
	for _, r := range rules.Lint() {
		if w, ok := want[r.ID]; ok {
			if r.Policy != w || r.Severity != lint.Warning {
				t.Errorf("%s: %s under %q, want warning under %q", r.ID, r.Severity, r.Policy, w)
			}
			delete(want, r.ID)
		} else if r.Policy != "" {
			t.Errorf("%s: graded by %q but not listed here; add it with the reason", r.ID, r.Policy)
		}
	}
	for id := range want {
		t.Errorf("%s: no such rule", id)
	}
}

// quotes reports whether quote carries keyword kw: verbatim, or for MUST
// as a field table's "M" (Part II §1.1: "These abbreviations are exact
// synonyms for MUST and MAY").
func quotes(quote, kw string) bool {
	if strings.Contains(quote, kw) {
		return true
	}
	return kw == "MUST" && strings.Contains(quote, "| M ")
}
