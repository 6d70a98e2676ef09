package manifest

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// floorCaps are the capabilities every Language MUST declare (Part II §4.3
// rule 1).
var floorCaps = []types.CapabilityName{types.CapGuides, types.CapValidate}

// capabilityAliases are names people write for a capability identifier:
// earlier drafts, other protocols' words, plurals and spellings.
var capabilityAliases = map[string]types.CapabilityName{
	"guide": types.CapGuides, "docs": types.CapGuides, "learn": types.CapGuides,
	"catalogue": types.CapCatalog, "lookup": types.CapCatalog,
	"validation": types.CapValidate, "validator": types.CapValidate, "check": types.CapValidate,
	"plans": types.CapPlan, "planning": types.CapPlan,
	"execution": types.CapExecute, "exec": types.CapExecute, "run": types.CapExecute,
	"trace": types.CapTraceFetch, "traces": types.CapTraceFetch, "fetch": types.CapTraceFetch,
	"tracefetch": types.CapTraceFetch, "trace-fetch": types.CapTraceFetch,
}

// subFeatureOwner returns the capability a sub-feature name belongs to.
func subFeatureOwner(sub string) (types.CapabilityName, bool) {
	for _, c := range types.Capabilities {
		if types.IsKnownSubFeature(c, sub) {
			return c, true
		}
	}
	return "", false
}

// capabilityIntent says what an unknown capability identifier most likely
// meant, as the second half of a finding's sentence.
func capabilityIntent(name string) string {
	lower := strings.ToLower(name)
	if lower == "explain" {
		return `Pilotage 1.1 folded 1.0's explain into the trace fetch door, so declare "trace_fetch" and name its tool in loop.trace`
	}
	// A dotted or flat sub-feature ("catalog.search", "search") belongs
	// inside its parent's object.
	parent, sub, dotted := strings.Cut(name, ".")
	if !dotted {
		sub = name
	}
	if owner, ok := subFeatureOwner(sub); ok && (!dotted || types.CapabilityName(parent) == owner) {
		return fmt.Sprintf(`it is a sub-feature of %s, so declare it inside its parent as "%s": {"%s": true}`, owner, owner, sub)
	}
	if c, ok := capabilityAliases[lower]; ok {
		return fmt.Sprintf("did you mean %q?", c)
	}
	if c := nearest(lower, capabilityNames()); c != "" {
		return fmt.Sprintf("did you mean %q?", c)
	}
	return "Clients treat it as undeclared, so remove it or use one of " + strings.Join(capabilityNames(), ", ")
}

func capabilityNames() []string {
	out := make([]string, len(types.Capabilities))
	for i, c := range types.Capabilities {
		out[i] = string(c)
	}
	return out
}

// subFeatureIntent says what an unknown sub-feature name under capability
// parent most likely meant.
func subFeatureIntent(parent types.CapabilityName, sub string) string {
	if types.CapabilityName(sub).IsKnown() {
		return fmt.Sprintf(`%s is a capability, so declare "%s": true beside %s`, sub, sub, parent)
	}
	if owner, ok := subFeatureOwner(sub); ok {
		return fmt.Sprintf(`it belongs to %s, so move it to "%s": {"%s": true}`, owner, owner, sub)
	}
	own := types.SubFeatures[parent]
	if s := nearest(strings.ToLower(sub), own); s != "" {
		return fmt.Sprintf("did you mean %q?", s)
	}
	if len(own) == 0 {
		return fmt.Sprintf(`%s has no sub-features, so remove it or write "%s": true`, parent, parent)
	}
	return fmt.Sprintf("remove it, since Clients ignore it (the sub-features of %s are %s)", parent, strings.Join(own, " and "))
}

