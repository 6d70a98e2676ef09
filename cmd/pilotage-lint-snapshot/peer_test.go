package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pilot "github.com/pilotagekit/pilotagekit/internal/pilotserver"
)

// servePeer replaces the streams of --peer-stdio with pipes whose other
// ends serve a pilotserver, as @pilotagekit/test serves an author's server
// on the child's pipes; it returns a function that reports whether the
// server's session ends within a few seconds.
func servePeer(t *testing.T, cfg pilot.Config) (ended func() bool) {
	t.Helper()
	fromServer, toServer, done, ss, err := pilot.Pipe(cfg)
	if err != nil {
		t.Fatal(err)
	}
	saved := peerStreams
	peerStreams = func() (io.ReadCloser, io.WriteCloser) { return fromServer, toServer }
	t.Cleanup(func() {
		peerStreams = saved
		_ = ss.Close()
	})
	return func() bool {
		select {
		case <-done:
			return true
		case <-time.After(5 * time.Second):
			return false
		}
	}
}

// TestPeerStdio: `snapshot --probe --peer-stdio --out FILE` probes the
// server at the other end of its standard streams, writes the snapshot to
// FILE and nothing to standard output (which carries MCP), and the
// snapshot lints as one taken from a command: clean for the conformant
// server, the fault's finding for a faulty one.
func TestPeerStdio(t *testing.T) {
	for _, tc := range []struct {
		fault, want string
	}{
		{"", ""},
		{"store-ignored", "error call-store-unsupported"},
	} {
		t.Run("fault="+tc.fault, func(t *testing.T) {
			ended := servePeer(t, pilot.Config{Fault: tc.fault})
			out := filepath.Join(t.TempDir(), "peer.snapshot.json")
			code, stdout, stderr := runCLI("--probe", "--peer-stdio", "--out", out)
			if code != exitOK || stdout != "" {
				t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
			}
			if !strings.Contains(stderr, "wrote "+out+": ") {
				t.Errorf("stderr does not say where the snapshot went:\n%s", stderr)
			}
			snap, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(snap), `"name": "unknown-tool"`) {
				t.Error("the snapshot lacks the probe's last call")
			}
			lines, _ := lintFile(t, out)
			var got []string
			for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
				if f := strings.Fields(l); len(f) >= 3 {
					got = append(got, f[1]+" "+f[2])
				}
			}
			if strings.Join(got, "\n") != tc.want {
				t.Errorf("findings:\n%s\nwant:\n%s", lines, tc.want)
			}
			if !ended() {
				t.Error("the server's input is still open after the snapshot was written")
			}
		})
	}
}

// TestPeerStdioUsage: --peer-stdio refuses what it cannot honour, with
// exit 2 and a message, before it reads or writes a byte of MCP.
func TestPeerStdioUsage(t *testing.T) {
	out := filepath.Join(t.TempDir(), "s.json")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--peer-stdio"}, "--peer-stdio needs --out FILE"},
		{[]string{"--peer-stdio", "--out", out, "--", "node", "server.js"}, "takes no server command and no --url"},
		{[]string{"--peer-stdio", "--out", out, "--url", "http://127.0.0.1:1/mcp"}, "takes no server command and no --url"},
		{[]string{"--peer-stdio", "--out", out, "--header", "A: b"}, "--header goes with --url"},
	} {
		code, stdout, stderr := runCLI(tc.args...)
		if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
