package main

import (
	"fmt"
	"io"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// peerStreams are the streams --peer-stdio speaks MCP over: this process's
// standard input and output, whose other ends the parent holds. Tests
// replace them.
var peerStreams = func() (io.ReadCloser, io.WriteCloser) { return os.Stdin, os.Stdout }

// checkPeer refuses what --peer-stdio cannot take: standard output carries
// MCP, so the snapshot needs --out, and the server is the parent, so
// there is no command, URL or header. A non-zero result is the exit status
// of the usage error it reported.
func checkPeer(f *snapshotFlags, command []string, stderr io.Writer) int {
	var why string
	switch {
	case len(command) > 0 || f.url != "":
		why = "--peer-stdio takes no server command and no --url: the server is the process that started this one, at the other end of its standard input and output"
	case len(f.headers) > 0:
		why = "--header goes with --url, not --peer-stdio"
	case f.out == "":
		why = "--peer-stdio needs --out FILE: standard output carries MCP to the server"
	}
	if why == "" {
		r, _ := peerStreams()
		if file, ok := r.(*os.File); ok {
			if fi, err := file.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				why = "--peer-stdio speaks MCP over standard input and output, which are a terminal here; it is for a test helper (npm's @pilotagekit/test) that serves the MCP server on the other end"
			}
		}
	}
	if why != "" {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %s\n", why)
		return exitUsage
	}
	return exitOK
}

// peerTransport is the transport of --peer-stdio.
func peerTransport() mcp.Transport {
	r, w := peerStreams()
	return snapshotter.Peer(r, w)
}
