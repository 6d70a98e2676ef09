// Package source turns bytes into JSON documents whose every value knows
// where it came from: its byte span in the file, its parent and its member
// name or index, so that a finding can name a file:line:col and an RFC 6901
// JSON Pointer without re-reading the text.
package source

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/go-openapi/jsonpointer"
)

// Kind is the JSON type of a Node.
type Kind uint8

// The JSON value kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "boolean", "number", "string", "array", "object"}

// Article names the kind with its indefinite article, for messages:
// "an object", "a string", "null".
func (k Kind) Article() string {
	switch k {
	case Null:
		return "null"
	case Array, Object:
		return "an " + k.String()
	}
	return "a " + k.String()
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// Node is one JSON value. Members of an object and elements of an array are
// kept in document order in Kids; a member's name is its Key.
//
// A Node is 40 bytes: a 10,000-tool listing holds one per 60 bytes of
// text, so the node is most of what a large input costs beyond its text.
// Strings, numbers and member names are therefore not stored but sliced
// from the file text on demand; only the few that needed unescaping are
// kept, decoded, on the File. So Nodes come from Parse: a Node literal
// has no text to read, and only its Kind and Kids (none) are meaningful.
type Node struct {
	Parent *Node
	kids   **Node // first of Kids; the array is shared with other containers
	file   *File
	nkids  int32
	// Start and End are the byte offsets of the value in its File.
	Start, End int32
	// keyLen is the length of the quoted member name, or longKey when it
	// does not fit and is kept on the File.
	keyLen uint16
	Kind   Kind
	bits   uint8
}

const (
	bitTrue      = 1 << iota // a Bool's value
	bitTextCoded             // Text differs from the quoted text: see File.decoded
	bitKeyCoded              // Key differs from the quoted text: see File.decoded
	// The top two bits hold the bytes between a member name and its value
	// (": " is 2) when they are 1 to 3, so that finding the name costs no
	// scan of the text; 0 means count them.
	gapShift = 6
	gapMax   = 3
	longKey  = 1<<16 - 1
)

// Kids returns the members or elements in document order. The slice has no
// spare capacity: appending to it copies it.
func (n *Node) Kids() []*Node {
	return unsafe.Slice(n.kids, n.nkids)
}

// Text is the decoded string of a String, or the literal of a Number; ""
// for any other value and for an absent one (nil), as Get returns it.
func (n *Node) Text() string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case String:
		if n.bits&bitTextCoded != 0 {
			return n.file.decoded[n.Start]
		}
		return n.file.Data[n.Start+1 : n.End-1]
	case Number:
		return n.file.Data[n.Start:n.End]
	}
	return ""
}

// Truth is the value of a Bool.
func (n *Node) Truth() bool { return n != nil && n.bits&bitTrue != 0 }

// Key is the decoded member name when the parent is an object, and ""
// otherwise.
func (n *Node) Key() string {
	if n.Parent == nil || n.Parent.Kind != Object {
		return ""
	}
	if n.bits&bitKeyCoded != 0 {
		return n.file.decoded[n.KeyStart()]
	}
	end := n.keyEnd()
	if n.keyLen == longKey {
		return n.file.Data[n.file.longKeys[n.Start]+1 : end-1]
	}
	return n.file.Data[end-int32(n.keyLen)+1 : end-1]
}

// KeyEnd is the offset just past the quoted member name: the text between
// it and Start holds only white space and the colon, so it is found by
// walking back from Start. Findings about a name (rather than its value)
// point at KeyStart–KeyEnd. Both are 0 when the parent is not an object.
func (n *Node) KeyEnd() int32 {
	if n.Parent == nil || n.Parent.Kind != Object {
		return 0
	}
	return n.keyEnd()
}

func (n *Node) keyEnd() int32 {
	if gap := int32(n.bits >> gapShift); gap != 0 {
		return n.Start - gap
	}
	d := n.file.Data
	i := n.Start - 1
	for d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r' || d[i] == ':' {
		i--
	}
	return i + 1
}

// KeyStart is the offset of the opening quote of the member name.
func (n *Node) KeyStart() int32 {
	if n.Parent == nil || n.Parent.Kind != Object {
		return 0
	}
	if n.keyLen == longKey {
		return n.file.longKeys[n.Start]
	}
	return n.keyEnd() - int32(n.keyLen)
}

