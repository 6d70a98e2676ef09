package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileDir builds a folder of inputs: a good and a bad snapshot, a JSON
// Lines capture with a broken line, a file too deep, and links that loop.
func hostileDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	good, err := os.ReadFile(repoPath(t, "fixtures/examples/good-server.snapshot.json"))
	must(t, err)
	bad, err := os.ReadFile(repoPath(t, "fixtures/examples/bad-server.snapshot.json"))
	must(t, err)
	files := map[string]string{
		"good.json":          string(good),
		"sub/bad.json":       string(bad),
		"sub/capture.jsonl":  "{\"jsonrpc\": \"2.0\", \"id\": 1, \"result\": {\"tools\": [{\"name\": \"pilotage_manifest\"}]}}\n{\"jsonrpc\": \n",
		"deep.json":          `["pilotage", ` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `]`,
		"dup.json":           `{"tools": [], "tools": [{"name": "pilotage_manifest"}]}`,
		"sub/deeper/42.json": `42`,
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	must(t, os.Symlink("..", filepath.Join(dir, "sub", "up")))
	return dir
}

// TestHostilePaths: a fifo, devices, an unreadable file, a missing file and
// a folder whose links loop are each reported on stderr and skipped; the
// rest is linted; the exit code is 2.
func TestHostilePaths(t *testing.T) {
	dir := hostileDir(t)
	fifo := filepath.Join(dir, "fifo.json")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("no fifos: %v", err)
	}
	// deep.json is named: met only in the walk, a file that does not
	// parse and names no MCP member is skipped quietly.
	args := []string{"--no-config", "--format", "json", fifo, "/dev/zero", "/dev/null", filepath.Join(dir, "missing.json"), filepath.Join(dir, "deep.json"), dir}
	if runtime.GOOS == "linux" {
		// Tests run as root, whom chmod 000 does not stop: /proc/self/mem
		// is a regular file whose read fails (EIO) for anyone.
		args = append(args, "/proc/self/mem")
	}
	done := make(chan struct{})
	var code int
	var stdout, stderr string
	go func() {
		code, stdout, stderr = cli(t, "", "", args...)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatal("the run blocked")
	}
	if code != exitUsage {
		t.Errorf("exit %d, want %d", code, exitUsage)
	}
	for _, want := range []string{
		fifo + ": not a regular file (a named pipe)",
		"/dev/zero: not a regular file (a device)",
		"/dev/null: not a regular file (a device)",
		filepath.Join(dir, "missing.json") + ": no such file or directory",
		filepath.Join(dir, "sub", "up") + ": symbolic link into a folder already being walked",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if runtime.GOOS == "linux" && !strings.Contains(stderr, "/proc/self/mem: input/output error") {
		t.Errorf("stderr lacks the unreadable file:\n%s", stderr)
	}
	for _, want := range []string{"good.json", "sub/bad.json", "sub/capture.jsonl", "deep.json", "dup.json", `"json-depth"`, `"json-duplicate-key"`, `"json-syntax"`} {
		if !strings.Contains(stdout, want) {
			t.Errorf("report lacks %s", want)
		}
	}
	if strings.Contains(stdout, "internal-error") {
		t.Error("a rule failed")
	}
}

