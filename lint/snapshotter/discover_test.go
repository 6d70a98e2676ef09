package snapshotter

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDiscoverIgnored: a server that never answers server/discover (an
// older server that drops unknown methods) costs the short discover wait,
// then initialize, not the whole session timeout; the snapshot records the
// initialize result.
func TestDiscoverIgnored(t *testing.T) {
	release := make(chan struct{})
	s := mcp.NewServer(&mcp.Implementation{Name: "old", Version: "0.0.1"}, nil)
	s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "server/discover" {
				select {
				case <-ctx.Done():
				case <-release:
				}
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { _ = s.Run(ctx, st) }()
	defer close(release)
	start := time.Now()
	res, err := Take(context.Background(), Options{transport: ct, Timeout: 20 * time.Second, DiscoverTimeout: 300 * time.Millisecond})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if res.Handshake != "initialize" || took > 5*time.Second {
		t.Errorf("handshake %q after %s", res.Handshake, took)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(res.JSON, &doc); err != nil || doc["initialize"] == nil || doc["discover"] != nil || res.Tools != 1 {
		t.Errorf("snapshot: %s", res.JSON)
	}
	t.Logf("an ignored server/discover cost %s with a 300ms discover wait and a 20s timeout", took.Round(time.Millisecond))
}
