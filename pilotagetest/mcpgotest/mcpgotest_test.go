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

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver/mcpgoserver"
	"github.com/pilotagekit/pilotagekit/lint/probe"
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
			opts := []pilotagetest.Option{pilotagetest.FailOn(pilotagetest.Info)}
			// Only the hang fault waits for the call timeout; a short
			// one for every fault fails correct answers that come late
			// under -race on a loaded machine.
			if fault == "hang" {
				opts = append(opts, pilotagetest.CallTimeout(300*time.Millisecond))
			}
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

// withGuide is the full testdata server on mcp-go with its
// pilotage_get_guide handler wrapped by wrap on the guide-unknown-id
// probe's request.
func withGuide(wrap func()) *server.MCPServer {
	s := mcpgoserver.New(pilotserver.Config{Mode: "full"})
	st := s.GetTool("pilotage_get_guide")
	next := st.Handler
	s.AddTool(st.Tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		if req.GetString("id", "") == probe.NoSuchGuide {
			wrap()
		}
		return next(ctx, req)
	})
	return s
}

// TestPanickingHandler: mcp-go runs the handler in the goroutine of the
// in-process call, where the panic is recovered and reported on the
// probe that triggered it.
func TestPanickingHandler(t *testing.T) {
	rep, err := Check(context.Background(), withGuide(func() { panic("mcp-go handler down") }))
	if err != nil {
		t.Fatal(err)
	}
	if got := probesFailing(rep); !slices.Equal(got, []string{"guide-unknown-id"}) {
		t.Errorf("failing %v, want [guide-unknown-id]", got)
	}
	var errs []string
	for _, c := range rep.Cases {
		if c.Probe == "guide-unknown-id" {
			errs = c.Failures
		}
	}
	if e := strings.Join(errs, "\n"); !strings.Contains(e, "the handler panicked on probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on toyflow/1 (tools/call pilotage_get_guide): mcp-go handler down") {
		t.Errorf("the case does not report the panic:\n%s", e)
	}
}

// TestBlockedHandler: a handler that ignores its context holds the check
// no longer than its Timeout, and the failure names the waiting probe.
func TestBlockedHandler(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	const timeout = 2 * time.Second
	start := time.Now()
	rep, err := Check(context.Background(), withGuide(func() { <-release }), pilotagetest.Timeout(timeout))
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("a check with Timeout(%s) and a blocked mcp-go handler ended after %s", timeout, took.Round(time.Millisecond))
	if took > timeout+time.Second {
		t.Errorf("the check took %s, more than its Timeout %s plus 1s", took, timeout)
	}
	if len(rep.Failures) == 0 || !strings.Contains(rep.Failures[0], "while probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on toyflow/1 was waiting for its answer") {
		t.Errorf("failures %q", rep.Failures)
	}
}
