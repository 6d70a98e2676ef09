package plans_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/plans/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "plans") }
