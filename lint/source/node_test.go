package source

import (
	"strings"
	"testing"
	"unsafe"
)

// The node's size is what a large listing costs beyond its text: 40 bytes
// took the 10,000-tool listing from 3.7 to 2.8 bytes of peak RSS per input
// byte. A field added to Node must pay for itself there.
func TestNodeSize(t *testing.T) {
	if got := unsafe.Sizeof(Node{}); got > 40 {
		t.Fatalf("Node is %d bytes; keep it at 40 or below (see bench/RESULTS.md, row 4)", got)
	}
}

// Text, Key and the name's span are read back from the file text, or from
// the decoded copies of the strings that need decoding.
func TestNodeTextAndKeys(t *testing.T) {
	long := strings.Repeat("k", 70000)
	for _, c := range []struct {
		name, text   string
		key, value   string
		keyStart     int32
		keyEnd       int32
		coded, kcode bool
	}{
		{name: "plain", text: `{"a": "b"}`, key: "a", value: "b", keyStart: 1, keyEnd: 4},
		{name: "space before the colon", text: "{ \"ab\"\n\t :\r\n \"c\" }", key: "ab", value: "c", keyStart: 2, keyEnd: 6},
		{name: "escaped name and value", text: `{"a\"b": "c\nd"}`, key: `a"b`, value: "c\nd", keyStart: 1, keyEnd: 7, coded: true, kcode: true},
		{name: "unicode escape", text: `{"\u00e9": "\ud83d\ude00"}`, key: "é", value: "😀", keyStart: 1, keyEnd: 9, coded: true, kcode: true},
		{name: "UTF-8 needs no copy", text: `{"é": "ü😀"}`, key: "é", value: "ü😀", keyStart: 1, keyEnd: 5},
		{name: "invalid UTF-8", text: "{\"a\xff\": \"\xfe\"}", key: "a\uFFFD", value: "\uFFFD", keyStart: 1, keyEnd: 5, coded: true, kcode: true},
		{name: "name longer than keyLen holds", text: `{"` + long + `": "v"}`, key: long, value: "v", keyStart: 1, keyEnd: 70003},
		{name: "number", text: `{"n": -1.5e3}`, key: "n", value: "-1.5e3", keyStart: 1, keyEnd: 4},
	} {
		f := Parse("t.json", []byte(c.text), Options{})
		if len(f.Docs) != 1 {
			t.Fatalf("%s: %d documents, problems %v", c.name, len(f.Docs), f.Problems)
		}
		m := f.Docs[0].Root.Kids()[0]
		if m.Key() != c.key || m.Text() != c.value || m.KeyStart() != c.keyStart || m.KeyEnd() != c.keyEnd || m.Index() != 0 {
			t.Errorf("%s: key %q value %q span %d-%d index %d; want %q %q %d-%d 0", c.name, clip(m.Key()), m.Text(), m.KeyStart(), m.KeyEnd(), m.Index(), clip(c.key), c.value, c.keyStart, c.keyEnd)
		}
		if got := m.bits&bitTextCoded != 0; got != c.coded {
			t.Errorf("%s: value kept decoded = %v; want %v", c.name, got, c.coded)
		}
		if got := m.bits&bitKeyCoded != 0; got != c.kcode {
			t.Errorf("%s: name kept decoded = %v; want %v", c.name, got, c.kcode)
		}
		if f.Docs[0].Root.Get(c.key) != m {
			t.Errorf("%s: Get(%q) does not find the member", c.name, clip(c.key))
		}
	}
}

// Values that are not members have no name, whatever their neighbours.
func TestNodeKeyOutsideObjects(t *testing.T) {
	f := Parse("t.json", []byte(`[true, false, "x", {"a": [1]}]`), Options{})
	root := f.Docs[0].Root
	if root.Key() != "" || root.KeyStart() != 0 || root.KeyEnd() != 0 || root.Index() != 0 {
		t.Errorf("root has a name: %q %d-%d", root.Key(), root.KeyStart(), root.KeyEnd())
	}
	kids := root.Kids()
	if !kids[0].Truth() || kids[1].Truth() || kids[2].Truth() {
		t.Errorf("Truth: %v %v %v; want true false false", kids[0].Truth(), kids[1].Truth(), kids[2].Truth())
	}
	for i, k := range kids {
		if k.Key() != "" || k.KeyEnd() != 0 || int(k.Index()) != i {
			t.Errorf("element %d: key %q end %d index %d", i, k.Key(), k.KeyEnd(), k.Index())
		}
	}
	inner := kids[3].Get("a").Kids()[0]
	if inner.Key() != "" || inner.Text() != "1" || inner.Pointer() != "/3/a/0" {
		t.Errorf("nested element: key %q text %q pointer %q", inner.Key(), inner.Text(), inner.Pointer())
	}
}
