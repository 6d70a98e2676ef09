package plans_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/plans/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "plans") }

// TestExceptions holds every error rule of the family to its Scope and to
// the sentences that narrow its quote, each with a good fixture.
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "plans") }
