package snapshotter_test

import (
	"context"
	"io"
	"regexp"
	"strings"
	"testing"
	"time"

	pilot "github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// peer serves a pilotserver over two pipes, as the parent process of
// `snapshot --peer-stdio` does, and returns the snapshotter's ends and a
// channel closed when the server's session ends.
func peer(t *testing.T, cfg pilot.Config) (io.ReadCloser, io.WriteCloser, <-chan struct{}) {
	t.Helper()
	r, w, done, ss, err := pilot.Pipe(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	return r, w, done
}

// TestPeerProbes: over a peer's byte streams the snapshotter records the
// handshake and the probe calls as over a command's, and closing the
// session ends the peer's input, so a helper knows the snapshot is taken.
func TestPeerProbes(t *testing.T) {
	r, w, done := peer(t, pilot.Config{Fault: "store-ignored"})
	got, snap := probeFindings(t, snapshotter.Options{Transport: snapshotter.Peer(r, w), Timeout: 30 * time.Second})
	// The one finding the fault draws, on the store probe's argument (its
	// call index is the probe set's business).
	if !regexp.MustCompile(`^error call-store-unsupported /calls/[0-9]+/arguments/store$`).MatchString(got) {
		t.Errorf("findings over the peer's streams:\n%s\nwant the one call-store-unsupported error", got)
	}
	if !strings.Contains(string(snap), `"name": "unknown-tool"`) {
		t.Error("the probe did not run to its last call")
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the server's session is still open after the snapshot was taken")
	}
}

// TestPeerSilent: a peer that never answers fails the snapshot at the
// handshake when the timeout strikes, instead of hanging.
func TestPeerSilent(t *testing.T) {
	silent, _ := io.Pipe()
	sent, w := io.Pipe()
	go func() { _, _ = io.Copy(io.Discard, sent) }()
	_, err := snapshotter.Take(context.Background(), snapshotter.Options{Transport: snapshotter.Peer(silent, w), Timeout: time.Second})
	if err == nil || !strings.Contains(err.Error(), "timed out after 1s during the handshake") {
		t.Errorf("got %v; want a handshake timeout", err)
	}
}
