package snapshotter

import (
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Peer is the transport of `pilotage-lint snapshot --peer-stdio`: MCP as
// newline-delimited JSON, read from r and written to w, the standard
// streams of a snapshotter whose parent process holds the server. A test
// helper in another language (npm's @pilotagekit/test) starts the
// snapshotter so and connects the author's in-process server to the
// child's pipes, with no second process and no port.
//
// Take closes both streams with the session, so the peer sees the end of
// its input once the snapshot is taken.
func Peer(r io.ReadCloser, w io.WriteCloser) mcp.Transport {
	return &mcp.IOTransport{Reader: r, Writer: w}
}
