package probe_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/probe/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "probe") }

// TestExceptions holds the family's error rules to their Scope and the
// sentences that narrow them, each with its passing fixture.
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "probe") }
