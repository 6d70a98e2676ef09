package snapshotter

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// The writer below prints JSON in one canonical layout: members sorted by
// name, two-space indent, and number literals exactly as the server sent
// them. Servers written in languages with unordered maps change member
// order from run to run; a committed snapshot must only change when the
// server's surface does. It works on source nodes rather than decoded Go
// values so that duplicate member names (a defect the linter reports)
// survive into the snapshot instead of being silently merged.

// member is one name/value pair of an object being written.
type member struct {
	key string
	val value
}

// value is something the writer can print: a parsed node, a raw JSON text,
// or an ordered object built by the snapshotter itself.
type value interface {
	write(b *bytes.Buffer, indent int)
}

type nodeValue struct{ n *source.Node }

type rawValue json.RawMessage

type objectValue []member

type arrayValue []value

func (v nodeValue) write(b *bytes.Buffer, indent int) { writeNode(b, v.n, indent) }

func (v rawValue) write(b *bytes.Buffer, indent int) {
	n := source.ParseValue(json.RawMessage(v))
	if n == nil {
		b.WriteString("null")
		return
	}
	writeNode(b, n, indent)
}

// write keeps the order the snapshotter chose: the top level of a snapshot
// and of a call follow the documented format, not the alphabet.
func (o objectValue) write(b *bytes.Buffer, indent int) {
	if len(o) == 0 {
		b.WriteString("{}")
		return
	}
	b.WriteString("{\n")
	for i, m := range o {
		pad(b, indent+2)
		writeString(b, m.key)
		b.WriteString(": ")
		m.val.write(b, indent+2)
		if i < len(o)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	pad(b, indent)
	b.WriteByte('}')
}

func (a arrayValue) write(b *bytes.Buffer, indent int) {
	if len(a) == 0 {
		b.WriteString("[]")
		return
	}
	b.WriteString("[\n")
	for i, v := range a {
		pad(b, indent+2)
		v.write(b, indent+2)
		if i < len(a)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	pad(b, indent)
	b.WriteByte(']')
}

func writeNode(b *bytes.Buffer, n *source.Node, indent int) {
	switch n.Kind {
	case source.Object:
		kids := append([]*source.Node(nil), n.Kids()...)
		sort.SliceStable(kids, func(i, j int) bool { return kids[i].Key() < kids[j].Key() })
		o := make(objectValue, len(kids))
		for i, k := range kids {
			o[i] = member{k.Key(), nodeValue{k}}
		}
		o.write(b, indent)
	case source.Array:
		a := make(arrayValue, len(n.Kids()))
		for i, k := range n.Kids() {
			a[i] = nodeValue{k}
		}
		a.write(b, indent)
	case source.String:
		writeString(b, n.Text())
	case source.Number:
		b.WriteString(n.Text())
	case source.Bool:
		if n.Truth() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	default:
		b.WriteString("null")
	}
}

func writeString(b *bytes.Buffer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	b.Write(bytes.TrimSuffix(tmp.Bytes(), []byte("\n")))
}

func pad(b *bytes.Buffer, n int) { b.WriteString(strings.Repeat(" ", n)) }

// sortedBy returns the elements of an array sorted by a string member, so
// that lists whose order carries no meaning (tools, resources) do not churn.
func sortedBy(elems []*source.Node, key string) arrayValue {
	elems = append([]*source.Node(nil), elems...)
	sort.SliceStable(elems, func(i, j int) bool {
		a, _ := elems[i].Str(key)
		b, _ := elems[j].Str(key)
		return a < b
	})
	out := make(arrayValue, len(elems))
	for i, e := range elems {
		out[i] = nodeValue{e}
	}
	return out
}
