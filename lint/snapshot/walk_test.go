package snapshot

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// One walk finds the _meta objects and the extensions maps of every
// document: initialize results, a Client's request in a capture, and the
// stateless per-request client-capabilities _meta key.
func TestWalkCollectsMetasAndExtensionMaps(t *testing.T) {
	capture := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"extensions":{"a":{}}}}}
{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"extensions":{"b":{}}},"_meta":{"x":1}}}
{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{"extensions":{"c":{}}}}}}
{"jsonrpc":"2.0","id":3,"result":{"capabilities":"none","tools":[{"name":"t","_meta":{"y":2},"inputSchema":{"properties":{"capabilities":{"extensions":[]}}}}]}}
`
	s, err := Build(source.Parse("c.jsonl", []byte(capture), source.Options{}), "")
	if err != nil {
		t.Fatal(err)
	}
	var exts, metas []string
	for _, n := range s.ExtensionMaps() {
		exts = append(exts, n.Pointer())
	}
	for _, n := range s.Metas() {
		metas = append(metas, n.Pointer())
	}
	wantExts := []string{"/params/capabilities/extensions", "/result/capabilities/extensions", "/params/_meta/io.modelcontextprotocol~1clientCapabilities/extensions"}
	wantMetas := []string{"/result/_meta", "/params/_meta", "/result/tools/0/_meta"}
	if len(exts) != len(wantExts) || len(metas) != len(wantMetas) {
		t.Fatalf("extensions %q, metas %q", exts, metas)
	}
	for i := range wantExts {
		if exts[i] != wantExts[i] {
			t.Errorf("extension map %d at %s, want %s", i, exts[i], wantExts[i])
		}
	}
	for i := range wantMetas {
		if metas[i] != wantMetas[i] {
			t.Errorf("_meta %d at %s, want %s", i, metas[i], wantMetas[i])
		}
	}
}
