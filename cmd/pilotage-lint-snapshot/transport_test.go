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
	if code != exitIncomplete {
		t.Errorf("exit %d, want %d\n%s", code, exitIncomplete, stderr)
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

// TestSnapshotIncomplete: a snapshot the session's --timeout ended in the
// middle of the probe, and one whose manifest resource drew no answer,
// are written but are no success: exit 1, with what was cut short or not
// read named on standard error. Before, both exited 0 with a warning, and
// --timeout, documented as fatal, was not (review B 1a, 1b).
func TestSnapshotIncomplete(t *testing.T) {
	bin := pilotserver(t)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"session ran out", []string{"--probe", "--timeout", "3s", "--", bin, "-mode", "full", "-delay", "100ms"},
			"pilotage-lint snapshot: error: the session ran out of its --timeout of 3s before the snapshot was complete: it cut short probe "},
		{"manifest resource hangs", []string{"--probe", "--probe-timeout", "1s", "--", bin, "-mode", "full", "-transport", "hang-read"},
			"pilotage-lint snapshot: error: resources/read of the manifest resource pilotage://manifest drew no answer (no answer within 1000 ms); its contents are not judged\n"},
		// Every snapshot reads the manifest resource, probe or not, within
		// the default probe call timeout.
		{"manifest resource hangs, no probe", []string{"--", bin, "-mode", "full", "-transport", "hang-read"},
			"pilotage-lint snapshot: error: resources/read of the manifest resource pilotage://manifest drew no answer (no answer within 5000 ms); its contents are not judged\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "s.json")
			code, _, stderr := runCLI(append([]string{"--out", out}, tc.args...)...)
			if code != exitIncomplete || !strings.Contains(stderr, tc.want) || strings.Contains(stderr, "warning") {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, exitIncomplete, stderr)
			}
			if _, err := os.Stat(out); err != nil {
				t.Errorf("the snapshot was not written: %v", err)
			}
		})
	}
}
