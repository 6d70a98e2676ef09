package schemacheck

import (
	"maps"
	"math/big"
	"slices"
	"strconv"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// EnumValues returns the values a member may take by its enums: decls are
// the member's declarations (Declarations), each read across its Parts as
// Keywords reads it, and values are the elements of the first enum that
// every other enum also lists, each once, in that enum's order. Values
// compare as JSON values (source.Equal): 1 and 1.0 are one number, and
// members of an object compare in any order. enums are the enum keywords
// read, in order, for the caller to point at. An enum that is not an
// array restricts nothing here, since no validator compiles it: the
// caller reports it. values is nil when no enum is an array, so the
// member's value is not restricted to a list at all.
func (r *Resolver) EnumValues(decls []*source.Node) (values, enums []*source.Node) {
	for _, d := range decls {
		enums = append(enums, r.Keywords(d, "enum")...)
	}
	first := slices.IndexFunc(enums, (*source.Node).IsArray)
	if first < 0 {
		return nil, enums
	}
	// Keys rather than pairwise comparison: a crafted enum of thousands
	// must not cost their square.
	var others []map[string]bool
	for i, e := range enums {
		if i == first || !e.IsArray() {
			continue
		}
		has := make(map[string]bool, len(e.Kids()))
		for _, v := range e.Kids() {
			has[string(appendValueKey(nil, v))] = true
		}
		others = append(others, has)
	}
	values = []*source.Node{}
	seen := map[string]bool{}
	for _, v := range enums[first].Kids() {
		k := string(appendValueKey(nil, v))
		if seen[k] || slices.ContainsFunc(others, func(has map[string]bool) bool { return !has[k] }) {
			continue
		}
		seen[k] = true
		values = append(values, v)
	}
	return values, enums
}

// appendValueKey appends to b a key of JSON value n that two values share
// exactly when source.Equal finds them equal (for objects, the last of
// duplicate member names counts, as source.Node.Get reads them).
func appendValueKey(b []byte, n *source.Node) []byte {
	switch n.Kind {
	case source.Null:
		return append(b, 'n')
	case source.Bool:
		if n.Truth() {
			return append(b, 't')
		}
		return append(b, 'f')
	case source.String:
		return strconv.AppendQuote(append(b, 's'), n.Text())
	case source.Number:
		// source.Equal compares numbers as big.Float values, falling back
		// to the literal when one does not parse.
		x, ok := new(big.Float).SetString(n.Text())
		switch {
		case !ok:
			return append(append(b, '~'), n.Text()...)
		case x.Sign() == 0:
			return append(b, "#0"...)
		}
		return x.Append(append(b, '#'), 'g', -1)
	case source.Array:
		b = append(b, '[')
		for _, k := range n.Kids() {
			b = append(appendValueKey(b, k), ',')
		}
		return append(b, ']')
	}
	members := map[string]*source.Node{}
	for _, k := range n.Kids() {
		members[k.Key()] = k
	}
	b = append(b, '{')
	for _, name := range slices.Sorted(maps.Keys(members)) {
		b = append(appendValueKey(append(strconv.AppendQuote(b, name), ':'), members[name]), ',')
	}
	return append(b, '}')
}
