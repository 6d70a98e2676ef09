// Package needtool lets an integration test ask for a program the machine
// may lack: without it the test skips, saying what to install, unless
// PILOTAGEKIT_REQUIRE_TOOLS is set, as CI sets it after installing every
// such program, and then the test fails instead of passing unseen.
package needtool

import (
	"os"
	"os/exec"
	"testing"
)

// Missing skips t with why, or fails it when the tools are required.
func Missing(t testing.TB, why string) {
	t.Helper()
	if os.Getenv("PILOTAGEKIT_REQUIRE_TOOLS") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// Path returns the path of the first of names found on PATH; when none is,
// it reports names[0] missing with the install hint, through Missing.
func Path(t testing.TB, install string, names ...string) string {
	t.Helper()
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	Missing(t, names[0]+" is not installed ("+install+")")
	return ""
}
