package rawserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"
)

// stdioClient drives ServeStdio through pipes, one request line at a time.
type stdioClient struct {
	t   *testing.T
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

func startStdio(t *testing.T, fault string) *stdioClient {
	t.Helper()
	srv, err := New(Options{Fault: fault})
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- srv.ServeStdio(ctx, inR, outW)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("ServeStdio: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Error("ServeStdio did not return after its input closed")
		}
	})
	c := &stdioClient{t: t, in: inW, out: bufio.NewReader(outR)}
	c.initialize()
	return c
}

func (c *stdioClient) initialize() map[string]any {
	res, rpcErr := c.request("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	if rpcErr != nil {
		c.t.Fatalf("initialize: %v", rpcErr)
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return res
}

func (c *stdioClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatal(err)
	}
}

func (c *stdioClient) readMessage() map[string]any {
	c.t.Helper()
	line, err := c.out.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("reading the answer: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(line, &m); err != nil {
		c.t.Fatalf("answer %q is not JSON: %v", line, err)
	}
	return m
}

// request sends one request and returns its result, or its error object.
func (c *stdioClient) request(method string, params any) (map[string]any, map[string]any) {
	c.t.Helper()
	c.id++
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	c.send(string(b))
	m := c.readMessage()
	if m["id"] != float64(c.id) {
		c.t.Fatalf("answer id %v, want %d", m["id"], c.id)
	}
	if e, ok := m["error"].(map[string]any); ok {
		return nil, e
	}
	return m["result"].(map[string]any), nil
}

// call runs a tool and returns structuredContent and isError; a JSON-RPC
// error fails the test.
func (c *stdioClient) call(name string, args map[string]any) (map[string]any, bool) {
	c.t.Helper()
	res, e := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	if e != nil {
		c.t.Fatalf("tools/call %s: JSON-RPC error %v", name, e)
	}
	sc, _ := res["structuredContent"].(map[string]any)
	return sc, res["isError"] == true
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

const sceneJSON = `{"steps": [
	{"do": "call", "target": "sensor.lux_hall"},
	{"id": "dark", "do": "if", "when": {"lt": ["$.steps.step-1.output.lux", 200]},
	 "then": [{"do": "call", "target": "lamp.hall", "with": {"level": 80}}]},
	{"id": "blink", "do": "repeat", "times": 2, "body": [{"id": "up", "do": "call", "target": "lamp.porch", "with": {"level": 60}}]}
], "output": {"lux": "$.steps.step-1.output.lux"}}`

func TestStdioHandshakeAndTools(t *testing.T) {
	srv, _ := New(Options{})
	c := startStdio(t, "")
	init := c.initialize()
	ext := init["capabilities"].(map[string]any)["extensions"].(map[string]any)
	if _, ok := ext[extensionID]; !ok {
		t.Errorf("initialize does not declare %s: %v", extensionID, ext)
	}
	if ins, _ := init["instructions"].(string); !strings.Contains(ins, "Pilotage") || !strings.Contains(ins, "pilotage_manifest") {
		t.Errorf("welcome text %q names neither Pilotage nor pilotage_manifest", ins)
	}

	res, e := c.request("tools/list", map[string]any{})
	if e != nil {
		t.Fatal(e)
	}
	var names []string
	for _, tl := range res["tools"].([]any) {
		tm := tl.(map[string]any)
		names = append(names, tm["name"].(string))
		for pname, p := range tm["inputSchema"].(map[string]any)["properties"].(map[string]any) {
			pm := p.(map[string]any)
			if _, titled := pm["title"]; !titled && pm["$ref"] == nil {
				t.Errorf("%s.%s has no title (Pydantic form)", tm["name"], pname)
			}
		}
	}
	want := []string{toolManifest, toolGuide, toolCatalog, toolValidate, toolExecute, toolTrace, toolStatus}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("tools/list names %v, want %v", names, want)
	}

	m, isErr := c.call(toolManifest, map[string]any{})
	if isErr || !reflect.DeepEqual(m, jsonRound(manifest())) {
		t.Errorf("pilotage_manifest = %v (isError %v)", m, isErr)
	}
	rr, e := c.request("resources/read", map[string]any{"uri": manifestURI})
	if e != nil {
		t.Fatal(e)
	}
	text := rr["contents"].([]any)[0].(map[string]any)["text"].(string)
	if !reflect.DeepEqual(decode(t, text), m) {
		t.Errorf("resource %s differs from the manifest tool's result", manifestURI)
	}

	if _, e := c.request("no/such/method", nil); e == nil || e["code"] != float64(-32601) {
		t.Errorf("unknown method answered %v, want -32601", e)
	}
	if _, e := c.request("tools/call", map[string]any{"name": "no_such_tool", "arguments": map[string]any{}}); e == nil || e["code"] != float64(-32602) {
		t.Errorf("unknown tool answered %v, want -32602", e)
	}
	if res, e := c.request("ping", nil); e != nil || len(res) != 0 {
		t.Errorf("ping = %v, %v", res, e)
	}
	c.send(`{"jsonrpc":"2.0","id":99,"method":`)
	if m := c.readMessage(); m["error"].(map[string]any)["code"] != float64(-32700) {
		t.Errorf("a cut-off line answered %v, want -32700", m)
	}
	_ = srv
}

