package snapshotter_test

import (
	"context"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// TestSlowStartDiscover: a server that starts slower than the discover
// wait (go run compiling, a cold npx -y) still finds server/discover in its
// pipe and answers it, late; the fallback initialize that follows is then a
// second handshake, which the go-sdk server refuses ("duplicate
// initialize"). The snapshot must not fail for the server's slowness: it
// records the server as it is.
func TestSlowStartDiscover(t *testing.T) {
	bin := pilotservertest.Build(t)
	res, err := snapshotter.Take(context.Background(), snapshotter.Options{
		Command:         []string{bin, "-mode", "compliant", "-start-delay", "1s"},
		Timeout:         20 * time.Second,
		DiscoverTimeout: 200 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("a server slower to start than the discover wait failed the snapshot: %v", err)
	}
	if res.Tools == 0 {
		t.Errorf("no tools recorded: %s", res.JSON)
	}
	if res.Handshake != "server/discover" || len(res.Warnings) != 1 {
		t.Errorf("handshake %s, warnings %q: want server/discover, and one warning saying the server was asked again", res.Handshake, res.Warnings)
	}
}
