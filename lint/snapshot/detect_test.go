package snapshot

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// A multi-Language program declaration also has "languages"; it must not
// be read as a manifest, while a manifest that lacks "pilotage" still is.
func TestDetectProgramDeclarationIsNotAManifest(t *testing.T) {
	for in, want := range map[string]Kind{
		`{"languages": [{"argument": "flow", "language": "flow/1"}, {"argument": "q", "language": "sql/1"}]}`: KindUnknown,
		`{"languages": [{"name": "flow/1", "title": "Flows"}]}`:                                               KindManifest,
		`{"languages": []}`: KindManifest,
		`{"languages": [{"name": "flow/1", "argument": "flow"}]}`: KindManifest,
	} {
		if got := Detect(source.Parse("x.json", []byte(in), source.Options{})); got != want {
			t.Errorf("Detect(%s) = %s, want %s", in, got, want)
		}
	}
}