// listAll walks a catalog listing with limit, giving up after maxPages.
func listAll(t *testing.T, call func(map[string]any) map[string]any, limit, maxPages int) (ids []string, pages int, complete bool) {
	t.Helper()
	args := map[string]any{"language": languageName, "verb": "list", "limit": limit}
	for pages < maxPages {
		sc := call(args)
		pages++
		for _, it := range sc["items"].([]any) {
			ids = append(ids, it.(map[string]any)["id"].(string))
		}
		next, ok := sc["next_cursor"].(string)
		if !ok {
			return ids, pages, true
		}
		args = map[string]any{"language": languageName, "verb": "list", "limit": limit, "cursor": next}
	}
	return ids, pages, false
}

func allIDs() []string {
	var ids []string
	for _, e := range catalogEntries() {
		ids = append(ids, e["id"].(string))
	}
	return ids
}

func TestStdioPaging(t *testing.T) {
	c := startStdio(t, "")
	call := func(a map[string]any) map[string]any {
		sc, isErr := c.call(toolCatalog, a)
		if isErr {
			t.Fatalf("catalog list %v: %v", a, sc)
		}
		return sc
	}
	for _, limit := range []int{1, 2, 4, 5, 100} {
		ids, pages, complete := listAll(t, call, limit, 20)
		if !complete || !reflect.DeepEqual(ids, allIDs()) {
			t.Errorf("limit %d: %d pages gave %v (complete %v), want %v", limit, pages, ids, complete, allIDs())
		}
		if wantPages := (9 + min(limit, maxPageSize) - 1) / min(limit, maxPageSize); pages != wantPages {
			t.Errorf("limit %d: %d pages, want %d (cap %d)", limit, pages, wantPages, maxPageSize)
		}
	}
	sc, isErr := c.call(toolCatalog, map[string]any{"language": languageName, "verb": "list", "cursor": "bm90IGEgY3Vyc29y"})
	if !isErr || sc["error"].(map[string]any)["kind"] != "invalid_request" || sc["catalog_version"] == nil {
		t.Errorf("a forged cursor answered %v (isError %v), want invalid_request with catalog_version", sc, isErr)
	}
}

func TestPagingFaults(t *testing.T) {
	for _, fault := range []string{"paging-no-cursor", "paging-loop", "paging-skip"} {
		t.Run(fault, func(t *testing.T) {
			c := startStdio(t, fault)
			call := func(a map[string]any) map[string]any {
				sc, _ := c.call(toolCatalog, a)
				return sc
			}
			ids, pages, complete := listAll(t, call, 2, 12)
			if complete && reflect.DeepEqual(ids, allIDs()) {
				t.Errorf("the listing is still complete and exact under %s: %v in %d pages", fault, ids, pages)
			}
			if fault == "paging-loop" && complete {
				t.Errorf("paging-loop listing ended after %d pages", pages)
			}
		})
	}
}