// nearest returns the candidate within edit distance 2 of s (ignoring "_"
// and "-"), or "" when none or several are that close.
func nearest(s string, candidates []string) string {
	norm := func(x string) string { return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(x)) }
	best, bestD, ties := "", 3, 0
	for _, c := range candidates {
		d := editDistance(norm(s), norm(c))
		switch {
		case d < bestD:
			best, bestD, ties = c, d, 0
		case d == bestD:
			ties++
		}
	}
	if ties > 0 {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// declarations yields every capability declaration object of the
// manifests, Server-level first, each once even when it governs many
// Languages.
func declarations(p *lint.Pass) []*source.Node {
	var out []*source.Node
	for _, m := range manifestsOf(p.Snap) {
		// A later minor may add capabilities and sub-features.
		if laterMinor(m.Node) {
			continue
		}
		if c := m.Node.Get("capabilities"); c.IsObject() {
			out = append(out, c)
		}
		for _, l := range m.Langs {
			if l.Caps.Lang != nil {
				out = append(out, l.Caps.Lang)
			}
		}
	}
	return out
}

// capsTarget is where a finding about a capability a Language lacks goes:
// its own declaration when it has one, else the Server-level default.
func capsTarget(l *snapshot.Language) *source.Node {
	if l.Caps.Lang != nil {
		return l.Caps.Lang
	}
	if l.Caps.Server != nil {
		return l.Caps.Server
	}
	return l.Node
}

func capabilityRules() []*lint.Rule {
	return []*lint.Rule{
		&lint.Rule{
			ID: "capability-declaration-missing", Severity: lint.Error, Spec: "Part II §4.2",
			Quote:   "For every Language, at least one of the following MUST exist: - a Server-level capability declaration; - a Language-level capability declaration.",
			Keyword: "MUST",
			Summary: "A Language has neither a Server-level nor a Language-level capability declaration.",
			Doc:     "Every Language's effective capability map is computed from the manifest's Server-level `capabilities` and the entry's own `capabilities`; at least one of them MUST exist. Without either, the Language declares nothing (not even the guides and validate floor) and the manifest is invalid.",
			Bad:     `{"pilotage": "1.1", "languages": [{"name": "workflow/v1", ... no "capabilities" ... }]}`,
			Good:    `{"pilotage": "1.1", "capabilities": {"guides": true, "validate": true}, "languages": [{"name": "workflow/v1", ... }]}`,
			Scope:   "Every Language entry of every manifest: a Server-level or a Language-level capability declaration object applies to it.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §4.2", Quote: "a Server-level capability declaration that acts as a default;", Fixture: "good-server-level"},
			},
			Check: checkDeclarationMissing,
		},
		&lint.Rule{
			ID: "capability-floor", Severity: lint.Error, Spec: "Part II §4.3",
			Quote:   "Every Language MUST declare at least: - `guides`; - `validate`.",
			Keyword: "MUST",
			Summary: "A Language does not declare both guides and validate.",
			Doc:     "The minimum capability floor: every Language MUST declare `guides` and `validate`, because Pilotage has no Language that teaches without checking or checks without teaching. The effective map counts: a Language-level `\"validate\": false` overrides a Server-level `true`.",
			Bad:     `{"capabilities": {"guides": true, "execute": true}}`,
			Good:    `{"capabilities": {"guides": true, "validate": true, "execute": true}}`,
			Scope:   "The effective capability map (Part II §4.2) of every Language that has a declaration: guides and validate declared, by true or an object, at either level.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §4.2", Quote: "otherwise, the Server-level declaration governs it.", Fixture: "good-server-level"},
				{Spec: "Part II §4.2", Quote: "an object containing boolean sub-feature declarations.", Fixture: "good-object-form"},
			},
			Check: checkFloor,
		},
		&lint.Rule{
			ID: "capability-dependency", Severity: lint.Error, Spec: "Part II §4.1, §4.3",
			Quote:   "When a capability is declared, every capability on which it depends MUST also be declared.",
			Keyword: "MUST",
			Summary: "A Language declares a capability without the capability it depends on.",
			Doc:     "Capabilities build on each other: `validate` needs `guides`, `plan` and `execute` need `validate`, and `trace_fetch` needs `execute` (there is no stored Run to fetch without execution). A dependency missing from the guides/validate floor is reported by capability-floor, so this rule in practice catches `trace_fetch` without `execute`.",
			Bad:     `{"capabilities": {"guides": true, "validate": true, "trace_fetch": true}}`,
			Good:    `{"capabilities": {"guides": true, "validate": true, "execute": true, "trace_fetch": true}}`,
			Scope:   "The effective capability map of every Language: plan, execute and trace_fetch each with the capability it depends on (a missing guides or validate is capability-floor's). Capabilities a later minor adds have no dependency this linter knows.",
			Exceptions: []lint.Exception{
				{Spec: "Part II §4.2", Quote: "A Language-level declaration replaces the Server-level declaration for that capability.", Fixture: "good-language-override"},
			},
			Check: checkDependency,
		},
		&lint.Rule{
			ID: "capability-unknown", Severity: lint.Warning, Spec: "Part II §1.3, §4.1",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A capability declaration names an identifier that is not a Pilotage 1.1 capability.",
			Doc:     "The capability set is closed: guides, catalog, validate, plan, execute and trace_fetch. A Client treats any other identifier as undeclared, so a typo, a sub-feature written at the top level, or 1.0's `explain` (folded into the trace fetch door, `trace_fetch`, in 1.1) silently declares nothing. The finding names the most likely intended identifier.",
			Bad:     `{"capabilities": {"guides": true, "validate": true, "explain": true}}`,
			Good:    `{"capabilities": {"guides": true, "validate": true, "execute": true, "trace_fetch": true}}`,
			Check:   checkCapabilityUnknown,
		},
		&lint.Rule{
			ID: "capability-subfeature", Severity: lint.Warning, Spec: "Part II §4.1, §4.2",
			Keyword: "", Policy: lint.PolicyIgnored,
			Summary: "A capability object names a sub-feature that capability does not have.",
			Doc:     "Each capability has a fixed set of sub-features (catalog: search, changed_since; guides: topic_fetch; execute: test_run, idempotency; trace_fetch: narrate). A sub-feature under the wrong parent, such as `search` under `guides`, or an unknown name is ignored by Clients, so the feature the Server meant to announce is never used. The finding names the parent it belongs to or the closest known name.",
			Bad:     `{"capabilities": {"guides": {"search": true}, "validate": true}}`,
			Good:    `{"capabilities": {"guides": {"topic_fetch": true}, "validate": true, "catalog": {"search": true}}}`,
			Check:   checkSubFeature,
		},
		&lint.Rule{
			ID: "capability-trace-fetch-retention-none", Severity: lint.Error, Spec: "Part II §4.3, §6.6",
			Quote:   "A Language MUST NOT declare `trace_fetch` when its declared retention value is `\"none\"`.",
			Keyword: "MUST NOT",
			Summary: "A Language declares trace_fetch while its retention is \"none\".",
			Doc:     "With retention `\"none\"` no Run record is kept, so the trace fetch door could only ever answer `not_found`; the retention obligation therefore forbids declaring `trace_fetch`. Either keep records (a duration, or `\"session\"` on a stateful transport) or drop `trace_fetch` and `loop.trace`.",
			Bad:     `{"capabilities": {"execute": true, "trace_fetch": true, ... }, "retention": "none"}`,
			Good:    `{"capabilities": {"execute": true, "trace_fetch": true, ... }, "retention": "P7D"}`,
			Scope:   "Every Language whose effective map declares trace_fetch while its retention is the string \"none\".",
			Exceptions: []lint.Exception{
				{Spec: "Part II §4.2", Quote: "explicitly mapped to `false`.", Fixture: "good-false"},
			},
			Check: checkTraceFetchRetentionNone,
		},
	}
}

