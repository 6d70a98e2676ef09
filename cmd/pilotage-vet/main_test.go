package main_test

import (
	"bytes"
	"cmp"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// The e2e module in testdata uses the real go-sdk v1.8.0 and mcp-go v1.2.1.
// It needs them in the module cache (or the module proxy reachable once);
// after that the test runs offline.

func build(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "pilotage-vet")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// module copies the e2e module to a temporary directory, so that -mod=mod
// can never rewrite the checked-in go.mod or go.sum.
func module(t *testing.T) string {
	t.Helper()
	dst := t.TempDir()
	src := filepath.Join("testdata", "e2e")
	err := filepath.Walk(src, func(path string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if info.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Resolve symlinks so the prefix stripped from diagnostics matches.
	dst, err = filepath.EvalSymlinks(dst)
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// run runs a command in dir and returns its combined output with dir made
// relative, and its exit code.
func run(t *testing.T, dir string, name string, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return strings.ReplaceAll(out.String(), dir+string(filepath.Separator), ""), code
}

// sorted orders diagnostics by file, line and column: go vet runs packages
// in parallel and prints them in whatever order they finish.
func sorted(out string) string {
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	key := func(l string) (string, int, int) {
		parts := strings.SplitN(l, ":", 4)
		if len(parts) < 4 {
			return l, 0, 0
		}
		line, _ := strconv.Atoi(parts[1])
		col, _ := strconv.Atoi(parts[2])
		return parts[0], line, col
	}
	slices.SortStableFunc(lines, func(a, b string) int {
		fa, la, ca := key(a)
		fb, lb, cb := key(b)
		return cmp.Or(cmp.Compare(fa, fb), cmp.Compare(la, lb), cmp.Compare(ca, cb))
	})
	return strings.Join(lines, "\n") + "\n"
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real SDKs")
	}
	bin := build(t)
	dir := module(t)

	t.Run("standalone", func(t *testing.T) {
		out, code := run(t, dir, bin, "./...")
		if code != 3 {
			t.Errorf("exit code %d, want 3 (diagnostics reported)\n%s", code, out)
		}
		golden(t, "e2e.standalone.golden", sorted(out))
	})
	t.Run("vettool", func(t *testing.T) {
		out, code := run(t, dir, "go", "vet", "-vettool="+bin, "./...")
		if code != 1 {
			t.Errorf("exit code %d, want 1 (go vet found problems)\n%s", code, out)
		}
		golden(t, "e2e.vettool.golden", sorted(out))
	})
	t.Run("clean package", func(t *testing.T) {
		out, code := run(t, dir, bin, "./clean")
		if code != 0 || out != "" {
			t.Errorf("compliant package: exit code %d, output:\n%s", code, out)
		}
	})
}

// TestSDKBehaviour checks on the real SDKs what the analyzers' messages
// say the SDKs do: inferred strict schemas, validation before the handler,
// and where a handler's error or IsError ends up.
func TestSDKBehaviour(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the real SDKs")
	}
	out, code := run(t, module(t), "go", "run", "./_sdkcheck")
	if code != 0 {
		t.Fatalf("sdkcheck: exit code %d\n%s", code, out)
	}
	golden(t, "sdkcheck.golden", out)
}

// TestTestdataServersClean runs pilotage-vet over every Go Pilotage server
// the repository keeps for its tests, in their conformant code: the go-sdk
// pilotserver (whose tool table is built by appending to itself, which once
// sent the analyzers into endless recursion), its mcp-go twin, the raw
// no-SDK server and pilotagetest's servers. A correct server draws nothing,
// and the run must not fail.
func TestTestdataServersClean(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and vets several packages")
	}
	bin := build(t)
	cmd := exec.Command(bin, "./internal/pilotserver/...", "./internal/rawserver/...", "./lint/snapshotter/testdata/pilotserver", "./pilotagetest/...")
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.CombinedOutput()
	if err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Fatalf("pilotage-vet on the testdata servers: %v\n%s", err, out)
	}
}
