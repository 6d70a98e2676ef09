package pilotagetest

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/internal/pilotservertest"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
)

// BenchmarkCheck is one whole check of the conformant testdata server
// (both Languages: handshake, listing, 37 probe calls, every rule), in
// process and, for comparison, over stdio with the server as a program.
func BenchmarkCheck(b *testing.B) {
	b.Run("in-process", func(b *testing.B) {
		for b.Loop() {
			ct, st := mcp.NewInMemoryTransports()
			ss, err := pilotserver.New(pilotserver.Config{Mode: "full"}).Connect(context.Background(), st, nil)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := Check(context.Background(), ct); err != nil {
				b.Fatal(err)
			}
			ss.Close()
		}
	})
	b.Run("stdio", func(b *testing.B) {
		bin := pilotservertest.Build(b)
		for b.Loop() {
			if _, err := check(context.Background(), snapshotter.Options{Command: []string{bin, "-mode", "full"}}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
