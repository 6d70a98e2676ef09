package snapshotter_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// tagOf returns the probe tag of the first recorded call of the probe
// named name.
func tagOf(t *testing.T, snap []byte, name string) map[string]any {
	t.Helper()
	var doc struct {
		Calls []struct {
			Probe map[string]any `json:"probe"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(snap, &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Calls {
		if c.Probe["name"] == name {
			return c.Probe
		}
	}
	return nil
}

// TestProbeTransportFailures: a probe call that fails for a reason other
// than a timeout is recorded with that reason, the result names it as a
// failure, linting the snapshot fails on it, and the coverage counts the
// call as not answered; when the connection is gone the probes after it
// are recorded as not sent, with why.
func TestProbeTransportFailures(t *testing.T) {
	bin := pilotserver(t)
	for _, tc := range []struct {
		name, transport string
		http            bool
		maxBytes        int64
		// reason is in the failure; lost: the later probes were not sent.
		reason string
		lost   bool
	}{
		{"stdio: the server exits", "exit", false, 0, "the server closed its standard output mid-probe: it exited or crashed", true},
		{"stdio: an answer over the SDK's limit", "huge", false, 0, "the answer exceeded the MCP SDK's limit of 16777216 bytes on one stdio message", true},
		{"http: an answer over the body limit", "huge", true, 1 << 20, "the answer exceeded the limit of 1048576 bytes on one HTTP response body", false},
		{"http: an endless body", "endless", true, 1 << 20, "the answer exceeded the limit of 1048576 bytes on one HTTP response body", true},
		{"http: a dropped connection", "drop", true, 0, "the connection dropped before the answer came", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			opt := snapshotter.Options{Command: []string{bin, "-mode", "full", "-transport", tc.transport}, MaxBytes: tc.maxBytes, Probe: &snapshotter.Probing{CallTimeout: 5 * time.Second}}
			if tc.http {
				opt = snapshotter.Options{URL: pilotservertest.StartHTTP(t, "-mode", "full", "-transport", tc.transport), MaxBytes: tc.maxBytes, Probe: opt.Probe}
			}
			start := time.Now()
			res, err := snapshotter.Take(context.Background(), opt)
			if err != nil {
				t.Fatal(err)
			}
			if time.Since(start) > 20*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
			if len(res.Failures) == 0 || !strings.Contains(res.Failures[0], tc.reason) {
				t.Fatalf("failures %q, want %q", res.Failures, tc.reason)
			}
			tag := tagOf(t, res.JSON, "guide-unknown-id")
			if why, _ := tag["failure"].(string); !strings.Contains(why, tc.reason) || tag["timeout_ms"] != nil {
				t.Errorf("the call's tag: %v", tag)
			}
			lost := strings.Contains(string(res.JSON), `"not sent: the connection to the server was lost`)
			if lost != tc.lost {
				t.Errorf("later probes recorded as not sent for a lost connection: %v, want %v", lost, tc.lost)
			}
			lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			failed := false
			for _, f := range lr.Findings {
				failed = failed || f.Rule == "probe-expectation" && strings.Contains(f.Message, "got no answer ("+tc.reason)
			}
			if !failed {
				t.Error("linting the snapshot does not fail on the unanswered call")
			}
			cov := report.Coverage(lr, report.ProbesOf(lr), lint.Error)
			if cov.UnansweredCalls == 0 {
				t.Errorf("coverage counts no unanswered call: %+v", cov)
			}
			for _, v := range cov.Vectors {
				if v.ID == "PIL-LEARN-UNKNOWN-ID-B" && v.Status == probe.Passed {
					t.Error("the vector of the failed call passed")
				}
			}
		})
	}
}

