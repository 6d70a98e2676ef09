package diff

import (
	"os"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/benchdata"
	"github.com/pilotagekit/pilotagekit/lint"
)

// BenchmarkToolArguments runs the check that reads both snapshots' tool
// schemas (program argument, reserved arguments, required arguments) on
// snapshots built once, so it measures the reading, not parsing: a
// 1,000-tool gateway against itself, and the fixture pairs of its rules.
func BenchmarkToolArguments(b *testing.B) {
	pair := func(old, new []byte) *comparison {
		a, err := build(&lint.Input{Name: "old.json", Data: old}, "")
		if err != nil {
			b.Fatal(err)
		}
		n, err := build(&lint.Input{Name: "new.json", Data: new}, "")
		if err != nil {
			b.Fatal(err)
		}
		return &comparison{old: a, new: n}
	}
	read := func(name string) []byte {
		data, err := os.ReadFile(fixtureDir + name)
		if err != nil {
			b.Fatal(err)
		}
		return data
	}
	gw := benchdata.Snapshot(1000, 200)
	var fixtures []*comparison
	for _, dir := range []string{"diff-required-argument-added/bad", "diff-required-argument-added/bad-ordinary", "diff-reserved-argument-removed/bad", "diff-program-argument-renamed/bad"} {
		fixtures = append(fixtures, pair(read(dir+".old.json"), read(dir+".new.json")))
	}
	for _, in := range []struct {
		name string
		cs   []*comparison
	}{{"gateway", []*comparison{pair(gw, gw)}}, {"fixtures", fixtures}} {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range in.cs {
					c.on = map[*lint.Rule]*lint.Rule{programArgumentRenamed: programArgumentRenamed, reservedArgumentRemoved: reservedArgumentRemoved, requiredArgumentAdded: requiredArgumentAdded}
					c.findings = c.findings[:0]
					checkToolArguments(c)
				}
			}
		})
	}
}

const fixtureDir = "../../fixtures/diff/"
