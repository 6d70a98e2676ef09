package rules_test

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/pilotagekit/pilotagekit/internal/scaling"
)

// grownSchemas are ways a tool's inputSchema can be large, each grown in
// one direction with n and added to every tool of a clean snapshot; each
// was once linted in more than linear time (the first two are review A
// 1.1's: 320 KB of allOf took 16.7 s).
var grownSchemas = []struct {
	name string
	n    int // the smaller size; the test also lints 10n
	grow func(s map[string]any, n int)
}{
	{"allOf", 1000, func(s map[string]any, n int) {
		all := make([]any, n)
		for i := range all {
			all[i] = map[string]any{}
		}
		s["allOf"] = all
	}},
	{"required", 1000, func(s map[string]any, n int) {
		req, _ := s["required"].([]any)
		for i := range n {
			req = append(req, fmt.Sprintf("m%d", i))
		}
		s["required"] = req
	}},
	{"defs", 1000, func(s map[string]any, n int) {
		defs, all := map[string]any{}, make([]any, n)
		for i := range all {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"type": "object"}
			all[i] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i)}
		}
		s["$defs"], s["allOf"] = defs, all
	}},
	{"anchors", 1000, func(s map[string]any, n int) {
		defs, all := map[string]any{}, make([]any, n)
		for i := range all {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"$anchor": fmt.Sprintf("a%d", i), "type": "object"}
			all[i] = map[string]any{"$ref": fmt.Sprintf("#a%d", i)}
		}
		s["$defs"], s["allOf"] = defs, all
	}},
	{"chain", 1000, func(s map[string]any, n int) {
		defs := map[string]any{}
		for i := range n {
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		}
		defs[fmt.Sprintf("d%d", n)] = map[string]any{"type": "object"}
		s["$defs"], s["allOf"] = defs, []any{map[string]any{"$ref": "#/$defs/d0"}}
	}},
	// Every member typed through definitions that each name the next one
	// twice: 2^n paths.
	{"dag", 8, func(s map[string]any, n int) {
		defs := map[string]any{}
		for i := range n {
			ref := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
			defs[fmt.Sprintf("d%d", i)] = map[string]any{"anyOf": []any{ref, map[string]any{"allOf": []any{ref}}}}
		}
		defs[fmt.Sprintf("d%d", n)] = map[string]any{"type": "string"}
		s["$defs"] = defs
		props, _ := s["properties"].(map[string]any)
		for k := range props {
			props[k] = map[string]any{"$ref": "#/$defs/d0"}
		}
	}},
}

// grown returns the clean example snapshot with grow applied to every
// tool's inputSchema.
func grown(t *testing.T, grow func(map[string]any, int), n int) []byte {
	raw, err := os.ReadFile("../../fixtures/examples/good-server.snapshot.json")
	if err != nil {
		t.Fatal(err)
	}
	var snap map[string]any
	if err := json.Unmarshal(raw, &snap); err != nil {
		t.Fatal(err)
	}
	for _, tool := range snap["tools"].(map[string]any)["tools"].([]any) {
		grow(tool.(map[string]any)["inputSchema"].(map[string]any), n)
	}
	out, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestScaling fails when linting a snapshot whose tool schemas are 10
// times as large costs more than scaling.Budget (30) times as much: a
// linear cost is about 10 times, a quadratic one about 100. TestPerfBudget
// grows the number of tools; this grows one schema.
func TestScaling(t *testing.T) {
	if testing.Short() {
		t.Skip("scaling measurement skipped in -short mode")
	}
	for _, g := range grownSchemas {
		t.Run(g.name, func(t *testing.T) {
			small, large := grown(t, g.grow, g.n), grown(t, g.grow, 10*g.n)
			ratio, report := scaling.Ratio(func() { lintBytes(t, "small.json", small) }, func() { lintBytes(t, "large.json", large) })
			t.Logf("%d and %d bytes: %s", len(small), len(large), report)
			if ratio > scaling.Budget {
				t.Fatalf("linting the %s schemas at size %d (%d bytes) costs %.0fx what it costs at size %d: %s", g.name, 10*g.n, len(large), ratio, g.n, report)
			}
		})
	}
}
