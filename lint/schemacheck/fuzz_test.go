package schemacheck

import (
	"strings"
	"testing"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// FuzzCompile: any schema document compiles or yields located issues,
// without panicking, and the loader is never asked for anything but the
// built-in meta-schemas' site (which it refuses too).
func FuzzCompile(f *testing.F) {
	for _, s := range []string{
		`{}`, `true`, `{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`,
		`{"$ref":"/dev/zero"}`, `{"$ref":"http://127.0.0.1:1/x"}`, `{"$schema":"file:///etc/passwd"}`,
		`{"pattern":"(?=x)"}`, `{"patternProperties":{"[":{}}}`, `{"$id":"https://e.x/a","$ref":"a#/x"}`,
		`{"$dynamicRef":"#meta","$dynamicAnchor":"meta"}`, `{"$schema":"http://json-schema.org/draft-04/schema#","id":"x","definitions":{"a":{"id":"#a"}}}`,
		`{"allOf":[{"$ref":"#"}],"not":{"$ref":"#/allOf/0"}}`, `{"$anchor":"a","items":{"$ref":"#a"}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		stop := time.AfterFunc(10*time.Second, func() { panic("compiling one schema took more than 10s") })
		defer stop.Stop()
		file := source.Parse("schema.json", data, source.Options{})
		if len(file.Docs) == 0 {
			return
		}
		var asked []string
		loadHook = func(u string) { asked = append(asked, u) }
		defer func() { loadHook = nil }()
		_, issues := Compile(file.Docs[0].Root)
		for _, is := range issues {
			if is.Node == nil || is.Message == "" || is.Kind == 0 {
				t.Fatalf("bad issue %+v", is)
			}
		}
		for _, u := range asked {
			if !strings.Contains(u, "json-schema.org/") {
				t.Fatalf("the loader was asked for %q", u)
			}
		}
	})
}
