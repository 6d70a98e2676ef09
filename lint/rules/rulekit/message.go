package rulekit

import (
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/source"
)

// QuoteJSON renders a node's value for a message: strings quoted, other
// values by kind ("an object", "an array"), so a message never dumps a
// large value.
func QuoteJSON(n *source.Node) string {
	switch n.Kind {
	case source.String:
		return fmt.Sprintf("%q", n.Text())
	case source.Number:
		return n.Text()
	case source.Bool:
		return fmt.Sprint(n.Truth())
	case source.Null:
		return "null"
	}
	return "an " + n.Kind.String()
}

// QuoteList renders names for a message as a comma-separated list of
// quoted strings.
func QuoteList(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}
