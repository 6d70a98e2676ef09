package inputs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLazy: Collect with Lazy refuses what Collect refuses, with the same
// errors, and defers only the read; a file changed in between is checked
// again when read.
func TestLazy(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "c.json")
	write(t, a, `{"a": 1}`)
	write(t, b, `{"b": 2}`)
	write(t, c, `{"c": 3}`)
	big := filepath.Join(dir, "big.json")
	write(t, big, strings.Repeat(" ", 200))
	paths := []string{dir, filepath.Join(dir, "missing.json")}
	if fifo := filepath.Join(dir, "capture.json"); mkfifo(fifo) == nil {
		paths = append(paths, fifo)
	}
	opt := Options{MaxBytes: 100}
	eager, eagerErrs := collect(t, paths, opt)
	opt.Lazy = true
	lazy, lazyErrs := collect(t, paths, opt)
	if !slices.Equal(eager, lazy) || !slices.Equal(eagerErrs, lazyErrs) || len(eagerErrs) < 2 {
		t.Fatalf("lazy collected %v %q, eager %v %q", lazy, lazyErrs, eager, eagerErrs)
	}

	ins, errs := Collect([]string{a, b, c}, opt)
	if len(ins) != 3 || len(errs) != 0 {
		t.Fatalf("Collect: %v %v", ins, errs)
	}
	for _, in := range ins {
		if in.Data != nil || in.Read == nil {
			t.Fatalf("%s: read before its turn", in.Name)
		}
	}
	if err := os.Remove(b); err != nil {
		t.Fatal(err)
	}
	write(t, c, strings.Repeat(" ", 200))
	want := []string{`{"a": 1}`, b + ": no such file or directory", c + ": 200 bytes is larger than --max-bytes 100; raise the limit if this input is genuine"}
	for i, in := range ins {
		data, err := in.Read()
		got := string(data)
		if err != nil {
			got = err.Error()
		}
		if got != want[i] {
			t.Errorf("%s: read %q, want %q", in.Name, got, want[i])
		}
	}
}
