package schemacheck

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

func BenchmarkCompileSmall(b *testing.B) {
	f := source.Parse("s.json", []byte(`{"type":"object","properties":{"a":{"type":"string","pattern":"^x"},"b":{"$ref":"#/$defs/b"}},"$defs":{"b":{"type":"integer"}}}`), source.Options{})
	b.ReportAllocs()
	for b.Loop() {
		Compile(f.Docs[0].Root)
	}
}
