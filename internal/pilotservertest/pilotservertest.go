// Package pilotservertest builds and starts the testdata Pilotage server
// (lint/snapshotter/testdata/pilotserver, serving internal/pilotserver) for tests in several packages,
// so each does not carry its own copy of the build and start-up code.
package pilotservertest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	bin       string
	buildErr  error
)

// Build compiles the server once per test binary and returns its path. It
// skips the test under -short, since it builds and runs a program.
func Build(t testing.TB) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs a server")
	}
	buildOnce.Do(func() {
		_, self, _, ok := runtime.Caller(0)
		if !ok {
			buildErr = fmt.Errorf("cannot locate the pilotserver sources")
			return
		}
		src := filepath.Join(filepath.Dir(self), "..", "..", "lint", "snapshotter", "testdata", "pilotserver")
		dir, err := os.MkdirTemp("", "pilotserver")
		if err != nil {
			buildErr = err
			return
		}
		bin = filepath.Join(dir, "pilotserver")
		cmd := exec.Command("go", "build", "-o", bin, ".")
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build pilotserver: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return bin
}

// StartHTTP runs the server over Streamable HTTP on a port of 127.0.0.1 it
// picks, with the extra arguments (such as -mode full), and returns its
// URL; the server is stopped when the test ends.
func StartHTTP(t testing.TB, args ...string) string {
	t.Helper()
	return Listen(t, exec.Command(Build(t), append(args, "-http", "127.0.0.1:0")...))
}

// Listen starts cmd, a command that runs the server with -http (directly,
// or through a wrapper such as ip netns exec), and returns the URL the
// server says it listens on; the server is stopped when the test ends.
func Listen(t testing.TB, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("pilotserver did not say where it listens: %v", err)
	}
	return strings.TrimSpace(strings.TrimPrefix(line, "listening on "))
}
