package manifest

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func capName(s string) types.CapabilityName { return types.CapabilityName(s) }

func TestResourceURIProblem(t *testing.T) {
	for _, c := range []struct {
		uri, prefix, name string
		problem, fix      string
	}{
		{"pilotage://guides/workflow%2Fv1", "pilotage://guides/", "workflow/v1", "", ""},
		{"pilotage://guides/workflow%2fv1", "pilotage://guides/", "workflow/v1", "", ""},
		{"pilotage://guides/workflow/v1", "pilotage://guides/", "workflow/v1", "spreads", "pilotage://guides/workflow%2Fv1"},
		{"pilotage://guides/workflow/v1/core", "pilotage://guides/", "workflow/v1", "spreads", "pilotage://guides/workflow%2Fv1"},
		{"pilotage://catalog/sql/postgres-15", "pilotage://catalog/", "sql/postgres-15", "spreads", "pilotage://catalog/sql%2Fpostgres-15"},
		{"pilotage://guides/workflow%2", "pilotage://guides/", "workflow/v1", "malformed", "pilotage://guides/workflow%2Fv1"},
		// Outside the recommended form the spec imposes nothing.
		{"https://example.com/guides/workflow/v1", "pilotage://guides/", "workflow/v1", "", ""},
		{"pilotage://guides/other%2Fv1", "pilotage://guides/", "workflow/v1", "", ""},
		{"pilotage://guides/workflow/v1", "pilotage://guides/", "", "", ""},
	} {
		problem, fix := resourceURIProblem(c.uri, c.prefix, c.name)
		if (c.problem == "") != (problem == "") || !strings.Contains(problem, c.problem) || problem != "" && fix != c.fix {
			t.Errorf("resourceURIProblem(%q, %q) = %q, %q; want %q, %q", c.uri, c.name, problem, fix, c.problem, c.fix)
		}
	}
}

func TestCapabilityIntent(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"explain", `declare "trace_fetch"`},
		{"Explain", `declare "trace_fetch"`},
		{"search", `"catalog": {"search": true}`},
		{"catalog.search", `"catalog": {"search": true}`},
		{"narrate", `"trace_fetch": {"narrate": true}`},
		{"guide", `did you mean "guides"?`},
		{"validation", `did you mean "validate"?`},
		{"trace", `did you mean "trace_fetch"?`},
		{"traceFetch", `did you mean "trace_fetch"?`},
		{"executes", `did you mean "execute"?`},
		{"catalogue", `did you mean "catalog"?`},
		{"telemetry", "remove it or use one of guides, catalog"},
	} {
		if got := capabilityIntent(c.name); !strings.Contains(got, c.want) {
			t.Errorf("capabilityIntent(%q) = %q; want it to contain %q", c.name, got, c.want)
		}
	}
}

func TestSubFeatureIntent(t *testing.T) {
	for _, c := range []struct{ parent, sub, want string }{
		{"guides", "search", `move it to "catalog": {"search": true}`},
		{"execute", "narrate", `move it to "trace_fetch": {"narrate": true}`},
		{"execute", "trace_fetch", `declare "trace_fetch": true beside execute`},
		{"execute", "idempotncy", `did you mean "idempotency"?`},
		{"catalog", "changedSince", `did you mean "changed_since"?`},
		{"validate", "strict", "validate has no sub-features"},
		{"execute", "dry_run", "test_run and idempotency"},
	} {
		if got := subFeatureIntent(capName(c.parent), c.sub); !strings.Contains(got, c.want) {
			t.Errorf("subFeatureIntent(%q, %q) = %q; want it to contain %q", c.parent, c.sub, got, c.want)
		}
	}
}

func TestClassifyVersion(t *testing.T) {
	str := func(s string) *source.Node {
		return source.Parse("v.json", []byte(strconv.Quote(s)), source.Options{}).Docs[0].Root
	}
	for _, c := range []struct {
		v    *source.Node
		want versionClass
	}{
		{str("1.1"), versionOK},
		{str("1.0"), versionOutdated},
		{str("1.2"), versionNewer},
		{str("1.10"), versionNewer},
		{str("2.0"), versionInvalid},
		{str("0.9"), versionInvalid},
		{str("1.1.0"), versionInvalid},
		// major.minor with a leading zero reads by its numbers
		// (manifest-version-spelling's info).
		{str("01.1"), versionOK},
		{str("1.01"), versionOK},
		{str("1.02"), versionNewer},
		{str("1.00"), versionOutdated},
		{str("v1.1"), versionInvalid},
		{source.Parse("v.json", []byte("1.1"), source.Options{}).Docs[0].Root, versionInvalid},
	} {
		if got := classifyVersion(c.v); got != c.want {
			t.Errorf("classifyVersion(%s %q) = %d; want %d", c.v.Kind, c.v.Text(), got, c.want)
		}
	}
}

func TestAlternativeDuration(t *testing.T) {
	for s, want := range map[string]string{
		"P0000-00-07T00:00:00":   "P7D",
		"P00000007T000000":       "P7D",
		"P0001-02-10":            "P1Y2M10D",
		"P0000-00-00T01:30:00":   "PT1H30M",
		"P0000-00-00T00:00:01,5": "PT1.5S",
		"P0000-00-00T00:00:00":   "PT0S",
	} {
		if !alternativeDuration(s) {
			t.Errorf("alternativeDuration(%q) = false", s)
		}
		if got := designatorForm(s); got != want {
			t.Errorf("designatorForm(%q) = %q, want %q", s, got, want)
		}
	}
	// Past a carry-over point, mixed separators, or no form at all.
	for _, s := range []string{"P0000-13-00", "P0000-00-31", "P0000-00-00T25:00:00", "P0000-00-00T00:60:00", "P0000-0007T00:00:00", "P0000-00-07T000000", "P7D", "P0000", "1h"} {
		if alternativeDuration(s) {
			t.Errorf("alternativeDuration(%q) = true", s)
		}
	}
}
