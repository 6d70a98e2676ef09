package probe_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules"
)

// TestUnjudgedCallMarked: where probe-expectation cannot judge an answer
// (the request does not fit the tool's inputSchema; a JSON-RPC answer
// where that schema cannot be judged offline), it marks the call with
// SkipAt, so that the coverage counts it as not judged; on the exception
// fixtures it judges, it marks nothing.
func TestUnjudgedCallMarked(t *testing.T) {
	for fixture, want := range map[string][]lint.Unjudged{
		"good-structural-fault.json": {{Pointer: "/calls/0", Rule: "probe-expectation", What: "the answer to probe validate-unparsable, because its request does not fit the inputSchema of check_calc (a missing required member or a wrong JSON type), so the probe could not send the request its vector describes"}},
		"good-opaque-schema.json":    {{Pointer: "/calls/0", Rule: "probe-expectation", What: "the answer to probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B), because the inputSchema of pilotage_get_guide cannot be judged offline, so whether the JSON-RPC error answers a structural fault is unknown"}},
		"good-later-minor-kind.json": nil,
		"good.json":                  nil,
	} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "fixtures", "probe", "probe-expectation", fixture))
		if err != nil {
			t.Fatal(err)
		}
		res, err := lint.Run(context.Background(), []lint.Input{{Name: fixture, Data: data, Explicit: true}}, &lint.Options{Rules: rules.Lint()})
		if err != nil {
			t.Fatal(err)
		}
		var got []lint.Unjudged
		for _, u := range res.Files[0].Unjudged {
			if u.Rule == "probe-expectation" {
				got = append(got, u)
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: unjudged %+v, want %+v", fixture, got, want)
		}
	}
}

// TestCoverageRuleIDs: the rules the coverage names (lint/probe cannot
// import the rules) exist.
func TestCoverageRuleIDs(t *testing.T) {
	for _, id := range []string{probe.ExpectationRule, probe.ListingRule} {
		if rules.ByID(id) == nil {
			t.Errorf("lint/probe names rule %s, which does not exist", id)
		}
	}
}