func TestStdioLoop(t *testing.T) {
	c := startStdio(t, "")
	scene := decode(t, sceneJSON)
	v, isErr := c.call(toolValidate, map[string]any{"lumen": scene})
	if isErr || v["valid"] != true {
		t.Fatalf("validate: %v", v)
	}
	cv := v["catalog_version"].(string)
	var planIDs []string
	for _, s := range v["plan"].(map[string]any)["steps"].([]any) {
		planIDs = append(planIDs, s.(map[string]any)["id"].(string))
	}
	if want := []string{"step-1", "dark", "dark-then-1", "blink", "up"}; !reflect.DeepEqual(planIDs, want) {
		t.Errorf("plan ids %v, want %v", planIDs, want)
	}
	args := map[string]any{"lumen": scene, "mode": "immediate", "expected_catalog_version": cv, "idempotency_key": "k1"}
	r1, isErr := c.call(toolExecute, args)
	if isErr || r1["outcome"].(map[string]any)["ok"] != true {
		t.Fatalf("execute: %v", r1)
	}
	var traceIDs []string
	for _, s := range r1["trace"].(map[string]any)["steps"].([]any) {
		traceIDs = append(traceIDs, s.(map[string]any)["id"].(string))
	}
	if want := []string{"step-1", "dark", "dark-then-1", "blink", "up#1", "up#2"}; !reflect.DeepEqual(traceIDs, want) {
		t.Errorf("trace ids %v, want %v", traceIDs, want)
	}
	r2, _ := c.call(toolExecute, args)
	if !reflect.DeepEqual(r1, r2) {
		t.Errorf("the replay differs from the original Run:\n%v\n%v", r1, r2)
	}
	conflict, isErr := c.call(toolExecute, map[string]any{"lumen": scene, "mode": "immediate", "idempotency_key": "k1", "input": map[string]any{}})
	if !isErr || conflict["error"].(map[string]any)["kind"] != "idempotency_conflict" {
		t.Errorf("a changed input under one key answered %v", conflict)
	}
	got, isErr := c.call(toolTrace, map[string]any{"run_id": r1["run_id"]})
	if isErr || !reflect.DeepEqual(got["trace"], r1["trace"]) {
		t.Errorf("fetch = %v, want the inline trace", got)
	}
	drift, isErr := c.call(toolExecute, map[string]any{"lumen": scene, "mode": "immediate", "expected_catalog_version": "cv_stale"})
	if isErr || drift["outcome"].(map[string]any)["status"] != "catalog_drift" || drift["trace"] != nil {
		t.Errorf("stale token answered %v", drift)
	}
	bad, isErr := c.call(toolValidate, map[string]any{"lumen": map[string]any{"steps": []any{map[string]any{"do": "call", "target": "lamp.dsk", "with": map[string]any{"level": 5}}}}})
	if isErr || bad["valid"] != false || bad["diagnostics"].([]any)[0].(map[string]any)["code"] != "unknown_target" {
		t.Errorf("invalid scene answered %v (isError %v)", bad, isErr)
	}
	nostore, _ := c.call(toolExecute, map[string]any{"lumen": scene, "mode": "immediate", "store": false, "trace_level": "summary"})
	if lvl := nostore["trace"].(map[string]any)["level"]; lvl != "summary" {
		t.Errorf("trace_level summary answered level %v", lvl)
	}
	if nf, isErr := c.call(toolTrace, map[string]any{"run_id": nostore["run_id"]}); !isErr || nf["error"].(map[string]any)["kind"] != "not_found" {
		t.Errorf("a store: false Run was fetched: %v", nf)
	}
	if e := func() map[string]any {
		_, e := c.request("tools/call", map[string]any{"name": toolValidate, "arguments": map[string]any{"lumen": "text"}})
		return e
	}(); e == nil || e["code"] != float64(-32602) {
		t.Errorf("a program of the wrong JSON type answered %v, want the structural -32602", e)
	}
}

// httpClient speaks Streamable HTTP to Handler.
type httpClient struct {
	t        *testing.T
	url      string
	session  string
	protocol string
	id       int
}

func (h *httpClient) post(body any, withProtocol bool) *http.Response {
	h.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.session != "" {
		req.Header.Set(headerSession, h.session)
	}
	if withProtocol && h.protocol != "" {
		req.Header.Set(headerProtocol, h.protocol)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	return resp
}

// answer reads a JSON or an SSE answer holding one JSON-RPC message.
func answer(t *testing.T, resp *http.Response) map[string]any {
	t.Helper()
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var data []string
		for _, line := range strings.Split(string(body), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				data = append(data, d)
			}
		}
		if len(data) != 1 {
			t.Fatalf("SSE answer %q holds %d data lines, want 1", body, len(data))
		}
		body = []byte(data[0])
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("answer %q: %v", body, err)
	}
	return m
}

func (h *httpClient) request(method string, params any) (*http.Response, map[string]any) {
	h.t.Helper()
	h.id++
	resp := h.post(map[string]any{"jsonrpc": "2.0", "id": h.id, "method": method, "params": params}, true)
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("%s: HTTP %d", method, resp.StatusCode)
	}
	return resp, answer(h.t, resp)
}

