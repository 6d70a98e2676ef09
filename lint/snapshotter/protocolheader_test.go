package snapshotter

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"
)

// TestHTTPProtocolVersionHeader holds the snapshot client to MCP's
// Streamable HTTP rule that every request after initialize carries the
// negotiated MCP-Protocol-Version header: a strict server refuses a request
// without it (HTTP 400), and the snapshot must still be taken.
func TestHTTPProtocolVersionHeader(t *testing.T) {
	var mu sync.Mutex
	var missing []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		json.Unmarshal(body, &msg)
		reply := func(result any) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Mcp-Session-Id", "s1")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID, "result": result})
		}
		switch {
		case msg.Method == "server/discover":
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": msg.ID,
				"error": map[string]any{"code": -32601, "message": "Method not found"}})
			return
		case msg.Method == "initialize":
			reply(map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{"tools": map[string]any{}},
				"serverInfo": map[string]any{"name": "strict", "version": "1"}})
			return
		case len(msg.ID) == 0:
			w.WriteHeader(http.StatusAccepted) // the initialized notification ends the handshake
			return
		}
		if r.Header.Get("Mcp-Protocol-Version") != "2025-11-25" {
			mu.Lock()
			missing = append(missing, msg.Method)
			mu.Unlock()
			http.Error(w, "missing MCP-Protocol-Version", http.StatusBadRequest)
			return
		}
		switch msg.Method {
		case "tools/list":
			reply(map[string]any{"tools": []any{}})
		case "resources/list":
			reply(map[string]any{"resources": []any{}})
		default:
			reply(map[string]any{})
		}
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := Take(ctx, Options{URL: srv.URL, Timeout: 15 * time.Second, DiscoverTimeout: 2 * time.Second})
	mu.Lock()
	defer mu.Unlock()
	if len(missing) > 0 {
		t.Errorf("requests sent after initialize without MCP-Protocol-Version: %v", missing)
	}
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	if res.Handshake == "" {
		t.Errorf("no handshake recorded: %+v", res)
	}
}
