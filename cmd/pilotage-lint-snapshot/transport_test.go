package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotTransportFailure: a probe call that failed for a transport
// reason is no success: the snapshot is written with the reason recorded,
// the failure is named on standard error, and the exit status is 1; a
// --max-bytes that is not positive is a usage error.
func TestSnapshotTransportFailure(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	code, _, stderr := runCLI("--probe", "--out", out, "--", pilotserver(t), "-mode", "full", "-transport", "exit")
	if code != exitTransport {
		t.Errorf("exit %d, want %d\n%s", code, exitTransport, stderr)
	}
	for _, want := range []string{
		"pilotage-lint snapshot: error: tools/call pilotage_get_guide: the server closed its standard output mid-probe: it exited or crashed",
		"its standard error ends: pilotserver: exiting mid-probe on purpose",
		"1 probe call failed for a transport reason; the snapshot records why, and lint fails it",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	data, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(data), `"failure": "the server closed its standard output mid-probe`) {
		t.Errorf("the snapshot does not record the failure (%v)", err)
	}
	if code, _, stderr := runCLI("--max-bytes", "0", "--", "true"); code != exitUsage || !strings.Contains(stderr, "--max-bytes must be positive") {
		t.Errorf("--max-bytes 0: exit %d\n%s", code, stderr)
	}
}
