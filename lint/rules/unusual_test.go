package rules_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestRealWorldNonPilotage lints the recorded tools/list results of real
// MCP servers that do not implement Pilotage (one is not even JSON): a
// server that never claims Pilotage gets no error and no warning, and the
// run says once that the file declares no Pilotage surface.
func TestRealWorldNonPilotage(t *testing.T) {
	paths, err := filepath.Glob("../../testdata/realworld/*.json")
	if err != nil || len(paths) != 10 {
		t.Fatalf("want the 10 real listings, got %d (%v)", len(paths), err)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, err := lint.Run(context.Background(), []lint.Input{{Name: filepath.Base(p), Data: data, Explicit: true}}, &lint.Options{Rules: rules.All()})
		if err != nil {
			t.Fatal(err)
		}
		// server-sqlite is a failed capture, the text "Error: No initialize
		// response": a named file that does not parse fails closed.
		if filepath.Base(p) == "mcp-proxy.server-sqlite.json" {
			if len(res.Findings) != 1 || res.Findings[0].Rule != "json-syntax" || res.Findings[0].Severity != lint.Error {
				t.Errorf("%s: %+v, want one json-syntax error", p, res.Findings)
			}
			continue
		}
		for _, f := range res.Findings {
			if f.Severity >= lint.Warning {
				t.Errorf("%s: %s %s at %s: %s", p, f.Severity, f.Rule, f.Pointer, f.Message)
			}
		}
		if len(res.Files) != 1 || !res.Files[0].NoPilotage {
			t.Errorf("%s: files %+v, want one file marked as declaring no Pilotage surface", p, res.Files)
		}
	}
}

// TestUnusualInputs holds the correct-but-unusual inputs under
// fixtures/unusual/<rule-id>/: every good* input draws no error at all and
// nothing from the rule its folder names, and every bad* input, a near
// copy of a good one, still draws that rule at its default severity.
func TestUnusualInputs(t *testing.T) {
	var n int
	for _, in := range rulestest.Inputs(t, "unusual") {
		n++
		rule, base := filepath.Base(filepath.Dir(in)), filepath.Base(in)
		fs := rulestest.Lint(t, in)
		switch {
		case strings.HasPrefix(base, "good"):
			for _, f := range fs {
				if f.Severity == lint.Error || f.Rule == rule {
					t.Errorf("%s: a correct input draws %s %s at %s: %s", in, f.Severity, f.Rule, f.Pointer, f.Message)
				}
			}
		case strings.HasPrefix(base, "bad"):
			if rules.ByID(rule) == nil {
				t.Errorf("%s: folder %s names no rule", in, rule)
				continue
			}
			r := rules.ByID(rule)
			found := false
			for _, f := range fs {
				found = found || f.Rule == rule && f.Severity == r.Severity
			}
			if !found {
				t.Errorf("%s: want %s from %s, got %s", in, r.Severity, rule, rulestest.Golden(fs))
			}
		}
	}
	if n == 0 {
		t.Fatal("no inputs under fixtures/unusual")
	}
}
