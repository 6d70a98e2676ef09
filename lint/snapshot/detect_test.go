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
		// Without its version an empty list says nothing.
		`{"languages": []}`:                    KindUnknown,
		`{"pilotage": "1.1", "languages": []}`: KindManifest,
		`{"pilotage": "1.1.0"}`:                KindManifest,
		// Locales of an app or i18n config, even beside "pilotage".
		`{"languages": ["fr", "en"]}`:                              KindUnknown,
		`{"pilotage": "1.1", "languages": ["fr", "en"]}`:           KindUnknown,
		`{"languages": [{"code": "fr", "name": "Français"}]}`:      KindUnknown,
		`{"pilotage": {"mode": "auto"}, "tools": [{"name": "t"}]}`: KindToolsList,
		// ...unless another member makes it another input: a capabilities
		// object is a server/discover result's (README, "What gets judged").
		`{"languages": ["en", "fr"], "capabilities": {"pluralization": true}}`: KindDiscover,
		`{"languages": [{"name": "fr", "loop": {}}]}`:                          KindManifest,
		`{"languages": [{"name": "flow/1", "argument": "flow"}]}`:              KindManifest,
	} {
		if got := Detect(source.Parse("x.json", []byte(in), source.Options{})); got != want {
			t.Errorf("Detect(%s) = %s, want %s", in, got, want)
		}
	}
}
