package rules

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Tool annotations (Part III §4.5) are unverified claims, but Hosts use
// readOnlyHint to decide what to auto-approve; the Pilotage risk gate uses
// risk_hints instead, so a wrong hint misleads only generic Hosts, which is
// why these are warnings.

func init() {
	const spec = "Part III §4.5"
	register(
		&lint.Rule{
			ID: "toolschema-readonly-hint-missing", Severity: lint.Warning, Spec: spec,
			Quote:   "The following tools SHOULD declare: { \"readOnlyHint\": true } - `pilotage_manifest`; - `pilotage_get_guide`; - `pilotage_catalog`; - validate tools; - trace-fetch tools.",
			Keyword: "SHOULD",
			Summary: "A side-effect-free Pilotage tool does not declare readOnlyHint: true.",
			Doc:     "pilotage_manifest, pilotage_get_guide, pilotage_catalog, validate tools and trace-fetch tools SHOULD declare the MCP annotation readOnlyHint: true (Part III §4.5): they are side-effect free by Part II §6, and a Host that sees no hint may ask the user to approve every manifest read and every validation, which breaks the agent's validate-fix loop. The finding sits at the annotations object, at a readOnlyHint that is not true, or at the tool when it has no annotations.",
			Bad:     `{"name": "validate_flow", "inputSchema": {"type": "object"}}`,
			Good:    `{"name": "validate_flow", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": true}}`,
			Check:   checkReadOnlyHintMissing,
		},
		&lint.Rule{
			ID: "toolschema-execute-readonly-hint", Severity: lint.Warning, Spec: spec,
			Quote:   "An execute tool SHOULD declare annotations reflecting the maximum effect expressible by its Language.",
			Keyword: "SHOULD",
			Summary: "An execute tool claims readOnlyHint: true.",
			Doc:     "An execute tool SHOULD declare annotations reflecting the maximum effect its Language can express (Part III §4.5); execute is the one loop stage with side effects. A read-only claim invites a generic Host to run programs without asking. Declare readOnlyHint false (or omit it) and destructiveHint true when any catalog entry is destructive.",
			Bad:     `{"name": "run_flow", "annotations": {"readOnlyHint": true}}`,
			Good:    `{"name": "run_flow", "annotations": {"readOnlyHint": false, "destructiveHint": true}}`,
			Check:   checkExecuteReadOnlyHint,
		},
	)
}

// readOnlyTools returns the tools that should be read-only: the fixed
// access tools present and the validate and trace-fetch loop tools that do
// not also execute.
func readOnlyTools(p *lint.Pass) []*snapshot.Tool {
	var out []*snapshot.Tool
	for _, t := range pilotageTools(p) {
		if lt := t.loop; lt == nil || !lt.Serves(types.StageExecute) && (lt.Serves(types.StageValidate) || lt.Serves(types.StageTraceFetch)) {
			out = append(out, t.Tool)
		}
	}
	return out
}

func checkReadOnlyHintMissing(p *lint.Pass) {
	for _, t := range readOnlyTools(p) {
		ann := t.Annotations
		switch ro := ann.Get("readOnlyHint"); {
		case ann == nil:
			p.ReportMissing(t.Node, "tool %q has no annotations although it has no side effects; add \"annotations\": {\"readOnlyHint\": true}", t.Name)
		case !ann.IsObject():
			p.Report(ann, "tool %q has annotations that are not an object; use {\"readOnlyHint\": true}", t.Name)
		case ro == nil:
			p.ReportMissing(ann, "tool %q does not declare readOnlyHint although it has no side effects; add \"readOnlyHint\": true", t.Name)
		case !ro.IsBool() || !ro.Truth:
			p.Report(ro, "tool %q has no side effects but does not claim readOnlyHint true, so Hosts may ask for approval on every call; set it to true", t.Name)
		}
	}
}

func checkExecuteReadOnlyHint(p *lint.Pass) {
	for _, lt := range p.Snap.LoopTools() {
		if lt.Tool == nil || !lt.Serves(types.StageExecute) {
			continue
		}
		if ro := lt.Tool.Annotations.Get("readOnlyHint"); ro.IsBool() && ro.Truth {
			p.Report(ro, "execute tool %q claims readOnlyHint true although running a program can have side effects; set it to false and declare destructiveHint to match the Language's most destructive catalog entry", lt.Name)
		}
	}
}
