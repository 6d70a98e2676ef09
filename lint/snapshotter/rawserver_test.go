package snapshotter_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/rawserver"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// rawObservedBy pins each fault of the raw no-SDK server (internal/
// rawserver, written from the spec alone) to the probes whose calls carry
// its findings, with --probe-run; "surfaces" stands for findings outside
// the probe calls.
var rawObservedBy = map[string][]string{
	// The listing with a limit ends early, and the plan names entries
	// the one without a limit lacks too.
	"paging-no-cursor":      {"catalog-list-paged", "validate-program", "validate-program-again"},
	"paging-loop":           {"catalog-list", "catalog-list-paged"},
	"paging-skip":           {"catalog-list", "catalog-list-paged", "validate-program", "validate-program-again"},
	"resource-differs":      {"surfaces"},
	"error-channel":         {"execute-unknown-trace-level"},
	"replay-new-run":        {"execute-idempotent-conflict", "execute-idempotent-replay"},
	"store-false-fetchable": {"trace-unstored-run"},
	"trace-above-level":     {"execute-test-run-summary"},
	// The replay is judged only for identity with the first Run (Part II
	// §6.5.2 step 1), whose answer it repeats.
	"unstable-step-ids":    {"execute-idempotent-first", "execute-test-run", "execute-test-run-summary", "validate-program-again"},
	"drift-ignored":        {"execute-drift-invalid"},
	"invalid-as-error":     {"validate-context-undeclared", "validate-empty", "validate-unparsable", "validate-unparsable-again"},
	"context-ignored":      {"validate-context-undeclared"},
	"not-found-no-version": {"catalog-get-unknown"},
}

// rawProgram is the raw server's own --probe-run program.
func rawProgram(t *testing.T) json.RawMessage {
	t.Helper()
	b, err := os.ReadFile("../../internal/rawserver/testdata/probe-program.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rawStdio connects to the raw server over its stdio transport, in
// process.
func rawStdio(t *testing.T, opts rawserver.Options) mcp.Transport {
	t.Helper()
	srv, err := rawserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(func() { cancel(); _ = sr.Close(); _ = sw.Close() })
	go func() { _ = srv.ServeStdio(ctx, sr, sw); _ = sw.Close() }()
	return &mcp.IOTransport{Reader: cr, Writer: cw}
}

// rawHTTP serves the raw server over Streamable HTTP on 127.0.0.1.
func rawHTTP(t *testing.T, opts rawserver.Options) string {
	t.Helper()
	srv, err := rawserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)
	return hs.URL + "/mcp"
}

// rawFindings probes and lints, and returns the findings as "severity
// rule probe" lines, "surfaces" outside the
// probe calls, with the snapshot and its coverage.
func rawFindings(t *testing.T, opt snapshotter.Options) ([]string, []byte, *probe.Coverage) {
	t.Helper()
	res, err := snapshotter.Take(context.Background(), opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failures) > 0 {
		t.Errorf("transport failures: %q", res.Failures)
	}
	lr, err := lint.Run(context.Background(), []lint.Input{{Name: "raw.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	calls := report.ProbesOf(lr)
	var out []string
	for _, f := range lr.Findings {
		where := "surfaces"
		for _, c := range calls {
			if probe.Inside(f.Pointer, c.Pointer) {
				where = c.Probe.Name
			}
		}
		out = append(out, f.Severity.String()+" "+f.Rule+" "+where)
	}
	return out, res.JSON, report.Coverage(lr, calls, lint.Error)
}

// TestRawServerConformant: the raw server's conformant mode draws no
// finding at all under --probe and --probe-run, over stdio
// and over Streamable HTTP with every SSE mode; over HTTP it refuses any
// request after initialize without Mcp-Protocol-Version, so the snapshot
// shows the header was sent; and its manifest resource is read.
func TestRawServerConformant(t *testing.T) {
	prog := rawProgram(t)
	for _, tc := range []struct {
		name string
		sse  string
		http bool
	}{{"stdio", "", false}, {"http sse tools", "tools", true}, {"http sse always", "always", true}, {"http sse never", "never", true}} {
		for _, run := range []json.RawMessage{nil, prog} {
			opt := snapshotter.Options{Probe: &snapshotter.Probing{Run: run, CallTimeout: 5 * time.Second}}
			if tc.http {
				opt.URL = rawHTTP(t, rawserver.Options{SSE: tc.sse})
			} else {
				opt.Transport = rawStdio(t, rawserver.Options{})
			}
			got, snap, cov := rawFindings(t, opt)
			if len(got) > 0 {
				t.Errorf("%s, --probe-run %v: findings:\n%s", tc.name, run != nil, strings.Join(got, "\n"))
			}
			if !strings.Contains(string(snap), `"manifest_resource": {`) || strings.Contains(string(snap), `"timeout_ms"`) {
				t.Errorf("%s: the manifest resource was not read, or a probe timed out", tc.name)
			}
			if cov.Failed > 0 || cov.Passed < 19 {
				t.Errorf("%s, --probe-run %v: coverage %d passed, %d failed", tc.name, run != nil, cov.Passed, cov.Failed)
			}
		}
	}
}

// TestRawServerFaults: each fault of the raw server is caught, and every
// finding it adds sits on the probes pinned to it; the paging faults and
// the manifest resource over HTTP too.
func TestRawServerFaults(t *testing.T) {
	prog := rawProgram(t)
	for _, fault := range rawserver.FaultNames() {
		want, ok := rawObservedBy[fault]
		if !ok {
			t.Errorf("fault %s is pinned to no probe", fault)
			continue
		}
		t.Run(fault, func(t *testing.T) {
			t.Parallel()
			transports := []string{"stdio"}
			if strings.HasPrefix(fault, "paging-") || fault == "resource-differs" {
				transports = append(transports, "http")
			}
			for _, tr := range transports {
				opt := snapshotter.Options{Probe: &snapshotter.Probing{Run: prog, CallTimeout: 5 * time.Second}}
				if tr == "http" {
					opt.URL = rawHTTP(t, rawserver.Options{Fault: fault})
				} else {
					opt.Transport = rawStdio(t, rawserver.Options{Fault: fault})
				}
				got, _, _ := rawFindings(t, opt)
				var at []string
				errs := 0
				for _, l := range got {
					f := strings.Fields(l)
					if f[0] == "error" {
						errs++
					}
					if !slices.Contains(at, f[2]) {
						at = append(at, f[2])
					}
				}
				slices.Sort(at)
				if errs == 0 || !slices.Equal(at, want) {
					t.Errorf("%s: findings on %v, want an error on exactly %v:\n%s", tr, at, want, strings.Join(got, "\n"))
				}
			}
		})
	}
}
