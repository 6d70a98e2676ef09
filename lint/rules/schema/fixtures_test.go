package schema_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulestest"
)

// TestFixtures runs fixtures/schema/ against its goldens.
func TestFixtures(t *testing.T) { rulestest.Fixtures(t, "schema") }

// TestExceptions holds the family's error rules to their Scope and the
// sentences that narrow them (it has none today: tool-schema-portability is
// advice).
func TestExceptions(t *testing.T) { rulestest.Exceptions(t, "schema") }
