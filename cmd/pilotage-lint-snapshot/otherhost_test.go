package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/needtool"
	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
)

// TestSnapshotOtherHost snapshots a server on another host: a network
// namespace this test makes, joined to this one by a veth pair on a /30 of
// its own, so the URL names an address that is not loopback and the traffic
// never leaves the machine. It needs root and iproute2; CI has both and
// sets PILOTAGEKIT_REQUIRE_TOOLS, elsewhere the test skips.
func TestSnapshotOtherHost(t *testing.T) {
	bin := pilotservertest.Build(t)
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		needtool.Missing(t, "needs root on Linux to make a network namespace")
	}
	ipTool, err := exec.LookPath("ip")
	if err != nil {
		needtool.Missing(t, "needs iproute2 (ip)")
	}
	ip := func(args ...string) {
		t.Helper()
		if out, err := exec.Command(ipTool, args...).CombinedOutput(); err != nil {
			t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	id := os.Getpid() % 10000
	ns, host, peer := fmt.Sprintf("pkns%d", id), fmt.Sprintf("pkh%d", id), fmt.Sprintf("pkn%d", id)
	sub := fmt.Sprintf("10.213.%d", id%250)
	ip("netns", "add", ns)
	t.Cleanup(func() { _ = exec.Command(ipTool, "netns", "del", ns).Run() })
	ip("link", "add", host, "type", "veth", "peer", "name", peer)
	t.Cleanup(func() { _ = exec.Command(ipTool, "link", "del", host).Run() })
	ip("link", "set", peer, "netns", ns)
	ip("addr", "add", sub+".1/30", "dev", host)
	ip("link", "set", host, "up")
	ip("netns", "exec", ns, "ip", "addr", "add", sub+".2/30", "dev", peer)
	ip("netns", "exec", ns, "ip", "link", "set", peer, "up")
	ip("netns", "exec", ns, "ip", "link", "set", "lo", "up")

	url := pilotservertest.Listen(t, exec.Command(ipTool, "netns", "exec", ns, bin, "-http", sub+".2:0"))
	if !strings.Contains(url, sub+".2:") {
		t.Fatalf("the server listens on %s, not on the other host", url)
	}

	out := filepath.Join(t.TempDir(), "remote", "snap.json")
	env := func(k string) (string, bool) { return "s3cret-other-host", k == "TOKEN" }
	done := make(chan struct{})
	var code int
	var stderr string
	go func() {
		code, _, stderr = runEnv(env, "--timeout", "20s", "--url", url, "--header", "Authorization: Bearer ${TOKEN}", "--out", out)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("snapshot of the other host did not finish in 30s")
	}
	if code != exitOK {
		t.Fatalf("snapshot of %s: exit %d: %s", url, code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data)+stderr, "s3cret-other-host") {
		t.Error("the header value reached the snapshot or a message")
	}
	if got, _ := lintFile(t, out); got != "" {
		t.Errorf("findings on the other host's snapshot:\n%s", got)
	}
}
