package rulestest_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestExceptionFixturesLintedOnce: Exceptions lints each exception fixture
// to see that its rule stays silent, and TestFixtures has linted every
// fixture of the family before it in the same test binary; the second
// lint of the same bytes is the first one's findings.
func TestExceptionFixturesLintedOnce(t *testing.T) {
	rulestest.Fixtures(t, "probe")
	before := rulestest.Runs()
	if want := len(rulestest.Inputs(t, "probe")); before != want {
		t.Fatalf("TestFixtures linted %d fixtures of fixtures/probe, want %d", before, want)
	}
	rulestest.Exceptions(t, "probe")
	if n := rulestest.Runs() - before; n != 0 {
		t.Errorf("Exceptions linted %d fixtures TestFixtures had linted already", n)
	}
}

// TestExceptionFixture: an exception names a fixture of its rule's folder,
// or one of fixtures/lookalikes/ that several rules share; nothing else.
func TestExceptionFixture(t *testing.T) {
	for in, want := range map[string]string{
		"good-replay":            "fixtures/calls/call-x/good-replay.json",
		"lookalikes/good-hidden": "fixtures/lookalikes/good-hidden.json",
		"bad-replay":             "",
		"lookalikes/bad-x":       "",
		"result/r/good-x":        "",
		"../calls/good-x":        "",
	} {
		got, err := rulestest.ExceptionFixture("calls", "call-x", in)
		if got != want || (err == nil) != (want != "") {
			t.Errorf("ExceptionFixture(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}