// TestProbeEndlessBodyEndsAtTimeout: a body that never ends and comes too
// slowly to reach the limit ends with the session's --timeout, not later,
// and the run says it ran out.
func TestProbeEndlessBodyEndsAtTimeout(t *testing.T) {
	url := pilotservertest.StartHTTP(t, "-mode", "full", "-transport", "trickle")
	start := time.Now()
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{URL: url, Timeout: 3 * time.Second, Probe: &snapshotter.Probing{CallTimeout: time.Minute}})
	if took := time.Since(start); took > 6*time.Second {
		t.Errorf("a 3 s session took %v", took)
	}
	if err != nil {
		t.Fatal(err)
	}
	// That the session ran out before the probe finished is no warning but
	// a failure of the run, naming the call it cut short.
	if !strings.HasPrefix(res.RanOut, "the session ran out of its --timeout of 3s before the snapshot was complete: it cut short probe guide-unknown-id (PIL-LEARN-UNKNOWN-ID-B) on ") {
		t.Errorf("RanOut %q", res.RanOut)
	}
	if tag := tagOf(t, res.JSON, "guide-unknown-id"); tag["timeout_ms"] == nil || tag["failure"] != nil {
		t.Errorf("the trickled call's tag: %v", tag)
	}
}

// TestProtocolVersionHeader: over Streamable HTTP every request after the
// handshake carries Mcp-Protocol-Version, including after the fallback
// from server/discover to initialize, against a server that refuses any
// request without it (and refuses server/discover); and with an older
// revision offered first, which skips server/discover.
func TestProtocolVersionHeader(t *testing.T) {
	url := pilotservertest.StartHTTP(t, "-mode", "full", "-transport", "version")
	for _, version := range []string{"", "2025-11-25", "2025-06-18"} {
		res, err := snapshotter.Take(context.Background(), snapshotter.Options{URL: url, ProtocolVersion: version, Probe: &snapshotter.Probing{CallTimeout: 5 * time.Second}})
		if err != nil {
			t.Fatalf("offering %q: %v", version, err)
		}
		if res.Handshake != "initialize" || len(res.Failures) > 0 || strings.Contains(string(res.JSON), "timeout_ms") {
			t.Errorf("offering %q: handshake %s, failures %q", version, res.Handshake, res.Failures)
		}
		if n := sent(t, res.JSON)["unknown-tool"]; n != 1 {
			t.Errorf("offering %q: the probe did not reach its last call", version)
		}
	}
}

// TestManifestResource: the manifest resource a server advertises is
// read in every snapshot, found through resources/list or through the
// handshake's manifest_uri, and judged against the pilotage_manifest
// result: the conformant server lints clean, one whose resource holds
// another manifest draws binding-manifest-resource-differs on it.
func TestManifestResource(t *testing.T) {
	bin := pilotserver(t)
	for _, tc := range []struct {
		name string
		args []string
		uri  string
		want string
	}{
		{"listed", nil, "pilotage://manifest", ""},
		{"advertised", []string{"-manifest-uri", "pilotage://toyflow/manifest"}, "pilotage://toyflow/manifest", ""},
		{"differs", []string{"-fault", "resource-differs"}, "pilotage://manifest", "error binding-manifest-resource-differs /manifest_resource/result/contents/0/text"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := snapshotter.Take(context.Background(), snapshotter.Options{Command: append([]string{bin, "-mode", "full"}, tc.args...)})
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				ManifestResource struct {
					URI    string          `json:"uri"`
					Result json.RawMessage `json:"result"`
				} `json:"manifest_resource"`
			}
			if err := json.Unmarshal(res.JSON, &doc); err != nil {
				t.Fatal(err)
			}
			if doc.ManifestResource.URI != tc.uri || len(doc.ManifestResource.Result) == 0 {
				t.Errorf("manifest_resource read %q, want %q", doc.ManifestResource.URI, tc.uri)
			}
			lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range lr.Findings {
				// A URI other than the recommended one is a warning of its
				// own (meta-manifest-uri-recommended).
				if f.Rule != "meta-manifest-uri-recommended" {
					got = append(got, f.Severity.String()+" "+f.Rule+" "+f.Pointer)
				}
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), tc.want)
			}
		})
	}
}
