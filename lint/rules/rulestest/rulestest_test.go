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
