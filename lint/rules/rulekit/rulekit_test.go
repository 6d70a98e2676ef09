package rulekit_test

import (
	"testing"

	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

func parse(t *testing.T, text string) *source.Node {
	t.Helper()
	f := source.Parse("t.json", []byte(text), source.Options{})
	if len(f.Docs) != 1 {
		t.Fatalf("cannot parse %s", text)
	}
	return f.Docs[0].Root
}

func TestAtFallsBackToNearestAncestor(t *testing.T) {
	root := parse(t, `{"properties": {"a": {"type": "string"}}, "list": [1, 2]}`)
	for ptr, want := range map[string]string{
		"/properties/a/type":    `"string"`,
		"/properties/a/enum/0":  "an object",
		"/properties/missing/x": "an object",
		"/list/1":               "2",
		"/nowhere":              "an object",
	} {
		if got := rulekit.QuoteJSON(rulekit.At(root, ptr)); got != want {
			t.Errorf("At(%s) = %s, want %s", ptr, got, want)
		}
	}
	if n := rulekit.At(root, "/properties/missing/x"); n != root.Get("properties") {
		t.Errorf("At(/properties/missing/x) is not /properties")
	}
}

func TestMessagePhrases(t *testing.T) {
	root := parse(t, `{"name": "x", "n": 1.5, "ok": false, "none": null, "list": ["a", true]}`)
	for _, c := range []struct{ got, want string }{
		{rulekit.QuoteJSON(root.Get("name")), `"x"`},
		{rulekit.QuoteJSON(root.Get("n")), "1.5"},
		{rulekit.QuoteJSON(root.Get("ok")), "false"},
		{rulekit.QuoteJSON(root.Get("none")), "null"},
		{rulekit.QuoteJSON(root.Get("list")), "an array"},
		{rulekit.Label(root), "the value"},
		{rulekit.Label(root.Get("name")), `"name"`},
		{rulekit.Label(root.Get("list").Kids()[1]), "item 1"},
		{rulekit.QuoteList([]string{"a", "b"}), `"a", "b"`},
	} {
		if c.got != c.want {
			t.Errorf("got %s, want %s", c.got, c.want)
		}
	}
	if !rulekit.True(root.Get("list").Kids()[1]) || rulekit.True(root.Get("ok")) || rulekit.True(root.Get("missing")) {
		t.Error("True must hold for the literal true only")
	}
}
