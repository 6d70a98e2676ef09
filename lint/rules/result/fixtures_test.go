package result_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/result/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "result") }

// TestExceptions holds each error rule of the family to its Scope and to
// the sentences that narrow its quote, each with a passing fixture.
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "result") }
