package snapshotter

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const secret = "s3cret-token-value"

// newTestServer is a small MCP server: a pilotage_manifest tool that
// answers with text only, where a manifest belongs, and a tool whose
// handler fails.
func newTestServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "testserver", Version: "0.0.1"}, nil)
	obj := map[string]any{"type": "object"}
	s.AddTool(&mcp.Tool{Name: "pilotage_manifest", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "manifest coming soon"}}}, nil
	})
	s.AddTool(&mcp.Tool{Name: "boom", InputSchema: obj}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, errors.New("boom failed")
	})
	return s
}

// serve starts the server over Streamable HTTP behind a check of the
// Authorization header. The listener is on 127.0.0.1: this workplace
// allows test traffic only to loopback addresses.
func serve(t *testing.T, tlsServer bool) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return newTestServer() }, nil)
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Authorization") {
		case "Bearer " + secret:
			h.ServeHTTP(w, r)
		case "Bearer read-only":
			http.Error(w, "forbidden", http.StatusForbidden)
		default:
			http.Error(w, "unauthorized", http.StatusUnauthorized)
		}
	})
	var srv *httptest.Server
	if tlsServer {
		srv = httptest.NewTLSServer(auth)
	} else {
		srv = httptest.NewServer(auth)
	}
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestTakeHeaders(t *testing.T) {
	url := serve(t, false)
	h, err := ParseHeaders([]string{"Authorization: Bearer ${TOKEN}"}, env(map[string]string{"TOKEN": secret}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Take(context.Background(), Options{URL: url, Headers: h, Timeout: 10 * time.Second, Calls: []Call{{Name: "boom"}, {Name: "not_a_tool"}}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(res.JSON), secret) || strings.Contains(strings.Join(res.Warnings, "\n"), secret) {
		t.Errorf("the header value leaked into the snapshot or a warning")
	}
	var doc struct {
		Tools    json.RawMessage
		Manifest json.RawMessage
		Calls    []struct {
			Name   string
			Result *struct {
				IsError bool
				Content []struct{ Text string }
			}
			Error *struct {
				Code    int
				Message string
			}
		}
	}
	if err := json.Unmarshal(res.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Tools == nil {
		t.Error("no tools recorded")
	}
	// Text where the manifest belongs is recorded as the call it was.
	if doc.Manifest != nil {
		t.Errorf("a text-only pilotage_manifest result was saved as the manifest: %s", doc.Manifest)
	}
	if len(doc.Calls) != 3 {
		t.Fatalf("recorded %d calls, want 3 (pilotage_manifest, boom, not_a_tool):\n%s", len(doc.Calls), res.JSON)
	}
	if c := doc.Calls[0]; c.Name != "pilotage_manifest" || c.Result == nil || len(c.Result.Content) != 1 || c.Result.Content[0].Text != "manifest coming soon" {
		t.Errorf("pilotage_manifest recorded as %+v", c)
	}
	// go-sdk reports a failing handler as isError; an unknown tool as a
	// JSON-RPC error. Both are recorded, neither is fatal.
	if c := doc.Calls[1]; c.Name != "boom" || (c.Error == nil && (c.Result == nil || !c.Result.IsError)) {
		t.Errorf("boom recorded as %+v", c)
	}
	if c := doc.Calls[2]; c.Name != "not_a_tool" || (c.Error == nil && (c.Result == nil || !c.Result.IsError)) {
		t.Errorf("not_a_tool recorded as %+v", c)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "pilotage_manifest returned no structuredContent") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

func TestTakeRefused(t *testing.T) {
	url := serve(t, false)
	for _, tc := range []struct {
		header []string
		status string
	}{
		{nil, "HTTP 401 Unauthorized"},
		{[]string{"Authorization: Bearer wrong-" + secret}, "HTTP 401 Unauthorized"},
		{[]string{"Authorization: Bearer read-only"}, "HTTP 403 Forbidden"},
	} {
		h, err := ParseHeaders(tc.header, env(nil))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Take(context.Background(), Options{URL: url, Headers: h, Timeout: 10 * time.Second})
		if err == nil {
			t.Fatalf("%v: no error", tc.header)
		}
		msg := err.Error()
		for _, want := range []string{tc.status, "refused", url} {
			if !strings.Contains(msg, want) {
				t.Errorf("%v: error %q lacks %q", tc.header, msg, want)
			}
		}
		if strings.Contains(msg, secret) {
			t.Errorf("error %q shows the header value", msg)
		}
	}
}

func TestTakeTLSError(t *testing.T) {
	url := serve(t, true)
	_, err := Take(context.Background(), Options{URL: url, Timeout: 10 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "TLS error connecting to "+url) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("error %v; want a TLS error naming %s", err, url)
	}
}

func TestParseHeaders(t *testing.T) {
	lookup := env(map[string]string{"TOKEN": secret, "EMPTY": ""})
	h, err := ParseHeaders([]string{"authorization: Bearer ${TOKEN}", "X-Team:  a b ", "X-Empty: ${EMPTY}"}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if got := h.Get("Authorization"); got != "Bearer "+secret {
		t.Errorf("Authorization %q", got)
	}
	if got := h.Get("X-Team"); got != "a b" {
		t.Errorf("X-Team %q", got)
	}
	for _, tc := range []struct{ arg, want string }{
		{secret, "--header number 1 is not of the form 'Name: value'"},
		{": " + secret, "--header number 1 is not of the form 'Name: value'"},
		{"Authorization: Bearer ${MISSING}", "--header Authorization names environment variable MISSING, which is not set"},
		{"X-Line: a\r\nInjected: " + secret, "--header X-Line has a line break in its value"},
	} {
		_, err := ParseHeaders([]string{tc.arg}, lookup)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.arg, err, tc.want)
		}
	}
}

// TestTakeToolsListRefused: a server that answers the handshake but
// refuses tools/list is still snapshotted, with the refusal recorded where
// the tools belong and a warning.
func TestTakeToolsListRefused(t *testing.T) {
	// A bare JSON-RPC endpoint: go-sdk servers always answer tools/list.
	srv := bareServer(func(w http.ResponseWriter, r *http.Request, method string, id json.RawMessage) {
		switch method {
		case "initialize":
			fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "result": {"protocolVersion": "2025-11-25", "capabilities": {}, "serverInfo": {"name": "bare", "version": "1"}}}`, id)
		default:
			fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %s, "error": {"code": -32601, "message": "Method not found"}}`, id)
		}
	})
	t.Cleanup(srv.Close)
	res, err := Take(context.Background(), Options{URL: srv.URL, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(res.JSON, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["initialize"] == nil && doc["discover"] == nil {
		t.Errorf("no handshake recorded:\n%s", res.JSON)
	}
	// The refusal is recorded where the list belongs, for lint to fail.
	if got := string(doc["tools"]); strings.Join(strings.Fields(got), " ") != `{ "error": { "code": -32601, "message": "Method not found" } }` {
		t.Errorf("a refused tools/list is recorded as %s:\n%s", got, res.JSON)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "tools/list failed with JSON-RPC error") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

// TestHeadersStayWithTheEndpoint: a redirect to another host does not
// carry the --header credentials along.
func TestHeadersStayWithTheEndpoint(t *testing.T) {
	url := serve(t, false)
	var leaked []string
	var mu sync.Mutex
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		leaked = append(leaked, r.Header.Get("Authorization"))
		mu.Unlock()
		http.Redirect(w, r, url, http.StatusTemporaryRedirect)
	}))
	t.Cleanup(other.Close)
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// localhost and 127.0.0.1 are different hosts to the client.
		http.Redirect(w, r, strings.Replace(other.URL, "127.0.0.1", "localhost", 1)+"/mcp", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(front.Close)
	h, err := ParseHeaders([]string{"Authorization: Bearer " + secret}, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = Take(context.Background(), Options{URL: front.URL + "/mcp", Headers: h, Timeout: 5 * time.Second})
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) == 0 {
		t.Fatal("the redirect was not followed; the test proves nothing")
	}
	for _, v := range leaked {
		if v != "" {
			t.Errorf("the redirect target received Authorization %q", v)
		}
	}
}

// bareServer is a JSON-RPC endpoint over HTTP with none of an SDK's
// handling: notifications get 202, and answer writes a JSON answer to each
// request, or holds it.
func bareServer(answer func(w http.ResponseWriter, r *http.Request, method string, id json.RawMessage)) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			http.Error(w, "bad request", http.StatusMethodNotAllowed)
			return
		}
		if req.ID == nil {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		answer(w, r, req.Method, req.ID)
	}))
}
