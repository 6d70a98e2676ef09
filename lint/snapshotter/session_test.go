package snapshotter_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// cutCall returns the pointer and probe tag of the probe call the
// session's deadline cut short, if any.
func cutCall(t *testing.T, snap []byte) (string, map[string]any) {
	t.Helper()
	var doc struct {
		Calls []struct {
			Probe map[string]any `json:"probe"`
		} `json:"calls"`
	}
	if err := json.Unmarshal(snap, &doc); err != nil {
		t.Fatal(err)
	}
	for i, c := range doc.Calls {
		if c.Probe["cut"] != nil {
			return "/calls/" + itoa(i), c.Probe
		}
	}
	return "", nil
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestSessionTimeoutMidProbe: a session --timeout that lands while a probe
// call waits for a correct (if slow) server's answer blames nobody: the
// call is tagged cut: session, no rule judges it, and the run says which
// probe was cut short and how many were not sent. Before, the cut call was
// recorded as an ordinary timeout of whatever wait was left, and
// probe-expectation told the server it broke a MUST (review B 1a).
func TestSessionTimeoutMidProbe(t *testing.T) {
	bin := pilotserver(t)
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{
		Command: []string{bin, "-mode", "full", "-delay", "100ms"},
		Timeout: 3 * time.Second,
		Probe:   &snapshotter.Probing{CallTimeout: 2 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	at, tag := cutCall(t, res.JSON)
	if tag["cut"] != "session" || tag["timeout_ms"] == nil {
		t.Fatalf("no probe call is tagged cut: session; snapshot:\n%s", res.JSON)
	}
	lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range lr.Findings {
		if probe.Inside(f.Pointer, at) || f.Severity >= lint.Warning {
			t.Errorf("%s %s %s: %s", f.Severity, f.Rule, f.Pointer, f.Message)
		}
	}
	who := probe.ByName(tag["name"].(string)).Label()
	if l, ok := tag["language"].(string); ok {
		who += " on " + l
	}
	if !strings.HasPrefix(res.RanOut, "the session ran out of its --timeout of 3s before the snapshot was complete: it cut short probe "+who+", ") ||
		!strings.Contains(res.RanOut, " probes were not sent; ") {
		t.Errorf("RanOut %q", res.RanOut)
	}
	if len(res.Failures) > 0 {
		t.Errorf("failures: %q", res.Failures)
	}
}

// TestManifestResourceHangs: a server that never answers the read of its
// own manifest resource costs one probe call timeout, not the session:
// the read is recorded with why it drew nothing, named among the
// failures, and the probes are sent after it. Before, the read waited
// under the session's own deadline, so it spent the whole --timeout, no
// probe was sent, and the snapshot passed with a warning (review B 1b).
func TestManifestResourceHangs(t *testing.T) {
	bin := pilotserver(t)
	start := time.Now()
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{
		Command: []string{bin, "-mode", "full", "-manifest-uri", "pilotage://manifest", "-transport", "hang-read"},
		Timeout: 30 * time.Second,
		Probe:   &snapshotter.Probing{CallTimeout: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("the snapshot took %v", took)
	}
	want := "resources/read of the manifest resource pilotage://manifest drew no answer (no answer within 1000 ms); its contents are not judged"
	if len(res.Failures) != 1 || res.Failures[0] != want || res.FailedCalls != 0 || res.RanOut != "" {
		t.Errorf("failures %q (%d calls), ran out %q", res.Failures, res.FailedCalls, res.RanOut)
	}
	var doc struct {
		ManifestResource map[string]any `json:"manifest_resource"`
	}
	if err := json.Unmarshal(res.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ManifestResource["failure"] != "no answer within 1000 ms" || doc.ManifestResource["result"] != nil {
		t.Errorf("manifest_resource %v", doc.ManifestResource)
	}
	if n := sent(t, res.JSON)["unknown-tool"]; n != 1 || res.Calls < 20 {
		t.Errorf("%d probe calls, the last probe sent %d times", res.Calls, n)
	}
}

// TestManifestAgainHangs: when the manifest resource differs from the
// pilotage_manifest result and the second pilotage_manifest call, which
// tells a manifest that changed in between (Part III §3.3) from a resource
// that differs, draws no answer within the probe call timeout, the
// snapshot records why, names it among the failures, and no rule judges
// the difference. Before, the call waited under the session's deadline
// alone, and a failed one was left out, so the difference was reported
// as an error though it might be a change.
func TestManifestAgainHangs(t *testing.T) {
	bin := pilotserver(t)
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{
		Command: []string{bin, "-mode", "full", "-fault", "resource-differs", "-transport", "hang-again"},
		Probe:   &snapshotter.Probing{CallTimeout: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "the manifest resource pilotage://manifest differs from the pilotage_manifest result, and the second pilotage_manifest call, which tells a manifest that changed in between from a resource that differs, drew no answer (no answer within 1000 ms); the resource is not judged"
	if len(res.Failures) != 1 || res.Failures[0] != want || res.RanOut != "" {
		t.Errorf("failures %q, ran out %q", res.Failures, res.RanOut)
	}
	var doc struct {
		ManifestResource struct {
			Again map[string]any `json:"manifest_again"`
		} `json:"manifest_resource"`
	}
	if err := json.Unmarshal(res.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.ManifestResource.Again["failure"] != "no answer within 1000 ms" {
		t.Errorf("manifest_again %v", doc.ManifestResource.Again)
	}
	lr, err := lint.Run(context.Background(), []lint.Input{{Name: "snap.json", Data: res.JSON, Explicit: true}}, &lint.Options{Rules: rules.All()})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range lr.Findings {
		if f.Rule == "binding-manifest-resource-differs" {
			t.Errorf("%s %s: %s", f.Rule, f.Pointer, f.Message)
		}
	}
}