// TestDepthThroughCLI: 100,000 levels of nesting are one json-depth finding
// at the 1001st bracket.
func TestDepthThroughCLI(t *testing.T) {
	p := filepath.Join(t.TempDir(), "deep.json")
	// The leading "pilotage" is the Pilotage signal that gets the file judged.
	must(t, os.WriteFile(p, []byte(`["pilotage",`+strings.Repeat(`{"a":[`, 100000)+strings.Repeat("]}", 100000)+`]`), 0o644))
	start := time.Now()
	code, stdout, stderr := cli(t, "", "", "--no-config", "-q", p)
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	want := p + ":1:3012: error json-depth:"
	if code != exitFindings || !strings.HasPrefix(stdout, want) || strings.Count(stdout, "\n") != 1 {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestMaxBytesThroughCLI: files and standard input over --max-bytes are
// refused with a message and exit code 2; the default is 64 MiB.
func TestMaxBytesThroughCLI(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.json")
	must(t, os.WriteFile(p, []byte(`{"tools": [`+strings.Repeat(" ", 200)+`]}`), 0o644))
	code, _, stderr := cli(t, "", "", "--no-config", "--max-bytes", "100", p)
	if code != exitUsage || !strings.Contains(stderr, p+": 213 bytes is larger than --max-bytes 100") {
		t.Errorf("file: exit %d, stderr %s", code, stderr)
	}
	code, _, stderr = cli(t, "", strings.Repeat(" ", 101), "--no-config", "--max-bytes", "100", "-")
	if code != exitUsage || !strings.Contains(stderr, "<stdin>: larger than --max-bytes 100") {
		t.Errorf("stdin: exit %d, stderr %s", code, stderr)
	}
	var help bytes.Buffer
	run([]string{"--help"}, strings.NewReader(""), &help, &help)
	if !strings.Contains(help.String(), "--max-bytes int") || !strings.Contains(help.String(), "(default 67108864)") {
		t.Errorf("--help does not document the default bound:\n%s", help.String())
	}
}

// TestTimeoutThroughCLI: a run cut short by --timeout says which file was
// being linted and exits 2, well before the lint of that file would end.
func TestTimeoutThroughCLI(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	var b strings.Builder
	b.WriteString(`{"tools": [`)
	for i := range 200000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name": "t`)
		b.WriteString(strings.Repeat("x", i%7))
		b.WriteString(`", "inputSchema": {"type": "object"}}`)
	}
	b.WriteString("]}")
	must(t, os.WriteFile(huge, []byte(b.String()), 0o644))
	start := time.Now()
	code, _, stderr := cli(t, "", "", "--no-config", "--timeout", "1ms", huge)
	elapsed := time.Since(start)
	// Under load 1ms can pass before the file is handed to a worker; the
	// message then says it was never started.
	if code != exitUsage || !strings.Contains(stderr, "stopped after --timeout 1ms while linting "+huge+"\n") &&
		!strings.Contains(stderr, "stopped after --timeout 1ms before linting "+huge+"\n") {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
	if elapsed > stopGrace+10*time.Second {
		t.Errorf("stopping took %v", elapsed)
	}
}

// TestDeterministicOutput: the same inputs give byte-identical reports
// whatever the order of the paths and the number of CPUs.
func TestDeterministicOutput(t *testing.T) {
	dir := hostileDir(t)
	paths := []string{filepath.Join(dir, "good.json"), filepath.Join(dir, "sub"), filepath.Join(dir, "deep.json"), filepath.Join(dir, "dup.json"), repoPath(t, "fixtures/json")}
	orders := [][]int{{0, 1, 2, 3, 4}, {4, 3, 2, 1, 0}, {2, 4, 0, 3, 1}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, format := range []string{"text", "json", "sarif"} {
		var first string
		for _, procs := range []int{1, 4} {
			runtime.GOMAXPROCS(procs)
			for _, order := range orders {
				args := []string{"--no-config", "--format", format}
				for _, i := range order {
					args = append(args, paths[i])
				}
				_, stdout, stderr := cli(t, "", "", args...)
				if first == "" {
					first = stdout
					if len(first) < 100 {
						t.Fatalf("%s: report too short:\n%s%s", format, first, stderr)
					}
					continue
				}
				if stdout != first {
					t.Errorf("%s with GOMAXPROCS=%d and order %v differs from the first run", format, procs, order)
				}
			}
		}
	}
}

// TestInputsUntouched: linting, in every format and with a --manifest,
// leaves every input byte-identical with the same modification time.
func TestInputsUntouched(t *testing.T) {
	dir := hostileDir(t)
	manifest := filepath.Join(dir, "manifest.json")
	must(t, os.WriteFile(manifest, []byte(`{"pilotage": "1.1", "languages": []}`), 0o644))
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	type state struct {
		sum   [32]byte
		mtime time.Time
		mode  fs.FileMode
	}
	snap := func() map[string]state {
		m := map[string]state{}
		must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			must(t, err)
			fi, err := os.Lstat(p)
			must(t, err)
			s := state{mtime: fi.ModTime(), mode: fi.Mode()}
			if fi.Mode().IsRegular() {
				data, err := os.ReadFile(p)
				must(t, err)
				s.sum = sha256.Sum256(data)
			}
			m[p] = s
			return nil
		}))
		return m
	}
	must(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if d.Type()&fs.ModeSymlink == 0 {
			must(t, os.Chtimes(p, old, old))
		}
		return nil
	}))
	before := snap()
	for _, format := range []string{"text", "json", "sarif"} {
		cli(t, "", "", "--no-config", "--format", format, "--manifest", manifest, dir)
		cli(t, "", "", "--no-config", "--format", format, filepath.Join(dir, "good.json"), filepath.Join(dir, "sub", "capture.jsonl"))
	}
	after := snap()
	if len(after) != len(before) {
		t.Errorf("%d paths before, %d after", len(before), len(after))
	}
	for p, s := range before {
		if after[p] != s {
			t.Errorf("%s changed: %+v -> %+v", p, s, after[p])
		}
	}
}
