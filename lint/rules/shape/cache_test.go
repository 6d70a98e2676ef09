package shape_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// The shape rules keep validation outcomes by value text across files; a
// second file holding the same bad entry elsewhere must still get its own
// finding at its own position.
func TestShapeManifestSameEntryTwoFiles(t *testing.T) {
	paths, _ := filepath.Glob("../../../fixtures/*/shape-manifest/bad-resource-type.json")
	if len(paths) != 1 {
		t.Fatalf("fixture not found: %v", paths)
	}
	data, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	shifted := append([]byte("\n\n   "), data...)
	opts := &lint.Options{Rules: []*lint.Rule{rules.ByID("shape-manifest")}}
	var got []lint.Finding
	for _, in := range []*lint.Input{
		{Name: "a.json", Data: data, Explicit: true},
		{Name: "b.json", Data: shifted, Explicit: true},
		{Name: "c.json", Data: data, Explicit: true},
	} {
		_, fs := lint.LintFile(in, opts)
		if len(fs) != 1 {
			t.Fatalf("%s: %d findings, want 1: %v", in.Name, len(fs), fs)
		}
		got = append(got, fs[0])
	}
	a, b, c := got[0], got[1], got[2]
	if a.Pointer != b.Pointer || a.Message != b.Message || a.Message != c.Message || a.Line != c.Line || a.Column != c.Column {
		t.Errorf("findings differ beyond position:\n%+v\n%+v\n%+v", a, b, c)
	}
	if b.Line != a.Line+2 {
		t.Errorf("shifted file's finding is at line %d, want %d", b.Line, a.Line+2)
	}
}