func checkDeclarationMissing(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		if l.Caps.Exists() {
			return
		}
		if v := l.Node.Get("capabilities"); v != nil {
			p.Report(v, "the capabilities of Language %s are %s, not an object, and the manifest has no Server-level declaration; write an object declaring at least guides and validate", l.Label(), rulekit.QuoteJSON(v))
			return
		}
		p.ReportMissing(l.Node, `Language %s has no capability declaration and the manifest no Server-level one; add "capabilities" with at least "guides": true and "validate": true`, l.Label())
	})
}

func checkFloor(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		if !l.Caps.Exists() {
			return
		}
		for _, c := range floorCaps {
			if l.Caps.Declared(string(c)) {
				continue
			}
			if d := l.Caps.Decl(string(c)); d != nil {
				p.Report(d, "%s of Language %s is %s, but every Language MUST declare guides and validate; set it to true", c, l.Label(), rulekit.QuoteJSON(d))
				continue
			}
			p.ReportMissing(capsTarget(l), `Language %s does not declare %s, which every Language MUST; add "%s": true`, l.Label(), c, c)
		}
	})
}

func checkDependency(p *lint.Pass) {
	isFloor := func(c types.CapabilityName) bool { return c == types.CapGuides || c == types.CapValidate }
	forEachLanguage(p, func(l *snapshot.Language) {
		for _, c := range types.Capabilities {
			dep := c.Dependency()
			// A missing floor capability is capability-floor's finding;
			// repeating it per dependent would ask for one fix twice.
			if dep == "" || isFloor(dep) || !l.Caps.Declared(string(c)) || l.Caps.Declared(string(dep)) {
				continue
			}
			p.Report(l.Caps.Decl(string(c)), "Language %s declares %s, which depends on %s, but %s is not declared; declare %s or remove %s", l.Label(), c, dep, dep, dep, c)
		}
	})
}

func checkCapabilityUnknown(p *lint.Pass) {
	for _, d := range declarations(p) {
		for _, m := range d.Kids() {
			if types.CapabilityName(m.Key()).IsKnown() {
				continue
			}
			p.ReportKey(m, "capability %q is not a Pilotage 1.1 capability identifier; %s", m.Key(), capabilityIntent(m.Key()))
		}
	}
}

func checkSubFeature(p *lint.Pass) {
	for _, d := range declarations(p) {
		for _, c := range d.Kids() {
			parent := types.CapabilityName(c.Key())
			if !parent.IsKnown() || !c.IsObject() {
				continue
			}
			for _, s := range c.Kids() {
				if types.IsKnownSubFeature(parent, s.Key()) {
					continue
				}
				p.ReportKey(s, "%q is not a sub-feature of %s; %s", s.Key(), parent, subFeatureIntent(parent, s.Key()))
			}
		}
	}
}

func checkTraceFetchRetentionNone(p *lint.Pass) {
	forEachLanguage(p, func(l *snapshot.Language) {
		v := l.Node.Get("retention")
		if !v.IsString() || types.Retention(v.Text()) != types.RetentionNone || !l.Caps.Declared(string(types.CapTraceFetch)) {
			return
		}
		p.Report(v, `Language %s declares trace_fetch with retention "none", which keeps no Run to fetch; declare a retention duration (or "session") or remove trace_fetch and loop.trace`, l.Label())
	})
}
