package inputs

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// collect runs Collect with a deadline, so a read that blocks fails the
// test rather than hanging it.
func collect(t *testing.T, paths []string, opt Options) ([]string, []string) {
	t.Helper()
	type res struct {
		names, errs []string
	}
	done := make(chan res, 1)
	go func() {
		ins, errs := Collect(paths, opt)
		var r res
		for _, in := range ins {
			r.names = append(r.names, in.Name)
		}
		for _, e := range errs {
			r.errs = append(r.errs, e.Error())
		}
		done <- r
	}()
	select {
	case r := <-done:
		return r.names, r.errs
	case <-time.After(10 * time.Second):
		t.Fatal("Collect blocked for 10s")
	}
	return nil, nil
}

func expectErr(t *testing.T, errs []string, path, fragment string) {
	t.Helper()
	for _, e := range errs {
		if strings.HasPrefix(e, path+":") && strings.Contains(e, fragment) {
			return
		}
	}
	t.Errorf("no error for %s containing %q in %q", path, fragment, errs)
}

// TestNonRegularFiles: fifos and devices given as paths are refused without
// being opened for reading (which would block on a fifo and never end on
// /dev/zero); the regular file beside them is read.
func TestNonRegularFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	write(t, good, `{}`)
	fifo := filepath.Join(dir, "capture.json")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no fifos here: %v", err)
	}
	names, errs := collect(t, []string{fifo, "/dev/zero", "/dev/null", good}, Options{})
	if len(names) != 1 || names[0] != filepath.ToSlash(good) {
		t.Errorf("read %v, want only %s", names, good)
	}
	expectErr(t, errs, fifo, "a named pipe")
	expectErr(t, errs, "/dev/zero", "a device")
	expectErr(t, errs, "/dev/null", "a device")
	if len(errs) != 3 {
		t.Errorf("errors: %q", errs)
	}
	// A fifo found by a directory walk is refused the same way.
	names, errs = collect(t, []string{dir}, Options{})
	if len(names) != 1 || len(errs) != 1 {
		t.Errorf("walk: read %v, errors %q", names, errs)
	}
}

// TestSwappedForFifo: the check is made on what was opened, so a path that
// passed the first check and is then replaced by a fifo is still refused
// without blocking.
func TestSwappedForFifo(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.json")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no fifos here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		f, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err == nil {
			fi, _ := f.Stat()
			err = check(fifo, fi, DefaultMaxBytes)
			f.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "a named pipe") {
			t.Errorf("got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("opening a fifo blocked")
	}
}

// TestUnreadable: a file whose read fails is reported and skipped. Tests run
// as root, for whom chmod 000 changes nothing, so the failing read is
// /proc/self/mem: a regular file whose first page is unmapped (EIO).
func TestUnreadable(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("needs /proc/self/mem")
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	write(t, good, `{}`)
	locked := filepath.Join(dir, "locked.json")
	write(t, locked, `{}`)
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	names, errs := collect(t, []string{"/proc/self/mem", locked, good}, Options{})
	expectErr(t, errs, "/proc/self/mem", "input/output error")
	if os.Geteuid() != 0 {
		expectErr(t, errs, locked, "permission denied")
	} else if len(names) != 2 {
		t.Logf("running as root: chmod 000 does not stop reading %s", locked)
	}
	if names[len(names)-1] != filepath.ToSlash(good) {
		t.Errorf("read %v", names)
	}
}

