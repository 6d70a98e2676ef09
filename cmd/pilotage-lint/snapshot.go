package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
)

// snapshotCommand is the program `pilotage-lint snapshot` hands off to, as
// git and kubectl run their subcommands: the MCP client it links (the Go
// SDK, net/http, TLS, OAuth) would otherwise load on every lint run.
const snapshotCommand = "pilotage-lint-snapshot"

// runSnapshot runs pilotage-lint-snapshot with the same arguments and
// standard streams, and exits as it does. It is looked for beside this
// executable first, where `go install ./cmd/...` puts it, then on PATH.
func runSnapshot(args []string, e *env) int {
	path, err := findSnapshotCommand()
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint snapshot: %v; install it beside pilotage-lint with: go install github.com/pilotagekit/pilotagekit/cmd/%s@%s (or go install ./cmd/... in a clone)\n", err, snapshotCommand, installVersion())
		return exitUsage
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = e.stdin, e.stdout, e.stderr
	// An interrupt reaches both processes; the child stops its server and
	// exits, and this process waits for it instead of dying first.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint snapshot: cannot run %s: %v\n", path, err)
		return exitUsage
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sig:
				_ = cmd.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(done)
	var ee *exec.ExitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		return ee.ExitCode()
	}
	fmt.Fprintf(e.stderr, "pilotage-lint snapshot: %s: %v\n", path, err)
	return exitUsage
}

func findSnapshotCommand() (string, error) {
	name := snapshotCommand
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(beside); err == nil && fi.Mode().IsRegular() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath(snapshotCommand); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s is not installed beside pilotage-lint nor on PATH", snapshotCommand)
}

// installVersion is the version to name in the install hint: this one,
// when it is a release (not devel, a pseudo-version or a dirty build),
// else latest.
func installVersion() string {
	if v := toolVersion(); strings.HasPrefix(v, "v") && !strings.ContainsAny(v, "-+") {
		return v
	}
	return "latest"
}
