package probe_test

import (
	"encoding/json"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// TestImmediate: a Target marked Immediate (pilotagetest's RunImmediate,
// on a Language with no test run) gets the run probes' requests without
// test_run, with mode "immediate" under execution "both"; unmarked, the
// same Language gets none.
func TestImmediate(t *testing.T) {
	for _, execution := range []types.ExecutionMode{types.ExecutionImmediate, types.ExecutionBoth} {
		lang := types.Language{Name: "flow/1", Execution: execution, Loop: types.Loop{Validate: "validate_flow", Execute: "run_flow"},
			Capabilities: types.CapabilityDeclaration{"validate": types.Declare(), "execute": types.Declare()}}
		m := types.Manifest{Pilotage: "1.1", Languages: []types.Language{lang}}
		target := func(immediate bool) *probe.Target {
			return &probe.Target{Language: lang, Caps: m.Effective(0), ExecuteArg: "flow", ValidateArg: "flow",
				Program: json.RawMessage(`{"steps": []}`), Immediate: immediate}
		}
		run := probe.ByName("execute-test-run")
		if got, why := run.Build(target(false)); len(got) != 0 || why == nil {
			t.Errorf("%s without Immediate: %v", execution, got)
		}
		got, _ := run.Build(target(true))
		if len(got) != 1 {
			t.Fatalf("%s with Immediate: %v", execution, got)
		}
		a := got[0].Args
		if _, ok := a["test_run"]; ok || a["trace_level"] != "full" || got[0].Tool != "run_flow" {
			t.Errorf("%s with Immediate: %v", execution, got[0])
		}
		if mode, ok := a["mode"]; execution == types.ExecutionBoth && mode != "immediate" || execution != types.ExecutionBoth && ok {
			t.Errorf("%s with Immediate: mode %v", execution, a["mode"])
		}
	}
}