func TestHTTP(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	h := &httpClient{t: t, url: ts.URL + "/mcp"}

	// Before initialize: no session.
	resp := h.post(map[string]any{"jsonrpc": "2.0", "id": 0, "method": "tools/list"}, false)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("tools/list without a session: HTTP %d, want 400", resp.StatusCode)
	}

	resp, init := h.request("initialize", map[string]any{"protocolVersion": "2025-06-18", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "test", "version": "1"}})
	h.session = resp.Header.Get(headerSession)
	if h.session == "" {
		t.Fatal("initialize issued no Mcp-Session-Id")
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("initialize answered %q, want application/json", ct)
	}
	h.protocol = init["result"].(map[string]any)["protocolVersion"].(string)
	if h.protocol != "2025-06-18" {
		t.Errorf("negotiated %q, want the offered 2025-06-18", h.protocol)
	}
	// The initialized notification ends the handshake; it may omit the header.
	resp = h.post(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"}, false)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("notifications/initialized: HTTP %d, want 202", resp.StatusCode)
	}

	// After the handshake a request without MCP-Protocol-Version is refused.
	resp = h.post(map[string]any{"jsonrpc": "2.0", "id": 50, "method": "tools/list"}, false)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("tools/list without MCP-Protocol-Version: HTTP %d, want 400", resp.StatusCode)
	}
	wrong := *h
	wrong.protocol = "2025-11-25"
	resp = wrong.post(map[string]any{"jsonrpc": "2.0", "id": 51, "method": "tools/list"}, true)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("tools/list naming a revision other than the negotiated one: HTTP %d, want 400", resp.StatusCode)
	}
	unknown := *h
	unknown.session = "no-such-session"
	resp = unknown.post(map[string]any{"jsonrpc": "2.0", "id": 52, "method": "tools/list"}, true)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("an unknown session: HTTP %d, want 404", resp.StatusCode)
	}

	resp, list := h.request("tools/list", map[string]any{})
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("tools/list answered %q, want application/json", ct)
	}
	if n := len(list["result"].(map[string]any)["tools"].([]any)); n != 7 {
		t.Errorf("tools/list: %d tools, want 7", n)
	}

	call := func(args map[string]any) map[string]any {
		resp, m := h.request("tools/call", map[string]any{"name": toolCatalog, "arguments": args})
		if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
			t.Errorf("tools/call answered %q, want text/event-stream", ct)
		}
		return m["result"].(map[string]any)["structuredContent"].(map[string]any)
	}
	ids, _, complete := listAll(t, call, 3, 10)
	if !complete || !reflect.DeepEqual(ids, allIDs()) {
		t.Errorf("HTTP listing %v (complete %v), want %v", ids, complete, allIDs())
	}

	// Runs belong to the Session: a second Session cannot fetch them.
	_, run := h.request("tools/call", map[string]any{"name": toolExecute, "arguments": map[string]any{
		"lumen": decode(t, sceneJSON), "mode": "immediate", "test_run": true}})
	runID := run["result"].(map[string]any)["structuredContent"].(map[string]any)["run_id"]
	_, got := h.request("tools/call", map[string]any{"name": toolTrace, "arguments": map[string]any{"run_id": runID}})
	if got["result"].(map[string]any)["isError"] != false {
		t.Errorf("fetch in the Run's own session: %v", got)
	}
	other := &httpClient{t: t, url: h.url}
	resp, _ = other.request("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "other", "version": "1"}})
	other.session, other.protocol = resp.Header.Get(headerSession), "2025-11-25"
	_, got = other.request("tools/call", map[string]any{"name": toolTrace, "arguments": map[string]any{"run_id": runID}})
	if got["result"].(map[string]any)["isError"] != true {
		t.Errorf("another session fetched the Run: %v", got)
	}

	req, _ := http.NewRequest(http.MethodGet, h.url, nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("GET: %v %v, want 405", resp.StatusCode, err)
	}
	req, _ = http.NewRequest(http.MethodDelete, h.url, nil)
	req.Header.Set(headerSession, h.session)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Errorf("DELETE: %v %v, want 204", resp.StatusCode, err)
	}
	resp = h.post(map[string]any{"jsonrpc": "2.0", "id": 77, "method": "ping"}, true)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("a request in an ended session: HTTP %d, want 404", resp.StatusCode)
	}
}

