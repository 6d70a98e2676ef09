package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	testserver "github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// TestOneDefectOneSwitch: a probed server that ignores store: true under
// retention "none" draws call-store-unsupported, which explains the probe
// execute-store-unsupported, so probe-expectation stays silent. Turning
// the rule off (--disable, or disable: in the config) or regrading it does
// not bring the same defect back as probe-expectation's error: one defect,
// one switch, as pilotagetest's Disable.
func TestOneDefectOneSwitch(t *testing.T) {
	s := testserver.New(testserver.Config{Mode: "full", Fault: "store-ignored"})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{Transport: ct, Probe: &snapshotter.Probing{}})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	snap := filepath.Join(dir, "store-ignored.snapshot.json")
	if err := os.WriteFile(snap, res.JSON, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(dir, "off.yaml")
	if err := os.WriteFile(config, []byte("disable: [call-store-unsupported]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const rule = "call-store-unsupported"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"every rule", []string{"--no-config"}, exitFindings, `error call-store-unsupported "/calls/`},
		{"--disable", []string{"--no-config", "--disable", rule}, exitOK, ""},
		{"config disable:", []string{"--config", config}, exitOK, ""},
		{"--severity", []string{"--no-config", "--severity", rule + "=warning"}, exitOK, `warning call-store-unsupported "/calls/`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(append(tc.args, "--format", "json", snap)...)
			lines := findingLines(t, out)
			if code != tc.code || strings.Contains(lines, "probe-expectation") || !strings.Contains(lines, tc.want) {
				t.Errorf("exit %d (want %d), findings:\n%s%s", code, tc.code, lines, errOut)
			}
		})
	}
}
