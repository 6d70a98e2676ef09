package snapshotter

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestListErrorRecorded: a server that answers tools/list (or
// resources/list) with a JSON-RPC error is still snapshotted, and the file
// records the error where the list belongs, so lint fails it
// (snapshot-list-failed) instead of passing a file with no tools.
func TestListErrorRecorded(t *testing.T) {
	for _, failing := range []string{"tools/list", "resources/list", ""} {
		s := mcp.NewServer(&mcp.Implementation{Name: "broken", Version: "0.0.1"}, nil)
		s.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
		s.AddResource(&mcp.Resource{URI: "file:///a", Name: "a"}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == failing {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "database unavailable"}
				}
				return next(ctx, method, req)
			}
		})
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
		res, err := Take(context.Background(), Options{URL: srv.URL + "/mcp", Timeout: 10 * time.Second})
		srv.Close()
		if err != nil {
			t.Fatalf("%s failing: %v", failing, err)
		}
		var doc struct{ Tools, Resources json.RawMessage }
		if err := json.Unmarshal(res.JSON, &doc); err != nil {
			t.Fatal(err)
		}
		wantErr := `{"error": {"code": -32603, "message": "database unavailable"}}`
		compact := func(b json.RawMessage) string {
			var v any
			_ = json.Unmarshal(b, &v)
			out, _ := json.Marshal(v)
			return string(out)
		}
		want := compact(json.RawMessage(wantErr))
		switch failing {
		case "tools/list":
			if compact(doc.Tools) != want || res.Tools != 0 {
				t.Errorf("tools: %s", doc.Tools)
			}
		case "resources/list":
			if compact(doc.Resources) != want || !strings.Contains(string(doc.Tools), `"echo"`) {
				t.Errorf("resources: %s, tools %s", doc.Resources, doc.Tools)
			}
		default:
			if strings.Contains(string(res.JSON), `"error"`) || len(res.Warnings) != 0 {
				t.Errorf("a healthy server's snapshot records an error: %s %q", res.JSON, res.Warnings)
			}
		}
		if failing != "" && (len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], failing+` failed with JSON-RPC error -32603 "database unavailable"; the snapshot records the error`)) {
			t.Errorf("%s: warnings %q", failing, res.Warnings)
		}
	}
}