// TestFaults holds each non-paging fault to the one behaviour it breaks,
// on the same request where the conformant server behaves.
func TestFaults(t *testing.T) {
	scene := func() map[string]any { return decode(t, sceneJSON) }
	cases := map[string]func(c *stdioClient) (violated bool, detail string){
		"resource-differs": func(c *stdioClient) (bool, string) {
			m, _ := c.call(toolManifest, map[string]any{})
			rr, _ := c.request("resources/read", map[string]any{"uri": manifestURI})
			text := rr["contents"].([]any)[0].(map[string]any)["text"].(string)
			return !reflect.DeepEqual(decode(t, text), m), text
		},
		"error-channel": func(c *stdioClient) (bool, string) {
			_, e := c.request("tools/call", map[string]any{"name": toolExecute, "arguments": map[string]any{
				"lumen": scene(), "mode": "immediate", "trace_level": "verbose"}})
			return e != nil, fmt.Sprint(e)
		},
		"replay-new-run": func(c *stdioClient) (bool, string) {
			a := map[string]any{"lumen": scene(), "mode": "immediate", "idempotency_key": "k"}
			r1, _ := c.call(toolExecute, a)
			r2, _ := c.call(toolExecute, a)
			return r1["run_id"] != r2["run_id"], fmt.Sprint(r1["run_id"], r2["run_id"])
		},
		"store-false-fetchable": func(c *stdioClient) (bool, string) {
			r, _ := c.call(toolExecute, map[string]any{"lumen": scene(), "mode": "immediate", "store": false})
			_, isErr := c.call(toolTrace, map[string]any{"run_id": r["run_id"]})
			return !isErr, fmt.Sprint(r["run_id"])
		},
		"trace-above-level": func(c *stdioClient) (bool, string) {
			r, _ := c.call(toolExecute, map[string]any{"lumen": scene(), "mode": "immediate", "trace_level": "summary"})
			lvl := r["trace"].(map[string]any)["level"]
			return lvl != "summary", fmt.Sprint(lvl)
		},
		"unstable-step-ids": func(c *stdioClient) (bool, string) {
			v, _ := c.call(toolValidate, map[string]any{"lumen": scene()})
			r, _ := c.call(toolExecute, map[string]any{"lumen": scene(), "mode": "immediate"})
			tr, ok := r["trace"].(map[string]any)
			if !ok {
				return true, fmt.Sprint("validate accepted what execute refused: ", r)
			}
			first := func(m map[string]any) any { return m["steps"].([]any)[0].(map[string]any)["id"] }
			p, ti := first(v["plan"].(map[string]any)), first(tr)
			return p != ti, fmt.Sprint(p, " ", ti)
		},
		"drift-ignored": func(c *stdioClient) (bool, string) {
			r, _ := c.call(toolExecute, map[string]any{"lumen": scene(), "mode": "immediate", "expected_catalog_version": "cv_stale"})
			st := r["outcome"].(map[string]any)["status"]
			return st != "catalog_drift", fmt.Sprint(st)
		},
		"invalid-as-error": func(c *stdioClient) (bool, string) {
			v, isErr := c.call(toolValidate, map[string]any{"lumen": map[string]any{"steps": "none"}})
			return isErr, fmt.Sprint(v)
		},
		"context-ignored": func(c *stdioClient) (bool, string) {
			v, _ := c.call(toolValidate, map[string]any{"lumen": scene(), "context": map[string]any{}})
			return v["valid"] == true, fmt.Sprint(v["diagnostics"])
		},
		"not-found-no-version": func(c *stdioClient) (bool, string) {
			sc, _ := c.call(toolCatalog, map[string]any{"language": languageName, "verb": "get", "id": "lamp.nope"})
			_, has := sc["catalog_version"]
			return !has, fmt.Sprint(sc)
		},
	}
	for _, name := range FaultNames() {
		if strings.HasPrefix(name, "paging-") {
			continue // TestPagingFaults
		}
		check, ok := cases[name]
		if !ok {
			t.Errorf("fault %s has no case here", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			if bad, detail := check(startStdio(t, "")); bad {
				t.Errorf("the conformant server already breaks it: %s", detail)
			}
			if bad, detail := check(startStdio(t, name)); !bad {
				t.Errorf("-fault %s changed nothing: %s", name, detail)
			}
		})
	}
	if _, err := New(Options{Fault: "no-such-fault"}); err == nil {
		t.Error("New accepted an unknown fault")
	}
}
