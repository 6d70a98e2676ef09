package snapshotter

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
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
	res, err := Take(context.Background(), Options{Transport: ct, Timeout: 20 * time.Second, DiscoverTimeout: 300 * time.Millisecond})
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

// TestProbeNonPilotage: --probe of a server with no Pilotage signal sends
// no probe at all, not even the unknown-tool probe, and says why; a server
// that declares the extension is probed.
func TestProbeNonPilotage(t *testing.T) {
	for _, pilotage := range []bool{false, true} {
		opts := &mcp.ServerOptions{}
		if pilotage {
			caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
			caps.AddExtension("io.github.jafarsa0/pilotage", map[string]any{})
			opts.Capabilities = caps
		}
		s := mcp.NewServer(&mcp.Implementation{Name: "plain", Version: "0.0.1"}, opts)
		var calls int
		s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			calls++
			return &mcp.CallToolResult{}, nil
		})
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/call" {
					calls++
				}
				return next(ctx, method, req)
			}
		})
		ct, st := mcp.NewInMemoryTransports()
		ctx, cancel := context.WithCancel(context.Background())
		go func() { _ = s.Run(ctx, st) }()
		res, err := Take(context.Background(), Options{Transport: ct, Timeout: 20 * time.Second, Probe: &Probing{CallTimeout: time.Second}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if pilotage {
			if calls == 0 || res.Calls == 0 {
				t.Errorf("a server declaring Pilotage was not probed: %d calls", calls)
			}
			continue
		}
		want := "--probe sent no probe: the server shows no Pilotage signal (tools/list lists no pilotage_manifest, pilotage_get_guide or pilotage_catalog tool and the handshake declares no io.github.jafarsa0/pilotage extension), so it is an ordinary MCP server, which the probes do not judge"
		if calls != 0 || res.Calls != 0 || len(res.Warnings) != 1 || res.Warnings[0] != want {
			t.Errorf("%d calls reached the server, %d recorded; warnings %q", calls, res.Calls, res.Warnings)
		}
	}
}

// TestDiscoverHTTP: over Streamable HTTP too, a server that holds
// server/discover without a word (not even response headers) costs the
// short discover wait, then initialize, not the whole session timeout;
// and bounding that POST by the wait does not cut off a server that
// answers it a little later within the wait.
func TestDiscoverHTTP(t *testing.T) {
	for _, answer := range []bool{false, true} {
		release := make(chan struct{})
		srv := bareServer(func(w http.ResponseWriter, r *http.Request, method string, id json.RawMessage) {
			switch method {
			case "server/discover":
				if answer {
					time.Sleep(200 * time.Millisecond)
					fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "result": {"resultType": "complete", "_meta": {"io.modelcontextprotocol/serverInfo": {"name": "new", "version": "1"}}, "supportedVersions": ["2026-07-28"], "capabilities": {"tools": {}}}}`, id)
					return
				}
				select {
				case <-r.Context().Done():
				case <-release:
				}
			case "initialize":
				fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "result": {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}}, "serverInfo": {"name": "old", "version": "1"}}}`, id)
			case "tools/list":
				fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "result": {"tools": [{"name": "echo", "inputSchema": {"type": "object"}}]}}`, id)
			default:
				fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "error": {"code": -32601, "message": "Method not found"}}`, id)
			}
		})
		start := time.Now()
		res, err := Take(context.Background(), Options{URL: srv.URL, Timeout: 20 * time.Second, DiscoverTimeout: 500 * time.Millisecond})
		took := time.Since(start)
		close(release)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		want, member := "initialize", "initialize"
		if answer {
			want, member = "server/discover", "discover"
		}
		var doc map[string]json.RawMessage
		if res.Handshake != want || took > 5*time.Second {
			t.Errorf("answer %v: handshake %q after %s, want %q", answer, res.Handshake, took, want)
		} else if err := json.Unmarshal(res.JSON, &doc); err != nil || doc[member] == nil || res.Tools != 1 {
			t.Errorf("answer %v: snapshot: %s", answer, res.JSON)
		}
		t.Logf("answer %v: handshake over HTTP took %s with a 500ms discover wait and a 20s timeout", answer, took.Round(time.Millisecond))
	}
}
