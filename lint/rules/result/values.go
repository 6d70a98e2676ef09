package result

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
)

func valueRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "result-value-unknown", Severity: lint.Warning, Spec: "Part II §1.3, §5.2, §6.3",
		Quote:   "These fallbacks allow later minor versions to introduce additional reserved values without making earlier Clients unsafe or incompatible.",
		Keyword: "", Policy: lint.PolicyIgnored,
		Summary: "A recorded guide level or catalog change value is outside the closed set the manifest's version defines.",
		Doc:     "Guide levels (core, reference, examples) and catalog change values (added, removed, modified) are closed sets; a Client that does not recognize a value treats the guide as reference or the change as modified (Part II §1.3), so the value silently has no effect. No sentence binds the Server to the set, so this is a warning by the severity policy. Under a manifest that declares a later minor version the value may be one that minor added: it is not reported, and manifest-version-newer names it.",
		Bad:     `{"guides": [{"id": "walkthrough", "level": "tutorial", ... }]}`,
		Good:    `{"guides": [{"id": "walkthrough", "level": "examples", ... }]}`,
		Check:   checkResultValueUnknown,
	}}
}

func checkResultValueUnknown(p *lint.Pass) {
	if laterMinor(p) {
		return
	}
	for _, v := range rulekit.UnknownResultValues(p.Snap) {
		p.Report(v.Node, "%s is not a value Pilotage 1.1 defines, so Clients %s (Part II §1.3); use %s", v.What, v.Fallback, v.Known)
	}
}
