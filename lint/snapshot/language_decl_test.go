package snapshot

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// roundTrip is the conversion declaration replaced: the node's value
// through encoding/json into the pkg/types form.
func roundTrip(n *source.Node) types.CapabilityDeclaration {
	if !n.IsObject() {
		return nil
	}
	b, err := json.Marshal(n.Value())
	if err != nil {
		return types.CapabilityDeclaration{}
	}
	d := types.CapabilityDeclaration{}
	if json.Unmarshal(b, &d) != nil {
		return types.CapabilityDeclaration{}
	}
	return d
}

func TestDeclarationMatchesRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{}`,
		`[]`,
		`"guides"`,
		`{"guides": true, "validate": false, "plan": {}}`,
		`{"catalog": {"search": true, "changed_since": false, "x": null, "y": 1, "z": "s", "a": [], "b": {}}}`,
		`{"guides": null, "execute": 1.50, "plan": "yes", "trace_fetch": [true, {"a": "<&>"}], "x": "\u00e9<"}`,
		`{"guides": true, "guides": false, "catalog": {"search": 1, "search": true, "b": true, "b": 2}}`,
		`{"execute": {"test_run": true, "idempotency": true, "test_run": null}}`,
		`{"big": 1e400, "neg": -0, "deep": {"a": {"b": [1, 2, {"c": null}]}}}`,
	} {
		f := source.Parse("t.json", []byte(in), source.Options{})
		if got, want := declaration(f.Docs[0].Root), roundTrip(f.Docs[0].Root); !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", in, got, want)
		}
	}
}
