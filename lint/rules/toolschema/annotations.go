package toolschema

import (
	"slices"
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Tool annotations (Part III §4.5) are unverified claims, but Hosts use
// readOnlyHint to decide what to auto-approve; the Pilotage risk gate uses
// risk_hints instead, so a wrong hint misleads only generic Hosts, which is
// why these are warnings.

func annotationRules() []*lint.Rule {
	const spec = "Part III §4.5"
	return []*lint.Rule{
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
			Summary: "An execute tool claims readOnlyHint: true although its Language can express an effect.",
			Doc:     "An execute tool SHOULD declare annotations reflecting the maximum effect its Language can express (Part III §4.5). A read-only claim invites a generic Host to run programs without asking, so it is reported when the input shows an effect: a served Language that deploys (execution deploy or both), or a recorded catalog entry or plan step of it whose risk_hints are not readOnly. A Language whose operations are all read-only may mark its execute tool read-only, and without such evidence the rule is silent. Declare readOnlyHint false (or omit it) and destructiveHint true when any catalog entry is destructive.",
			Bad:     `{"name": "run_flow", "annotations": {"readOnlyHint": true}}`,
			Good:    `{"name": "run_flow", "annotations": {"readOnlyHint": false, "destructiveHint": true}}`,
			Check:   checkExecuteReadOnlyHint,
		},
	}
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
		case !ro.IsBool() || !ro.Truth():
			p.Report(ro, "tool %q has no side effects but does not claim readOnlyHint true, so Hosts may ask for approval on every call; set it to true", t.Name)
		}
	}
}

// executeEffect returns evidence that an execute tool's Languages can
// express an effect: a Language that deploys programs (an installation is
// a persistent change), or a recorded catalog entry or plan step of one of
// them that is not read-only. "" means no evidence: a Language whose
// operations are all read-only may mark its execute tool read-only, since
// the annotation reflects "the maximum effect expressible by its Language".
func executeEffect(p *lint.Pass, lt *snapshot.LoopTool) string {
	langs := map[string]bool{}
	for _, l := range lt.Stages[types.StageExecute] {
		langs[l.Name] = true
		if e, _ := l.Node.Str("execution"); e == string(types.ExecutionDeploy) || e == string(types.ExecutionBoth) {
			return "Language " + l.Name + " deploys programs, which installs them"
		}
	}
	calls := rulekit.Results(p.Snap)
	for _, e := range rulekit.Entries(calls) {
		if ls := e.Get("languages"); ls.IsArray() && !slices.ContainsFunc(ls.Kids(), func(n *source.Node) bool { return n.IsString() && langs[n.Text()] }) {
			continue
		}
		if ro := e.Path("risk_hints", "readOnly"); ro.IsBool() && !ro.Truth() {
			id, _ := e.Str("id")
			return "catalog entry " + strconv.Quote(id) + " is not read-only"
		}
	}
	for _, rc := range calls {
		if rc.Op != rulekit.OpValidate || rc.Lang == nil || !langs[rc.Lang.Name] {
			continue
		}
		for _, st := range rc.Content.Path("plan", "steps").Objects() {
			if ro := st.Path("risk_hints", "readOnly"); ro.IsBool() && !ro.Truth() {
				id, _ := st.Str("id")
				return "plan step " + strconv.Quote(id) + " is not read-only"
			}
		}
	}
	return ""
}

func checkExecuteReadOnlyHint(p *lint.Pass) {
	for _, lt := range p.Snap.LoopTools() {
		if lt.Tool == nil || !lt.Serves(types.StageExecute) {
			continue
		}
		ro := lt.Tool.Annotations.Get("readOnlyHint")
		if !ro.IsBool() || !ro.Truth() {
			continue
		}
		if why := executeEffect(p, lt); why != "" {
			p.Report(ro, "execute tool %q claims readOnlyHint true, but %s; set it to false and declare destructiveHint to match the Language's most destructive catalog entry", lt.Name, why)
		}
	}
}
