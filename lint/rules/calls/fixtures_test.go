package calls_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/calls/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "calls") }
