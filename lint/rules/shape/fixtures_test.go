package shape_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/shape/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "shape") }

// TestExceptions holds the family's error rules to their Scope and the
// sentences that narrow them, each with its passing fixture.
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "shape") }
