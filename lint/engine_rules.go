package lint

import (
	"fmt"
	"sort"
)

// Rules the engine itself reports; the rules package lists them with the
// others.
var (
	InputKindRule = &Rule{
		ID:       "input-kind",
		Severity: Error,
		Spec:     "pilotage-lint",
		Summary:  "An input named on the command line is not a form pilotage-lint understands.",
		Doc:      "pilotage-lint reads manifests, pilotage_manifest results, tools/list results or tool arrays, initialize and server/discover results, JSON-RPC messages and captures, and its own snapshot format. A file named explicitly that is none of these, or that does not fit a kind forced with --input-kind, cannot be checked; files found by walking a directory are skipped quietly instead. A JSON whose \"languages\" lists locales (an array of strings, or of objects that are no Language entries, as in an app or i18n config) is no manifest, even beside a \"pilotage\" member, which is a French and Dutch word.",
		Bad:      `{"name": "my-server", "version": "1.0.0"}`,
		Good:     `{"tools": [{"name": "pilotage_manifest", "inputSchema": {"type": "object"}}]}`,
	}
	// SkippedRule is no longer reported: a skipped cross-check is not a
	// defect, and as an info finding it failed every --fail-on info run.
	// The ID stays valid in configs; Result.Skipped carries the news.
	SkippedRule = &Rule{
		ID:         "cross-checks-skipped",
		Severity:   Info,
		Spec:       "pilotage-lint",
		Deprecated: true,
		Summary:    "No longer a finding: the run summary says which cross-checks could not run.",
		Doc:        "Many rules compare two surfaces, such as the manifest's loop tools against tools/list. When an input carries only one of them, pilotage-lint runs every check it can and its summary (a line of text output, `summary.skipped` in JSON) says which cross-checks it skipped. Lint a snapshot, a capture, or pass --manifest to run them all. Until v0.1.0 this was an info finding, which made `--fail-on info` fail every such run; naming the ID in a config is still accepted and changes nothing.",
		Bad:        `{"pilotage": "1.1", "languages": [ ... ]}   (a manifest alone: tool checks skipped)`,
		Good:       `{"manifest": {...}, "tools": {"tools": [...]}, "initialize": {...}}`,
	}
	ListFailedRule = &Rule{
		ID:       "snapshot-list-failed",
		Severity: Error,
		Spec:     "pilotage-lint",
		Summary:  "The snapshot records that the server answered tools/list or resources/list with a JSON-RPC error.",
		Doc:      "`pilotage-lint snapshot` writes `\"tools\": {\"error\": {...}}` (or the same under `resources`) when the server answered the listing with a JSON-RPC error instead of a list. Such a snapshot holds no tools, so no rule can judge them: linting it clean would let a \"snapshot, then lint\" CI step pass on a broken server. The finding sits at the recorded error, for any server, Pilotage or not, since it says that nothing could be checked.",
		Bad:      `{"initialize": {...}, "tools": {"error": {"code": -32603, "message": "database unavailable"}}}`,
		Good:     `{"initialize": {...}, "tools": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}}`,
	}
	InternalRule = &Rule{
		ID:       "internal-error",
		Severity: Error,
		Spec:     "pilotage-lint",
		Locked:   true,
		Summary:  "A rule failed on this input; the other rules still ran.",
		Doc:      "pilotage-lint contains a failing rule instead of crashing. This finding names the rule and the input; it is always a pilotage-lint bug, so please report it with the input. It cannot be disabled, since the failed rule's findings would then go missing without a word; its severity can be changed.",
		Bad:      "(any input that makes a rule fail)",
		Good:     "(every other input)",
	}
)

// EngineRules returns the rules the engine reports itself.
func EngineRules() []*Rule { return []*Rule{InputKindRule, SkippedRule, ListFailedRule, InternalRule} }

// Selection is a user's choice of rules and severities.
type Selection struct {
	// Enable, when non-empty, runs only these rules (IDs).
	Enable []string
	// Disable turns rules off.
	Disable []string
	// Severity overrides default severities.
	Severity map[string]Severity
}

// Select applies a Selection to the available rules and returns copies
// carrying their effective severities. Unknown rule IDs are an error, so a
// typo in a config file does not silently disable nothing; so is disabling
// a Locked rule, which stays on under an enable list too.
func Select(all []*Rule, sel Selection) ([]*Rule, error) {
	byID := map[string]*Rule{}
	for _, r := range all {
		byID[r.ID] = r
	}
	check := func(ids []string, where string) error {
		for _, id := range ids {
			if byID[id] == nil {
				return fmt.Errorf("%s: unknown rule %q (see `pilotage-lint rules`)", where, id)
			}
		}
		return nil
	}
	if err := check(sel.Enable, "enable"); err != nil {
		return nil, err
	}
	if err := check(sel.Disable, "disable"); err != nil {
		return nil, err
	}
	var sevIDs []string
	for id := range sel.Severity {
		sevIDs = append(sevIDs, id)
	}
	sort.Strings(sevIDs)
	if err := check(sevIDs, "severity"); err != nil {
		return nil, err
	}
	for _, id := range sel.Disable {
		if byID[id].Locked {
			return nil, fmt.Errorf("disable: %s cannot be disabled: it reports a rule that failed, whose findings would otherwise go missing without a word; change its severity instead", id)
		}
	}
	on := map[string]bool{}
	for _, r := range all {
		// A deprecated rule runs only when named: its replacements cover it.
		on[r.ID] = len(sel.Enable) == 0 && !r.Deprecated || r.Locked
	}
	for _, id := range sel.Enable {
		on[id] = true
	}
	for _, id := range sel.Disable {
		on[id] = false
	}
	var out []*Rule
	for _, r := range all {
		if !on[r.ID] {
			continue
		}
		c := *r
		if s, ok := sel.Severity[r.ID]; ok {
			c.Severity = s
		}
		out = append(out, &c)
	}
	return out, nil
}