// TestSymlinkLoops: links that loop back into the folder are reported and
// not followed; a link that loops on itself is reported; the walk ends and
// reads the real files once.
func TestSymlinkLoops(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.json"), `{}`)
	write(t, filepath.Join(dir, "sub", "b.json"), `{}`)
	write(t, filepath.Join(dir, ".hidden", "c.json"), `{}`)
	for link, target := range map[string]string{
		"loop":         ".",
		"sub/up":       "..",
		"sub/abs":      dir,
		"self.json":    "self.json",
		"dangling.txt": "nowhere",
		"alias.json":   "a.json",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skipf("no symlinks here: %v", err)
		}
	}
	outside := t.TempDir()
	write(t, filepath.Join(outside, "elsewhere.json"), `{}`)
	if err := os.Symlink(outside, filepath.Join(dir, "outside")); err != nil {
		t.Fatal(err)
	}
	names, errs := collect(t, []string{dir, filepath.Join(dir, "a.json")}, Options{})
	want := []string{"a.json", "alias.json", "sub/b.json"}
	for i := range want {
		want[i] = filepath.ToSlash(filepath.Join(dir, want[i]))
	}
	sort.Strings(names)
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("read %v, want %v", names, want)
	}
	expectErr(t, errs, filepath.Join(dir, "self.json"), "too many levels of symbolic links")
	expectErr(t, errs, filepath.Join(dir, "loop"), "not followed")
	expectErr(t, errs, filepath.Join(dir, "sub", "up"), "not followed")
	expectErr(t, errs, filepath.Join(dir, "sub", "abs"), "not followed")
	if len(errs) != 4 {
		t.Errorf("errors: %q", errs)
	}
	// The folder named on the command line may itself be a link: its files
	// are read and named through it.
	link := filepath.Join(t.TempDir(), "linked")
	if err := os.Symlink(filepath.Join(dir, "sub"), link); err != nil {
		t.Fatal(err)
	}
	names, errs = collect(t, []string{link}, Options{})
	if len(names) != 1 || names[0] != filepath.ToSlash(filepath.Join(link, "b.json")) {
		t.Errorf("through a linked folder: read %v, errors %q", names, errs)
	}
	// An explicit path that loops is reported.
	_, errs = collect(t, []string{filepath.Join(dir, "self.json")}, Options{})
	expectErr(t, errs, filepath.Join(dir, "self.json"), "too many levels of symbolic links")
}

// TestTooLarge: a file over the bound is refused from its size, before it
// is read (a sparse 8 GiB file would otherwise take seconds and gigabytes);
// standard input is cut off one byte past the bound.
func TestTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(8 << 30); err != nil {
		t.Skipf("no sparse files here: %v", err)
	}
	f.Close()
	small := filepath.Join(dir, "small.json")
	write(t, small, strings.Repeat(" ", 100)+"{}")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	names, errs := collect(t, []string{big, small}, Options{})
	runtime.ReadMemStats(&after)
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("refusing took %v", d)
	}
	if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
		t.Errorf("allocated %d bytes refusing a file by its size", a)
	}
	expectErr(t, errs, big, "8589934592 bytes is larger than --max-bytes 67108864")
	if len(names) != 1 {
		t.Errorf("read %v", names)
	}
	// A bound of 50 bytes refuses the 102-byte file.
	_, errs = collect(t, []string{small}, Options{MaxBytes: 50})
	expectErr(t, errs, small, "102 bytes is larger than --max-bytes 50")

	for _, c := range []struct {
		name  string
		size  int64
		fails bool
	}{{"endless", -1, true}, {"at the bound", 1000, false}, {"one past", 1001, true}} {
		r := &counting{limit: c.size}
		_, errs := collect(t, []string{"-"}, Options{MaxBytes: 1000, Stdin: r, StdinName: "<stdin>"})
		if c.fails {
			expectErr(t, errs, "<stdin>", "larger than --max-bytes 1000")
		} else if len(errs) > 0 {
			t.Errorf("%s: %q", c.name, errs)
		}
		if r.n > 1001 {
			t.Errorf("%s: read %d bytes of standard input, want at most 1001", c.name, r.n)
		}
	}
}

// counting is a reader of limit bytes (-1: endless) that counts what was
// read.
type counting struct {
	limit, n int64
}

func (c *counting) Read(b []byte) (int, error) {
	if c.limit >= 0 && c.n >= c.limit {
		return 0, io.EOF
	}
	if c.limit >= 0 {
		b = b[:min(int64(len(b)), c.limit-c.n)]
	}
	for i := range b {
		b[i] = ' '
	}
	c.n += int64(len(b))
	return len(b), nil
}

// TestMaxBytesClamped: a bound past what the parser can address is lowered
// to it.
func TestMaxBytesClamped(t *testing.T) {
	r := &counting{limit: 10}
	ins, errs := Collect([]string{"-", "-"}, Options{MaxBytes: 1 << 40, Stdin: r})
	if len(ins) != 1 || len(errs) != 0 {
		t.Errorf("inputs %d errors %v; standard input is read once", len(ins), errs)
	}
}

func TestMissing(t *testing.T) {
	_, errs := collect(t, []string{"/no/such/file.json"}, Options{})
	if len(errs) != 1 || errs[0] != "/no/such/file.json: no such file or directory" {
		t.Errorf("errors: %q", errs)
	}
}
