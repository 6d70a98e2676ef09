package rules_test

import (
	"os"
	"strings"
	"testing"
)

func TestToolschemaDebug(t *testing.T) {
	for _, p := range strings.Fields(os.Getenv("TSDEBUG")) {
		for _, f := range lintFixture(t, p) {
			t.Logf("%s:%d:%d %s %s %q %s", f.File, f.Line, f.Column, f.Severity, f.Rule, f.Pointer, f.Message)
		}
	}
}
