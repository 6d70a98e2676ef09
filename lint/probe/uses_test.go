package probe_test

import (
	"encoding/json"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
)

// TestUses: a probe's Uses says what the Build knows. With every
// capability declared and everything learned but no --probe-run program,
// exactly the probes that use the program send nothing, for want of one;
// given one, each sends to the loop tool its Uses names.
func TestUses(t *testing.T) {
	var tg *probe.Target
	for _, c := range targets() {
		if c.Language.Execution == "immediate" && c.Language.Retention == "session" && c.Caps.SubFeature("execute", "test_run") && c.ExecuteType == "object" {
			tg = c
		}
	}
	tool := map[probe.ProgramUse]string{probe.ValidatesProgram: tg.Language.Loop.Validate, probe.ExecutesProgram: tg.Language.Loop.Execute, probe.FetchesRun: tg.Language.Loop.Trace}
	n := 0
	for _, p := range probe.Set {
		without := *tg
		without.Program = nil
		_, why := p.Build(&without)
		needs := why != nil && why.Kind == probe.NoProbeRun
		if needs != (p.Uses != probe.NoProgram) {
			t.Errorf("%s: Uses %d, but without a program its Build skips with %v", p.Name, p.Uses, why)
		}
		if p.Uses == probe.NoProgram {
			continue
		}
		n++
		with := *tg
		with.Program = json.RawMessage(`{"steps": []}`)
		reqs, why := p.Build(&with)
		if why != nil || len(reqs) == 0 || reqs[0].Tool != tool[p.Uses] {
			t.Errorf("%s: Uses %d, but with a program it sends %+v (skip %v), not to %s", p.Name, p.Uses, reqs, why, tool[p.Uses])
		}
	}
	if n != 14 {
		t.Errorf("%d probes use the program, want 14", n)
	}
}
