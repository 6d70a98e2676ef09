package binding_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/binding/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "binding") }

// TestExceptions holds every error rule of the family to its scope and the
// sentences that narrow it, each with a passing fixture (issue 30 §7).
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "binding") }
