package source_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

func TestEqual(t *testing.T) {
	val := func(s string) *source.Node {
		t.Helper()
		f := source.Parse("x.json", []byte(s), source.Options{})
		if len(f.Docs) != 1 || len(f.Problems) > 0 {
			t.Fatalf("bad JSON %s", s)
		}
		return f.Docs[0].Root
	}
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1e2`, `100`, true},
		{`1`, `2`, false},
		{`"1"`, `1`, false},
		{`null`, `null`, true},
		{`true`, `false`, false},
		{`{"a": 1, "b": [1, 2]}`, `{"b": [1, 2.0], "a": 1}`, true},
		{`{"a": 1}`, `{"a": 1, "b": 2}`, false},
		{`{"a": 1}`, `{"b": 1}`, false},
		{`[1, 2]`, `[2, 1]`, false},
		{`[]`, `{}`, false},
	} {
		if got := source.Equal(val(tc.a), val(tc.b)); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if !source.Equal(nil, nil) || source.Equal(val(`1`), nil) {
		t.Error("absent values: only two absent values are equal")
	}
}

func TestObjects(t *testing.T) {
	root := source.Parse("x.json", []byte(`{"a": [{"x": 1}, 2, {"y": 2}, null], "o": {"k": {}}}`), source.Options{}).Docs[0].Root
	if got := len(root.Get("a").Objects()); got != 2 {
		t.Errorf("array: %d objects, want 2", got)
	}
	if got := root.Get("o").Objects(); got != nil {
		t.Errorf("an object is no array: got %d", len(got))
	}
	var missing *source.Node
	if missing.Objects() != nil {
		t.Error("a nil node has no objects")
	}
}
