package schemacheck

import (
	"fmt"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/schemas"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// trustedBase is where the embedded schemas are served from when compiled.
// jsonschema/v6 validates every document it loads against its meta-schema
// (about 7 ms for the Language-entry schema, most of a small lint run)
// except those under json-schema.org, whose meta-schemas it trusts. Our
// generated schemas are checked against the 2020-12 meta-schema by
// TestEmbeddedMetaValid and by the schemas package's tests, so paying for
// it again on every run buys nothing; serving them from a json-schema.org
// URL, with their $id rewritten to match, is the one switch the library
// offers. The loader below answers only these URLs, so nothing is fetched.
const trustedBase = "https://json-schema.org/x-pilotagekit/schemas/"

var embedded = struct {
	sync.Mutex
	m map[string]*jsonschema.Schema
}{m: map[string]*jsonschema.Schema{}}

// trustedLoader serves the embedded schemas, with their $id moved to
// trustedBase, and refuses everything else.
type trustedLoader struct{}

func (trustedLoader) Load(url string) (any, error) {
	name, ok := strings.CutPrefix(url, trustedBase)
	if !ok {
		return nil, fmt.Errorf("refusing to load %s: only the embedded Pilotage schemas are available", url)
	}
	b, ok := schemas.Get(name)
	if !ok {
		return nil, fmt.Errorf("no embedded schema %s", name)
	}
	// The linter's own parser builds the same value as the library's
	// UnmarshalJSON (objects, arrays, json.Number) in about half the
	// instructions; the schemas' tests keep every file well-formed.
	f := source.Parse(name, b, source.Options{NoCopy: true})
	if len(f.Problems) > 0 || len(f.Docs) != 1 {
		return nil, fmt.Errorf("embedded schema %s does not parse", name)
	}
	doc := f.Docs[0].Root.Value()
	if m, ok := doc.(map[string]any); ok {
		if _, has := m["$id"]; has {
			m["$id"] = url
		}
	}
	return doc, nil
}

// Embedded returns the named embedded schema (a schemas.* file name),
// compiled once per process on first use and shared by every caller. It
// panics when the schema does not compile, which the schemas tests rule
// out; a caller in the lint engine turns that into internal-error.
func Embedded(name string) *jsonschema.Schema {
	embedded.Lock()
	defer embedded.Unlock()
	if s := embedded.m[name]; s != nil {
		return s
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(trustedLoader{})
	s, err := c.Compile(trustedBase + name)
	if err != nil {
		panic(fmt.Sprintf("embedded schema %s does not compile: %v", name, err))
	}
	embedded.m[name] = s
	return s
}
