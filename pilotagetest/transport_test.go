package pilotagetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// exitMidProbe checks the testdata server over stdio with -transport exit:
// it exits on the probe guide-unknown-id, so that call and every probe
// after it draw no answer.
func exitMidProbe(t *testing.T, opts ...Option) *Report {
	t.Helper()
	bin := pilotservertest.Build(t)
	rep, err := check(context.Background(), snapshotter.Options{Command: []string{bin, "-mode", "full", "-transport", "exit"}}, append([]Option{CallTimeout(5 * time.Second)}, opts...))
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestTransportFailureFails: a server that crashes mid-probe fails the
// check as a whole, whatever the rule selection, as snapshot exits 1 for
// it: with probe-expectation off no rule judges the unanswered call, and
// the probes after it were never sent.
func TestTransportFailureFails(t *testing.T) {
	const crashed = "the server closed its standard output mid-probe: it exited or crashed"
	for _, opts := range [][]Option{nil, {Disable("probe-expectation")}} {
		rep := exitMidProbe(t, opts...)
		if !strings.Contains(strings.Join(rep.Failures, "\n"), crashed) {
			t.Errorf("with %d options, the crash is not among the failures of the server as a whole: %q", len(opts), rep.Failures)
		}
	}
}

// TestCrashDescribed: the failure on the call the server crashed on says
// why no answer came, not that the call timed out.
func TestCrashDescribed(t *testing.T) {
	rep := exitMidProbe(t)
	c := caseNamed(rep, "guide-unknown-id")
	if c == nil || len(c.Failures) == 0 {
		t.Fatalf("guide-unknown-id does not fail: %+v", c)
	}
	msg := strings.Join(c.Failures, "\n")
	if strings.Contains(msg, "call timeout") || !strings.Contains(msg, "    response: none: the call failed: the server closed its standard output mid-probe") {
		t.Errorf("the crash reads:\n%s", msg)
	}
}

// TestTimeoutDescribed: a call that outlived its CallTimeout says so, with
// the wait it had.
func TestTimeoutDescribed(t *testing.T) {
	rep := inProcess(t, pilotserver.New(pilotserver.Config{Mode: "full", Fault: "hang"}), CallTimeout(300*time.Millisecond))
	c := caseNamed(rep, "execute-no-runnable")
	if c == nil || !strings.Contains(strings.Join(c.Failures, "\n"), "    response: none: no answer within 300 ms\n") {
		t.Errorf("the hung call reads: %+v", c)
	}
}
