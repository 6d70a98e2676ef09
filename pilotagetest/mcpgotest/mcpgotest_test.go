package mcpgotest

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver/mcpgoserver"
	"github.com/pilotagekit/pilotagekit/pilotagetest"
)

// TestConformant: the testdata server served by mcp-go passes, in
// process, through the public entry point.
func TestConformant(t *testing.T) {
	start := time.Now()
	snap := filepath.Join(t.TempDir(), "mcpgo.snapshot.json")
	Run(t, mcpgoserver.New(pilotserver.Config{Mode: "full"}), pilotagetest.WriteSnapshot(snap))
	t.Logf("in-process probe and lint over mcp-go: %v", time.Since(start))
	// The recording is mcp-go's: its server name, and every probe sent.
	b, err := os.ReadFile(snap)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name": "pilotserver-mcpgo"`, `"name": "trace-refused-run"`, `"name": "unknown-tool"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the snapshot lacks %s", want)
		}
	}
}

// probesFailing lists the probes whose cases fail, "surfaces", and
// "(top)" when the server fails as a whole.
func probesFailing(rep *pilotagetest.Report) []string {
	var out []string
	for _, n := range rep.Failed() {
		switch n {
		case "":
			out = append(out, "(top)")
			continue
		case "surfaces":
			out = append(out, n)
			continue
		}
		for _, c := range rep.Cases {
			if c.Name == n {
				out = append(out, c.Probe)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestFaults: each fault fails exactly the probes that observe it, as on
// the go-sdk server.
func TestFaults(t *testing.T) {
	for _, fault := range pilotserver.Faults {
		t.Run(fault, func(t *testing.T) {
			opts := []pilotagetest.Option{pilotagetest.CallTimeout(300 * time.Millisecond), pilotagetest.FailOn(pilotagetest.Info)}
			if pilotserver.NeedsRun[fault] {
				opts = append(opts, pilotagetest.ProbeRun(json.RawMessage(pilotserver.RunProgram)))
			}
			rep, err := Check(context.Background(), mcpgoserver.New(pilotserver.Config{Mode: "full", Fault: fault}), opts...)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := probesFailing(rep), pilotserver.ObservedBy[fault]; !slices.Equal(got, want) {
				t.Errorf("failing %v, want %v", got, want)
				for _, c := range rep.Cases {
					for _, f := range c.Failures {
						t.Logf("%s: %s", c.Name, f)
					}
				}
			}
		})
	}
}
