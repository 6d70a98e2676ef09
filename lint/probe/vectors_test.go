package probe_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestVectorsDocFresh: docs/vectors.md is what go generate writes from
// the probe set, ServerVectors and the official vectors, which it checks
// against each other (every server vector, in their order).
func TestVectorsDocFresh(t *testing.T) {
	in, err := os.ReadFile("../../testdata/reference/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := probe.VectorsMarkdown(in)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../docs/vectors.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("docs/vectors.md is stale: run go generate ./lint/probe")
	}
}

// TestVectorClaims: every rule a vector names exists; every vector claimed
// for a probe class has a probe that exercises it, and no other class
// claims one; a setup vector says why.
func TestVectorClaims(t *testing.T) {
	ids := map[string]bool{}
	for _, r := range rules.All() {
		ids[r.ID] = true
	}
	exercised := 0
	for _, vc := range probe.ServerVectors {
		for _, r := range vc.Rules {
			if !ids[r] {
				t.Errorf("%s names rule %s, which does not exist", vc.ID, r)
			}
		}
		for _, n := range vc.Probes {
			if probe.ByName(n) == nil {
				t.Errorf("%s names probe %s, which does not exist", vc.ID, n)
			}
		}
		probes := probe.ProbesOf(vc.ID)
		switch vc.Class {
		case probe.ByProbe, probe.ByProbeRun:
			exercised++
			if len(probes) == 0 {
				t.Errorf("%s is claimed for %s but no probe exercises it", vc.ID, vc.Class)
			}
		case probe.Offline:
			exercised++
			if len(vc.Rules) == 0 {
				t.Errorf("%s is judged offline by no rule", vc.ID)
			}
		case probe.Setup:
			if vc.Note == "" {
				t.Errorf("%s needs setup but says not why", vc.ID)
			}
		}
		if (vc.Class != probe.ByProbe && vc.Class != probe.ByProbeRun) && len(probes) > 0 {
			t.Errorf("%s is exercised by %v but classed %s", vc.ID, probes, vc.Class)
		}
	}
	if exercised < 35 {
		t.Errorf("%d of %d vectors exercised or judged, the goal is 35", exercised, len(probe.ServerVectors))
	}
}
