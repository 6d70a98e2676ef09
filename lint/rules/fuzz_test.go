package rules_test

import (
	"os"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/fixtureseed"
	"github.com/pilotagekit/pilotagekit/internal/fuzzcheck"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
)

// FuzzLintFile lints one document of any bytes with every rule, detected or
// forced to any input kind. A rule that panics is contained by the engine as
// an internal-error finding; here that is a failure, like a finding without
// a position, message or spec section.
func FuzzLintFile(f *testing.F) {
	fixtureseed.Walk(fixtureRoot, 4<<10, func(_ string, data []byte, jsonl bool) { f.Add(data, uint8(0), jsonl) })
	// The recording model's readings need whole recordings, 10 to 35 KiB
	// each, beyond the small-fixture cut: one seed per reading, so that
	// mutations reach replays and conflicts, the retention window, writes
	// between calls, entries across answers, paged listings and plan
	// pairing.
	for _, name := range []string{
		"examples/good-server.snapshot.json",
		"calls/call-idempotent-replay-new-run/bad-adjacent-probes.json",
		"calls/call-idempotent-replay-new-run/good-lookalike-07-refused-then-same-key-runs.json",
		"calls/call-idempotent-replay-different-result/bad.json",
		"calls/call-execute-request-fault-accepted/bad-idempotency-conflict.json",
		"calls/call-stored-run-missing/bad.json",
		"calls/call-promoted-input-unchecked/bad.json",
		"calls/call-catalog-token-changed-needlessly/bad-first-pages.json",
		"plans/call-plan-step-riskier-than-entry/bad.json",
		"plans/call-trace-calls-unplanned/bad.json",
		"result/result-plan-trace-correspondence/bad-prefixed-only.json",
	} {
		data, err := os.ReadFile(fixtureRoot + "/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, uint8(0), false)
	}
	for k := range len(snapshot.Kinds) + 1 {
		for _, s := range []string{"", "42", "null", `{"tools":[{"name":"x","inputSchema":{"$ref":"/dev/zero"}}]}`, `{"pilotage":"1.1","languages":[{}]}`} {
			f.Add([]byte(s), uint8(k), false)
		}
	}
	opt := &lint.Options{Rules: rules.All()}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8, lines bool) {
		stop := time.AfterFunc(10*time.Second, func() { panic("linting one input took more than 10s") })
		defer stop.Stop()
		name := "fuzz.json"
		if lines {
			name = "fuzz.jsonl"
		}
		o := *opt
		if k := int(kind) % (len(snapshot.Kinds) + 1); k > 0 {
			o.InputKind = snapshot.Kinds[k-1]
		}
		_, findings := lint.LintFile(&lint.Input{Name: name, Data: data, Explicit: true}, &o)
		for i := range findings {
			if err := fuzzcheck.Finding(&findings[i]); err != nil {
				t.Fatal(err)
			}
		}
	})
}
