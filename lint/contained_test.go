package lint

import (
	"reflect"
	"testing"
)

// TestContained holds the engine's own reading of an input to the rules'
// standard: a failure outside any rule fails that input with an
// internal-error finding, and the run goes on.
func TestContained(t *testing.T) {
	in := &Input{Name: "a.json"}
	opt := &Options{Rules: EngineRules()}
	info, fs, _, ok := contained(in, opt, func() (FileInfo, []Finding, []string, bool) {
		var n *struct{ x int }
		_ = n.x // the nil dereference CI's fuzzing once found in the engine
		return FileInfo{}, nil, nil, true
	})
	want := []Finding{{Rule: "internal-error", Severity: Error, File: "a.json", Line: 1, Column: 1, EndLine: 1, EndColumn: 1,
		Message: "pilotage-lint failed reading this input (runtime error: invalid memory address or nil pointer dereference), so no rule judged it; please report this as a pilotage-lint bug",
		Spec:    "pilotage-lint"}}
	if !ok || info.Path != "a.json" || !reflect.DeepEqual(fs, want) {
		t.Errorf("contained = %+v, %+v, ok=%v; want %+v", info, fs, ok, want)
	}
	info, fs, _, ok = contained(in, opt, func() (FileInfo, []Finding, []string, bool) {
		return FileInfo{Path: "a.json", Server: "s"}, nil, nil, true
	})
	if !ok || info.Server != "s" || fs != nil {
		t.Errorf("a reading that does not fail must pass through: %+v %+v", info, fs)
	}
}
