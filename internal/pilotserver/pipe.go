package pilotserver

import (
	"context"
	"io"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Pipe serves a server with cfg over in-process pipes, as a parent process
// serves one on a child's standard streams (`snapshot --peer-stdio`). It
// returns the client's ends, a channel closed when the server's session
// ends (a client that closes its writer ends it), and the session, which
// the caller closes.
func Pipe(cfg Config) (io.ReadCloser, io.WriteCloser, <-chan struct{}, *mcp.ServerSession, error) {
	fromServer, serverOut := io.Pipe()
	serverIn, toServer := io.Pipe()
	ss, err := New(cfg).Connect(context.Background(), &mcp.IOTransport{Reader: serverIn, Writer: serverOut}, nil)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	done := make(chan struct{})
	go func() {
		_ = ss.Wait()
		close(done)
	}()
	return fromServer, toServer, done, ss, nil
}
