package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
	"github.com/spf13/pflag"
)

// runSnapshot records a live server's surfaces into a snapshot file:
//
//	pilotage-lint snapshot [--out FILE] [--calls FILE] -- COMMAND [ARGS...]
//	pilotage-lint snapshot [--out FILE] [--calls FILE] --url URL
//
// Exit 0 when the snapshot was written, 2 when it could not be made (bad
// usage, a server that fails the handshake or pilotage_manifest); nothing
// is written then, so a committed snapshot is never replaced by a broken
// one.
func runSnapshot(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint snapshot", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	out := fs.StringP("out", "o", "", "write the snapshot to FILE (default: standard output)")
	url := fs.String("url", "", "connect to a Streamable HTTP server on this machine instead of starting a command")
	callsPath := fs.String("calls", "", `JSON file with tool calls to record: [{"name": "...", "arguments": {...}}, ...]`)
	timeout := fs.Duration("timeout", snapshotter.DefaultTimeout, "give up, and stop the server, after this long")
	proto := fs.String("protocol-version", "", "MCP revision to offer first (default: the SDK's latest, 2026-07-28 through server/discover, falling back to initialize)")
	// The conformance probe (lint/probe, lint/snapshotter/probe.go).
	probeOn := fs.Bool("probe", false, "after the snapshot, send the safe probe set of lint/probe and record every probe call")
	probeRun := fs.String("probe-run", "", "with --probe: a valid program (JSON file) to test-run, only with test_run: true on a Language that declares execute.test_run")
	probeTimeout := fs.Duration("probe-timeout", snapshotter.DefaultProbeTimeout, "with --probe: the longest wait for one probe call; a call that outlives it is recorded as unanswered")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint snapshot [flags] -- COMMAND [ARGS...]\n       pilotage-lint snapshot [flags] --url URL\n\nStarts an MCP server (or connects to one on this machine), records initialize or\nserver/discover, tools/list, resources/list, pilotage_manifest and the --calls,\nand writes them as a pilotage-lint snapshot.\n\nflags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return usageError(e, fs, err)
	}
	command := fs.Args()
	if (len(command) == 0) == (*url == "") {
		return usageError(e, fs, errors.New("give a server command after -- or --url, not both"))
	}
	opt := snapshotter.Options{Command: command, URL: *url, Timeout: *timeout, ProtocolVersion: *proto, ClientVersion: toolVersion()}
	if *probeOn {
		opt.Probe = &snapshotter.Probing{CallTimeout: *probeTimeout}
		// Some thirty probe calls, each allowed --probe-timeout, need more
		// than the default budget of a plain snapshot.
		if !fs.Changed("timeout") {
			opt.Timeout = 5 * time.Minute
		}
		if *probeRun != "" {
			data, err := os.ReadFile(*probeRun)
			if err == nil && !json.Valid(data) {
				err = errors.New("not JSON")
			}
			if err != nil {
				fmt.Fprintf(e.stderr, "pilotage-lint snapshot: --probe-run: want a JSON file holding one program: %v\n", err)
				return exitUsage
			}
			opt.Probe.Run = data
		}
	} else if *probeRun != "" {
		fmt.Fprintln(e.stderr, "pilotage-lint snapshot: --probe-run needs --probe")
		return exitUsage
	}
	if *callsPath != "" {
		data, err := os.ReadFile(*callsPath)
		if err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint snapshot: --calls: %v\n", err)
			return exitUsage
		}
		if err := json.Unmarshal(data, &opt.Calls); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint snapshot: --calls %s: want a JSON array of {\"name\", \"arguments\"} objects: %v\n", *callsPath, err)
			return exitUsage
		}
		for i, c := range opt.Calls {
			args := strings.TrimSpace(string(c.Arguments))
			switch {
			case c.Name == "":
				fmt.Fprintf(e.stderr, "pilotage-lint snapshot: --calls %s: call %d has no name\n", *callsPath, i+1)
				return exitUsage
			case args != "" && args != "null" && !strings.HasPrefix(args, "{"):
				fmt.Fprintf(e.stderr, "pilotage-lint snapshot: --calls %s: the arguments of call %d (%s) are not a JSON object\n", *callsPath, i+1, c.Name)
				return exitUsage
			}
		}
	}
	// An interrupt cancels the session, which stops the server, instead of
	// killing pilotage-lint and orphaning it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	res, err := snapshotter.Take(ctx, opt)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint snapshot: %v\n", err)
		return exitUsage
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(e.stderr, "pilotage-lint snapshot: warning: %s\n", w)
	}
	if *out == "" {
		if _, err := e.stdout.Write(res.JSON); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint snapshot: %v\n", err)
			return exitUsage
		}
	} else if err := writeAtomic(*out, res.JSON); err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint snapshot: %v\n", err)
		return exitUsage
	}
	dest := *out
	if dest == "" {
		dest = "standard output"
	}
	fmt.Fprintf(e.stderr, "pilotage-lint snapshot: wrote %s: %s on %s, %d tools, %d recorded calls (%s)\n",
		dest, res.Handshake, res.Revision, res.Tools, res.Calls, time.Since(started).Round(time.Millisecond))
	return exitOK
}

// writeAtomic replaces path only once the new content is complete, so an
// interrupted run leaves the committed snapshot as it was.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	_ = os.Chmod(tmp.Name(), 0o644)
	return os.Rename(tmp.Name(), path)
}
