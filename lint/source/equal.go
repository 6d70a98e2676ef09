package source

import "math/big"

// Equal compares two JSON values by meaning: member order does not matter
// and numbers compare by value, so 1 and 1.0 are equal. Two absent values
// are equal. Rules that compare what a server said twice (in one snapshot
// or across two) share this one definition of "the same".
func Equal(a, b *Node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Truth() == b.Truth()
	case String:
		return a.Text() == b.Text()
	case Number:
		x, okx := new(big.Float).SetString(a.Text())
		y, oky := new(big.Float).SetString(b.Text())
		if !okx || !oky {
			return a.Text() == b.Text()
		}
		return x.Cmp(y) == 0
	case Array:
		if len(a.Kids()) != len(b.Kids()) {
			return false
		}
		for i := range a.Kids() {
			if !Equal(a.Kids()[i], b.Kids()[i]) {
				return false
			}
		}
		return true
	}
	if len(a.Kids()) != len(b.Kids()) {
		return false
	}
	for _, k := range a.Kids() {
		if !Equal(k, b.Get(k.Key())) {
			return false
		}
	}
	return true
}

// Objects returns the elements of array n that are objects, skipping the
// rest; nil when n is not an array.
func (n *Node) Objects() []*Node {
	if !n.IsArray() {
		return nil
	}
	var out []*Node
	for _, k := range n.Kids() {
		if k.IsObject() {
			out = append(out, k)
		}
	}
	return out
}
