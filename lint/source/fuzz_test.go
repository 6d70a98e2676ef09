package source

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/pilotagekit/pilotagekit/internal/fixtureseed"
)

// addFixtureSeeds seeds a fuzz target with the repository's fixtures (the
// small ones, so that a short fuzz run spends its time mutating) and with
// the hostile shapes the parser must survive.
func addFixtureSeeds(f *testing.F, add func(data []byte, name string)) {
	f.Helper()
	fixtureseed.Walk("../../fixtures", 2<<10, func(p string, data []byte, _ bool) { add(data, filepath.Base(p)) })
	for _, s := range []string{
		"", " ", "\uFEFF", "\uFEFF{}", "{}", "[]", "42", `"x"`, "null", "true", "-0", "1e400", "-1e-400", "NaN", "-Infinity",
		`{"a":1,"a":2}`, "{\"a\":\"\xff\xfe\"}", "[\"\\ud800\"]", "[\"\\ud83d\\ude00\"]", `{"a":1} x`, "{}\n{}", "{}\n[", "[[[[[[[[[[[[[[[[[[[[",
		`{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`, `{"pilotage":"1.1","languages":[]}`,
	} {
		add([]byte(s), "seed.json")
	}
}

// watchdog turns an input that takes far too long into a crash, which the
// fuzzer records like any other; a hang would otherwise only stall it.
func watchdog() (stop func()) {
	t := time.AfterFunc(10*time.Second, func() { panic("one input took more than 10s: parsing must stay linear") })
	return func() { t.Stop() }
}

// FuzzParse: any bytes parse without panicking into nodes and problems
// whose spans are consistent; on text encoding/json accepts, the parser
// reports no defect of the grammar and yields the same values.
func FuzzParse(f *testing.F) {
	addFixtureSeeds(f, func(data []byte, name string) { f.Add(data, strings.HasSuffix(name, ".jsonl")) })
	f.Fuzz(func(t *testing.T, data []byte, lines bool) {
		defer watchdog()()
		file := Parse("fuzz.json", data, Options{Lines: lines, MaxDepth: 64})
		n := len(file.Data)
		codes := map[ProblemCode]bool{}
		for _, p := range file.Problems {
			codes[p.Code] = true
			if p.Start < 0 || p.End < p.Start || p.End > n {
				t.Fatalf("problem %s span %d-%d outside 0-%d", p.Code, p.Start, p.End, n)
			}
			if p.Message == "" || !utf8.ValidString(p.Message) || strings.ContainsAny(p.Message, "\n\r") {
				t.Fatalf("problem %s message %q", p.Code, p.Message)
			}
			file.Position(p.Start)
			file.Position(p.End)
		}
		for _, d := range file.Docs {
			checkNode(t, file, d.Root, nil, 0, !codes[ProblemDuplicateKey])
		}
		if !lines && json.Valid(data) && !codes[ProblemDepth] {
			for _, c := range []ProblemCode{ProblemSyntax, ProblemEmpty, ProblemTrailing, ProblemNonFinite, ProblemBOM} {
				if codes[c] {
					t.Fatalf("encoding/json accepts the text but the parser reports %s: %v", c, file.Problems)
				}
			}
			if len(file.Docs) != 1 {
				t.Fatalf("encoding/json accepts one document; parsed %d", len(file.Docs))
			}
			dec := json.NewDecoder(strings.NewReader(string(data)))
			dec.UseNumber()
			var want any
			if err := dec.Decode(&want); err == nil && !codes[ProblemInvalidUTF8] {
				if got := file.Docs[0].Root.Value(); !reflect.DeepEqual(got, want) {
					t.Fatalf("value differs from encoding/json:\n got %#v\nwant %#v", got, want)
				}
			}
		}
	})
}

// checkNode checks n's links and spans; with unique member names its
// pointer must lead back to it.
func checkNode(t *testing.T, f *File, n, parent *Node, depth int, unique bool) {
	t.Helper()
	if n.Parent != parent {
		t.Fatalf("node at %d: wrong parent", n.Start)
	}
	if n.Start < 0 || n.End < n.Start || int(n.End) > len(f.Data) {
		t.Fatalf("node span %d-%d outside 0-%d", n.Start, n.End, len(f.Data))
	}
	if parent != nil && (n.Start < parent.Start || n.End > parent.End) {
		t.Fatalf("node %d-%d outside its parent %d-%d", n.Start, n.End, parent.Start, parent.End)
	}
	if depth > 64 {
		t.Fatalf("node deeper than MaxDepth")
	}
	if cap(n.Kids()) != len(n.Kids()) {
		t.Fatalf("Kids has spare capacity: appending would write into a neighbour")
	}
	for i, k := range n.Kids() {
		if int(k.Index()) != i {
			t.Fatalf("kid %d has Index %d", i, k.Index())
		}
		if n.Kind == Object {
			ks, ke := k.KeyStart(), k.KeyEnd()
			if ks < n.Start || ke > k.Start || ke-ks < 2 || f.Data[ks] != '"' || f.Data[ke-1] != '"' {
				t.Fatalf("member name span %d-%d misplaced", ks, ke)
			}
			var name string
			if err := json.Unmarshal([]byte(f.Data[ks:ke]), &name); err == nil && utf8.ValidString(f.Data[ks:ke]) && name != k.Key() {
				t.Fatalf("member name %q read as %q", f.Data[ks:ke], k.Key())
			}
		}
		checkNode(t, f, k, n, depth+1, unique)
	}
	if r, ok := n.Root().Resolve(n.Pointer()); unique && (!ok || r != n) {
		t.Fatalf("pointer %q does not resolve back to its node", n.Pointer())
	}
}
