package source

import (
	"strings"
	"sync"
	"testing"
)

// Reports render positions from several goroutines; Position must not
// write to the File it reads (run with -race).
func TestPositionConcurrent(t *testing.T) {
	long := `"` + strings.Repeat("é", 5000) + `"`
	f := Parse("c.json", []byte("{\n  \"a\": \"ü\",\n  \"b\": ["+long+", 1]\n}\n"), Options{})
	want := map[int]Position{}
	for off := 0; off < len(f.Data); off += 97 {
		want[off] = f.Position(off)
	}
	g := Parse("c.json", []byte(f.Data), Options{})
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for off, p := range want {
				if got := g.Position(off); got != p {
					t.Errorf("Position(%d) = %v, want %v", off, got, p)
				}
			}
		}()
	}
	wg.Wait()
}

func TestPositionLines(t *testing.T) {
	f := Parse("l.json", []byte("[1,\n\"ü\",\n3]\n"), Options{})
	cases := []struct {
		off  int
		want Position
	}{{0, Position{1, 1}}, {4, Position{2, 1}}, {8, Position{2, 4}}, {9, Position{2, 5}}, {10, Position{3, 1}}, {13, Position{4, 1}}}
	for _, c := range cases {
		if got := f.Position(c.off); got != c.want {
			t.Errorf("Position(%d) = %v, want %v", c.off, got, c.want)
		}
	}
}

func TestIsASCII(t *testing.T) {
	for n := 0; n < 20; n++ {
		s := strings.Repeat("a", n)
		if !isASCII(s) {
			t.Errorf("isASCII(%q) = false", s)
		}
		for i := 0; i < n; i++ {
			b := []byte(s)
			b[i] = 0x80
			if isASCII(string(b)) {
				t.Errorf("isASCII with 0x80 at %d of %d = true", i, n)
			}
		}
	}
}

func TestIndexLinesMatchesNaive(t *testing.T) {
	pieces := []string{"a", "\n", "é", "  ", "\n\n", "xyzxyzx", "\r\n"}
	for seed := 0; seed < 300; seed++ {
		var b strings.Builder
		for k, r := 0, uint32(seed); k < seed%40; k++ {
			r = r*1103515245 + 12345
			b.WriteString(pieces[int(r>>8)%len(pieces)])
		}
		f := &File{Data: b.String()}
		f.indexLines()
		want := []int32{0}
		for i := 0; i < len(f.Data); i++ {
			if f.Data[i] == '\n' {
				want = append(want, int32(i+1))
			}
		}
		if len(f.lines) != len(want) {
			t.Fatalf("%q: %d lines, want %d", f.Data, len(f.lines), len(want))
		}
		for i := range want {
			if f.lines[i] != want[i] {
				t.Fatalf("%q: line %d starts at %d, want %d", f.Data, i, f.lines[i], want[i])
			}
			end := len(f.Data)
			if i+1 < len(want) {
				end = int(want[i+1])
			}
			ascii := !strings.ContainsFunc(f.Data[want[i]:end], func(r rune) bool { return r >= 0x80 })
			if got := f.ascii == nil || f.ascii[i]; got != ascii {
				t.Fatalf("%q: line %d ASCII %v, want %v", f.Data, i, got, ascii)
			}
		}
	}
}