// Index is the position in the parent's Kids: they are in document
// order, so it is found by a binary search on Start.
func (n *Node) Index() int32 {
	if n.Parent == nil {
		return 0
	}
	kids := n.Parent.Kids()
	i, _ := slices.BinarySearchFunc(kids, n.Start, func(k *Node, start int32) int { return cmp.Compare(k.Start, start) })
	return int32(i)
}

// hasKey reports whether the member name is key, without slicing the text
// when the lengths differ.
func (n *Node) hasKey(key string) bool {
	if n.bits&bitKeyCoded == 0 && n.keyLen != longKey && int(n.keyLen) != len(key)+2 {
		return false
	}
	return n.Key() == key
}

// Items returns the members or elements of n; nil for any other value and
// for a nil n, so loops over optional members need no guard.
func (n *Node) Items() []*Node {
	if n == nil {
		return nil
	}
	return n.Kids()
}

// IsObject reports whether n is a non-nil object.
func (n *Node) IsObject() bool { return n != nil && n.Kind == Object }

// IsArray reports whether n is a non-nil array.
func (n *Node) IsArray() bool { return n != nil && n.Kind == Array }

// IsString reports whether n is a non-nil string.
func (n *Node) IsString() bool { return n != nil && n.Kind == String }

// IsBool reports whether n is a non-nil boolean.
func (n *Node) IsBool() bool { return n != nil && n.Kind == Bool }

// IsNull reports whether n is a non-nil JSON null.
func (n *Node) IsNull() bool { return n != nil && n.Kind == Null }

// Get returns the member named key of an object, or nil. When a name is
// duplicated the last one wins, as in encoding/json; the duplicate itself is
// reported by the parser.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	kids := n.Kids()
	for i := len(kids) - 1; i >= 0; i-- {
		if kids[i].hasKey(key) {
			return kids[i]
		}
	}
	return nil
}

// Has reports whether an object has a member named key.
func (n *Node) Has(key string) bool { return n.Get(key) != nil }

// Str returns the member's string value and whether it is a string.
func (n *Node) Str(key string) (string, bool) {
	m := n.Get(key)
	if m == nil || m.Kind != String {
		return "", false
	}
	return m.Text(), true
}

// Path walks a sequence of member names and array indexes (as decimal
// strings), returning nil when any step is missing.
func (n *Node) Path(tokens ...string) *Node {
	cur := n
	for _, t := range tokens {
		switch {
		case cur == nil:
			return nil
		case cur.Kind == Object:
			cur = cur.Get(t)
		case cur.Kind == Array:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(cur.Kids()) {
				return nil
			}
			cur = cur.Kids()[i]
		default:
			return nil
		}
	}
	return cur
}

// Root returns the top-level value n belongs to.
func (n *Node) Root() *Node {
	for n != nil && n.Parent != nil {
		n = n.Parent
	}
	return n
}

// Pointer returns the RFC 6901 JSON Pointer of n within its document.
func (n *Node) Pointer() string {
	if n == nil || n.Parent == nil {
		return ""
	}
	var toks []string
	for c := n; c.Parent != nil; c = c.Parent {
		if c.Parent.Kind == Object {
			toks = append(toks, jsonpointer.Escape(c.Key()))
		} else {
			toks = append(toks, strconv.Itoa(int(c.Index())))
		}
	}
	var b strings.Builder
	for i := len(toks) - 1; i >= 0; i-- {
		b.WriteByte('/')
		b.WriteString(toks[i])
	}
	return b.String()
}

// Resolve follows an RFC 6901 pointer from n. It reports false when the
// pointer is malformed or does not resolve.
func (n *Node) Resolve(pointer string) (*Node, bool) {
	if pointer == "" {
		return n, n != nil
	}
	p, err := jsonpointer.New(pointer)
	if err != nil {
		return nil, false
	}
	cur := n
	for _, t := range p.DecodedTokens() {
		if cur.Kind == Array && (t == "-" || (len(t) > 1 && t[0] == '0')) {
			return nil, false
		}
		cur = cur.Path(t)
		if cur == nil {
			return nil, false
		}
	}
	return cur, true
}

// Value converts n to the plain Go value encoding/json would produce with
// UseNumber: map[string]any, []any, string, json.Number, bool or nil.
func (n *Node) Value() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Truth()
	case Number:
		return json.Number(n.Text())
	case String:
		return n.Text()
	case Array:
		out := make([]any, len(n.Kids()))
		for i, k := range n.Kids() {
			out[i] = k.Value()
		}
		return out
	case Object:
		out := make(map[string]any, len(n.Kids()))
		for _, k := range n.Kids() {
			out[k.Key()] = k.Value()
		}
		return out
	}
	return nil
}
