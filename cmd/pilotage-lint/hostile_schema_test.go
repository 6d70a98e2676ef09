package main

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestSchemaRefsNeverFollowedThroughCLI: a snapshot whose tool output
// schema and manifest context_schema $ref a fifo (which blocks whoever
// opens it for reading), /dev/zero and a local HTTP server that counts
// requests is linted promptly: the references are findings, the fifo is
// never opened and the server sees nothing.
func TestSchemaRefsNeverFollowedThroughCLI(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"type": "object"}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	fifo := filepath.Join(dir, "schema.fifo")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no fifos: %v", err)
	}
	raw, err := os.ReadFile(repoPath(t, "fixtures/examples/good-server.snapshot.json"))
	must(t, err)
	var doc map[string]any
	must(t, json.Unmarshal(raw, &doc))
	refs := []string{fifo, "file://" + fifo, "/dev/zero", srv.URL + "/schema.json", "other.json"}
	props := map[string]any{}
	for i, r := range refs {
		props[string(rune('a'+i))] = map[string]any{"$ref": r}
	}
	for _, tool := range doc["tools"].(map[string]any)["tools"].([]any) {
		tm := tool.(map[string]any)
		if tm["name"] == "validate_flow" {
			tm["outputSchema"] = map[string]any{"type": "object", "properties": props, "$schema": srv.URL + "/meta"}
		}
	}
	lang := doc["manifest"].(map[string]any)["languages"].([]any)[0].(map[string]any)
	lang["context_schema"] = map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"$ref": srv.URL + "/ctx.json"}, "y": map[string]any{"$ref": fifo}}}
	out, err := json.MarshalIndent(doc, "", "  ")
	must(t, err)
	in := filepath.Join(dir, "snapshot.json")
	must(t, os.WriteFile(in, out, 0o644))

	done := make(chan struct{})
	var stdout, stderr string
	go func() {
		_, stdout, stderr = cli(t, "", "", "--no-config", "--format", "json", in)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the lint blocked")
	}
	if strings.Contains(stdout, "internal-error") || stderr != "" {
		t.Errorf("stderr: %s", stderr)
	}
	for _, r := range append(refs, srv.URL+"/ctx.json") {
		if !strings.Contains(stdout, r) {
			t.Errorf("no finding names %s", r)
		}
	}
	if !strings.Contains(stdout, srv.URL+"/meta") {
		t.Errorf("no finding names the unknown $schema")
	}
	if h := hits.Load(); h != 0 {
		t.Errorf("the HTTP server got %d requests, want 0", h)
	}
	w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
	if err == nil {
		w.Close()
		t.Error("someone holds the fifo open for reading")
	} else if !errors.Is(err, syscall.ENXIO) {
		t.Errorf("opening the fifo for writing: %v, want ENXIO (no reader)", err)
	}
}
