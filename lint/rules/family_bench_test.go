package rules_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/benchdata"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// familyBenchFixtures are recorded servers whose tool schemas and calls the
// schema-reading rules of the binding, manifest and calls families judge:
// Pydantic's $defs form, plain schemas, context and input validation,
// program_ref and the guide index. The list is fixed so that runs on two
// revisions compare the same work.
var familyBenchFixtures = []string{
	"fixtures/examples/good-server.snapshot.json",
	"fixtures/examples/bad-server.snapshot.json",
	"fixtures/binding/binding-catalog-tool/good-pydantic.json",
	"fixtures/binding/binding-catalog-tool/bad-ref-enum.json",
	"fixtures/binding/binding-program-declaration/good.json",
	"fixtures/binding/binding-program-declaration/bad.json",
	"fixtures/calls/call-context-binding-accepted/bad.json",
	"fixtures/calls/call-context-binding-accepted/good-valid-context.json",
	"fixtures/calls/call-promoted-input-unchecked/bad.json",
	"fixtures/calls/call-program-ref-undeclared/bad.json",
	"fixtures/calls/call-program-ref-undeclared/good.json",
	"fixtures/calls/call-guide-index-refused/good.json",
	"fixtures/calls/call-guide-index-refused/bad.json",
	"fixtures/manifest/manifest-value-unknown/good-later-minor.json",
}

func buildSnap(b *testing.B, name string, data []byte) *snapshot.Snapshot {
	s, err := snapshot.Build(source.Parse(name, data, source.Options{}), "")
	if err != nil {
		b.Fatalf("%s: %v", name, err)
	}
	return s
}

// BenchmarkFamilyChecks runs the checks of one rule family at a time on
// snapshots built once, so what it measures is the rules' own cost, not
// parsing: the families whose schema reading issue 30 §2 unified.
func BenchmarkFamilyChecks(b *testing.B) {
	root := "../.."
	var fixtures []*snapshot.Snapshot
	for _, name := range familyBenchFixtures {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			b.Fatal(err)
		}
		fixtures = append(fixtures, buildSnap(b, name, data))
	}
	gateway := []*snapshot.Snapshot{buildSnap(b, "gateway.json", benchdata.Snapshot(1000, 200))}
	for _, fam := range []string{"binding", "manifest", "calls"} {
		var rs []*lint.Rule
		for _, f := range rules.Families() {
			if f.Name == fam {
				rs = f.Rules
			}
		}
		for _, in := range []struct {
			name  string
			snaps []*snapshot.Snapshot
		}{{"fixtures", fixtures}, {"gateway", gateway}} {
			b.Run(fam+"/"+in.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					for _, s := range in.snaps {
						for _, r := range rs {
							if r.Check == nil {
								continue
							}
							p := lint.NewPass(r, s.FileOf, func(lint.Finding) {})
							p.Snap = s
							r.Check(p)
						}
					}
				}
			})
		}
	}
}
