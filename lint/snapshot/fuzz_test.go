package snapshot_test

import (
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/fixtureseed"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// FuzzDetectBuild: input-kind detection and building a snapshot, detected
// or forced to any kind, never panic, whatever the document's shape.
func FuzzDetectBuild(f *testing.F) {
	fixtureseed.Walk("../../fixtures", 2<<10, func(_ string, data []byte, jsonl bool) { f.Add(data, uint8(0), jsonl) })
	for i, s := range []string{
		"", "42", `"x"`, "null", "[]", "[1]", `[{"jsonrpc":"2.0"}]`, `[{"name":1}]`, `{"jsonrpc":"2.0","result":null}`,
		`{"jsonrpc":"2.0","id":1,"result":{"structuredContent":[]}}`, `{"tools":{}}`, `{"tools":[null,1,"x"]}`,
		`{"manifest":[],"initialize":1,"discover":"x","calls":{}}`, `{"pilotage":1,"languages":{}}`,
		`{"content":[],"structuredContent":"x"}`, `{"protocolVersion":1,"capabilities":[]}`,
		"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":[]}}",
	} {
		for k := range len(snapshot.Kinds) + 1 {
			f.Add([]byte(s), uint8(k+i), false)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8, lines bool) {
		stop := time.AfterFunc(10*time.Second, func() { panic("one input took more than 10s") })
		defer stop.Stop()
		file := source.Parse("fuzz.json", data, source.Options{Lines: lines})
		detected := snapshot.Detect(file)
		var forced snapshot.Kind
		if k := int(kind) % (len(snapshot.Kinds) + 1); k > 0 {
			forced = snapshot.Kinds[k-1]
		}
		s, err := snapshot.Build(file, forced)
		if s == nil && err == nil {
			t.Fatal("Build returned neither a snapshot nor an error")
		}
		if s != nil && forced == "" && s.Kind != detected {
			t.Fatalf("Build detected %s, Detect %s", s.Kind, detected)
		}
		if s != nil {
			_ = s.Stateless()
			for _, l := range s.Languages {
				_ = l.Caps.Exists()
			}
			for _, tool := range s.Tools {
				_ = s.Tool(tool.Name)
			}
		}
	})
}
