package manifest

import (
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// loopStages pairs each loop member with the capability that makes it
// present; validate is always present (Part II §4.3 rule 7).
var loopStages = []struct {
	stage types.Stage
	cap   types.CapabilityName
}{
	{types.StageValidate, ""},
	{types.StageExecute, types.CapExecute},
	{types.StageTraceFetch, types.CapTraceFetch},
}

func loopRules() []*lint.Rule {
	return []*lint.Rule{&lint.Rule{
		ID: "loop-consistency", Severity: lint.Error, Spec: "Part II §4.3, §5.1; Part III §4.3",
		Quote:   "The `loop`, `guides`, and `catalog` fields of each Language entry MUST identify exactly the operations and surfaces declared by that effective map.",
		Keyword: "MUST",
		Summary: "A Language's loop does not name exactly the operations its effective capability map declares.",
		Doc:     "The `loop` object names the Server-selected tools of the declared loop operations, and nothing else: `validate` always, `execute` if and only if execute is declared, `trace` (the trace fetch tool) if and only if trace_fetch is declared. There is no `plan` member (the plan rides the validate response) and 1.0's `explain` became `trace`. Each stage needs its own tool within a Language: a Client calls the tool named for a stage with that stage's arguments. A manifest violating this is invalid and a Client MAY refuse it.",
		Bad:     `{"capabilities": {"guides": true, "validate": true, "plan": true}, "loop": {"validate": "check_flow", "plan": "plan_flow"}}`,
		Good:    `{"capabilities": {"guides": true, "validate": true, "plan": true}, "loop": {"validate": "check_flow"}}`,
		Scope:   "The loop of every Language entry of every manifest: an object naming validate always, execute if and only if execute is declared and trace if and only if trace_fetch is declared (capability membership judged only for an entry with a declaration), each by a non-empty string, with no tool named for two stages of one Language. Under a manifest of a later minor, a member 1.1 does not define is left to manifest-version-newer; the members 1.1 defines keep their rules, since minor versions are strictly additive.",
		Exceptions: []lint.Exception{
			{Spec: "Part III §4.3", Quote: "Two Languages MAY share one loop tool only by using distinct program-bearing argument names.", Fixture: "good-shared-tools"},
			{Spec: "Part II §11.1", Quote: "The unknown-member and unknown-value rules allow an earlier minor Client to interact safely with a later minor Server.", Fixture: "good-later-minor-member"},
		},
		Check: checkLoopConsistency,
	}}
}

func checkLoopConsistency(p *lint.Pass) {
	for _, m := range manifestsOf(p.Snap) {
		later := laterMinor(m.Node)
		for _, l := range m.Langs {
			checkLoop(p, l, later)
		}
	}
}

// knownLoopMember reports whether a loop member is one Pilotage 1.1
// defines.
func knownLoopMember(key string) bool {
	_, ok := snapshot.LoopStage(key)
	return ok
}

// checkLoop judges one Language's loop. Under a later minor version (later)
// a member 1.1 does not define is not judged: minor versions add OPTIONAL
// fields (Part II §11.1), so 1.2 may add a loop member with a capability of
// its own; manifest-version-newer names it. What 1.1 defines keeps its
// meaning, because minor versions are strictly additive: validate is still
// required, and execute and trace still follow their capabilities.
func checkLoop(p *lint.Pass, l *snapshot.Language, later bool) {
	loop := l.Node.Get("loop")
	switch {
	case loop == nil:
		p.ReportMissing(l.Node, `Language %s lacks "loop"; add "loop": {"validate": "<tool name>"} naming its loop tools`, l.Label())
		return
	case !loop.IsObject():
		p.Report(loop, `the loop of Language %s is %s, not an object; write {"validate": "<tool name>", ...}`, l.Label(), rulekit.QuoteJSON(loop))
		return
	}
	used := map[string]*source.Node{}
	for _, m := range loop.Kids() {
		switch {
		case knownLoopMember(m.Key()):
		case later:
			continue
		case m.Key() == "plan":
			p.ReportKey(m, "loop.plan is not a loop member because the validate tool returns the plan; remove it")
			continue
		case m.Key() == "explain":
			p.ReportKey(m, `loop.explain is Pilotage 1.0's; in 1.1 the trace fetch tool is named by loop.trace (with capability trace_fetch), so rename the member`)
			continue
		default:
			p.ReportKey(m, "loop.%s is not a loop member (validate, execute, trace); remove it", m.Key())
			continue
		}
		if !m.IsString() || m.Text() == "" {
			p.Report(m, "loop.%s of Language %s is %s; write the name of the tool in tools/list", m.Key(), l.Label(), rulekit.QuoteJSON(m))
			continue
		}
		if prev := used[m.Text()]; prev != nil {
			p.Report(m, "loop.%s and loop.%s of Language %s both name %q; give each stage its own tool", prev.Key(), m.Key(), l.Label(), m.Text())
			continue
		}
		used[m.Text()] = m
	}
	for _, s := range loopStages {
		v := loop.Get(string(s.stage))
		if s.cap == "" {
			if v == nil {
				p.ReportMissing(loop, "the loop of Language %s lacks validate, which every Language MUST name; add \"validate\": \"<tool name>\"", l.Label())
			}
			continue
		}
		// Without any declaration capability-declaration-missing speaks.
		if !l.Caps.Exists() {
			continue
		}
		declared := l.Caps.Declared(string(s.cap))
		switch {
		case declared && v == nil:
			p.ReportMissing(loop, "Language %s declares %s but its loop lacks %s; add \"%s\": \"<tool name>\"", l.Label(), s.cap, s.stage, s.stage)
		case !declared && v != nil:
			p.ReportKey(v, "loop.%s is present but Language %s does not declare %s; declare %s or remove loop.%s", s.stage, l.Label(), s.cap, s.cap, s.stage)
		}
	}
}
