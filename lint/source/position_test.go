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
