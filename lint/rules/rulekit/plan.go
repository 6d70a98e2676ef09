package rulekit

import (
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// OwnTrace reports whether an execute call's trace describes the program's
// own execution, which its plan describes: an immediate Run or a test run.
// A deploy Run's trace is an installation trace, and "the body plan is not
// matched against the installation trace" (Part II §5.8.4).
func OwnTrace(c *snapshot.Call) bool {
	if c.Lang == nil {
		return false
	}
	if True(c.Arg(types.ArgTestRun)) {
		return true
	}
	exec, _ := c.Lang.Node.Str("execution")
	mode, _ := c.Arguments.Str(types.ArgMode)
	return exec == string(types.ExecutionImmediate) || exec == string(types.ExecutionBoth) && mode == string(types.RunImmediate)
}

// PlanOf returns the validate call whose plan describes the Run that
// execute call x started, and that plan: plan and trace correspond only
// for an immediate Run or test run "of a program at a given
// catalog_version" (Part II §5.8.4). It is the nearest earlier accepted
// validate of the same Language, program and context, carrying a plan,
// such that the catalog cannot have moved between the two: the Run's
// expected_catalog_version names the validate's catalog_version (a Run
// that started under that token is the Server's word that the catalog had
// not moved, §6.5.3); or, without a token, no other catalog_version of
// the Language is recorded between them and no call between them may have
// written. A replay is no Run of its own (its trace is its original's),
// nor is a deploy Run's installation trace. Any doubt pairs nothing.
func (m *Model) PlanOf(x *snapshot.Call) (*snapshot.Call, *source.Node) {
	i := m.Index(x)
	if i < 0 || x.Op != snapshot.OpExecute || x.Program == nil || x.Lang == nil || !m.NewRun(x) || !OwnTrace(x) {
		return nil, nil
	}
	expected, hasExpected := Present(x, types.ArgExpectedCatalogVersion).Value().(string)
	for j := i - 1; j >= 0; j-- {
		v := m.calls[j]
		if v.Op != snapshot.OpValidate || v.Lang != x.Lang || v.ProgramArg != x.ProgramArg || !source.Equal(v.Program, x.Program) ||
			!source.Equal(Present(v, types.ArgContext), Present(x, types.ArgContext)) {
			continue
		}
		cv, _ := v.StructuredContent.Str("catalog_version")
		if !Accepted(v) || !v.StructuredContent.Get("plan").IsObject() {
			return nil, nil
		}
		if hasExpected {
			if cv != expected {
				return nil, nil
			}
			return v, v.StructuredContent.Get("plan")
		}
		if !m.ReadsBetween(v, x) {
			return nil, nil
		}
		for _, d := range m.calls[j+1 : i] {
			if other, ok := CatalogVersion(d); ok && d.Lang == x.Lang && other != cv {
				return nil, nil
			}
		}
		return v, v.StructuredContent.Get("plan")
	}
	return nil, nil
}
