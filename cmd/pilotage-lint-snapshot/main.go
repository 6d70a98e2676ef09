// Command pilotage-lint-snapshot records a live MCP server's surfaces into a
// pilotage-lint snapshot. It is what `pilotage-lint snapshot` runs: the MCP
// client (the Go SDK, net/http, TLS, OAuth) lives in this binary so that
// pilotage-lint, started on every commit and every CI push, does not load
// it. Install both with `go install github.com/pilotagekit/pilotagekit/cmd/...`.
//
//	pilotage-lint snapshot [--out FILE] [--calls FILE] -- COMMAND [ARGS...]
//	pilotage-lint snapshot [--out FILE] [--calls FILE] [--header 'Name: value']... --url URL
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/buildinfo"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
	"github.com/spf13/pflag"
)

// Exit codes, those of pilotage-lint, and one of its own: the snapshot
// was written, but it is incomplete: probe calls failed for transport
// reasons, the manifest resource drew no answer, or the session's
// --timeout ran out before the probe set was done.
const (
	exitOK         = 0
	exitIncomplete = 1
	exitUsage      = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, os.LookupEnv))
}

// snapshotFlags are the command's flags.
type snapshotFlags struct {
	out       string
	url       string
	headers   []string
	callsPath string
	timeout   time.Duration
	proto     string
	version   bool
	// The conformance probe (lint/probe, lint/snapshotter/probe.go).
	probe        bool
	probeRun     string
	probeInput   string
	probeContext string
	probeTimeout time.Duration
	maxBytes     int64
	peerStdio    bool // the server is the parent process (peer.go)
}

// newFlagSet registers every flag in one place.
func newFlagSet(f *snapshotFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pilotage-lint snapshot", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVarP(&f.out, "out", "o", "", "write the snapshot to FILE, creating its folders (default: standard output)")
	fs.StringVar(&f.url, "url", "", "connect to a Streamable HTTP server (any http or https URL) instead of starting a command")
	fs.StringArrayVar(&f.headers, "header", nil, "send this HTTP header with --url, as 'Name: value'; ${VAR} in the value is read from the environment (repeatable)")
	fs.StringVar(&f.callsPath, "calls", "", `JSON file with tool calls to record: [{"name": "...", "arguments": {...}}, ...]`)
	fs.DurationVar(&f.timeout, "timeout", snapshotter.DefaultTimeout, "give up, and stop the server, after this long")
	fs.StringVar(&f.proto, "protocol-version", "", "MCP revision to offer first (default: the SDK's latest, 2026-07-28 through server/discover, falling back to initialize)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.Int64Var(&f.maxBytes, "max-bytes", snapshotter.DefaultMaxBytes, "with --url: the largest HTTP response body read; a longer one fails its call (over stdio the MCP SDK bounds each message at the same size)")
	fs.BoolVar(&f.probe, "probe", false, "after the snapshot, send the safe probe set of lint/probe and record every probe call")
	fs.StringVar(&f.probeRun, "probe-run", "", "with --probe: a valid program (JSON file) to test-run, only with test_run: true on a Language that declares execute.test_run")
	fs.StringVar(&f.probeInput, "probe-input", "", "with --probe-run: the run's input (JSON file), sent with every test run of the program")
	fs.StringVar(&f.probeContext, "probe-context", "", "with --probe-run: the program's context (JSON file), sent with its validate and test runs")
	fs.BoolVar(&f.peerStdio, "peer-stdio", false, "speak MCP over standard input and output to the process that started this one (a test helper holding the server); needs --out")
	fs.DurationVar(&f.probeTimeout, "probe-timeout", snapshotter.DefaultProbeTimeout, "with --probe: the longest wait for one probe call, and for the read of the manifest resource (5s without --probe); a call that outlives it is recorded as unanswered")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pilotage-lint snapshot [flags] -- COMMAND [ARGS...]\n       pilotage-lint snapshot [flags] --url URL\n\nStarts an MCP server (or connects to one over Streamable HTTP), records\ninitialize or server/discover, tools/list, resources/list, pilotage_manifest\n(when listed) and the --calls, and writes them as a pilotage-lint snapshot.\n\nflags:\n%s", fs.FlagUsages())
	}
	return fs
}

func run(args []string, stdout, stderr io.Writer, lookupEnv func(string) (string, bool)) int {
	var f snapshotFlags
	fs := newFlagSet(&f, stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
		fs.Usage()
		return exitUsage
	}
	if f.version {
		fmt.Fprintf(stdout, "pilotage-lint-snapshot %s\n", buildinfo.Version())
		return exitOK
	}
	command := fs.Args()
	if f.peerStdio {
		if code := checkPeer(&f, command, stderr); code != exitOK {
			return code
		}
	} else if (len(command) == 0) == (f.url == "") {
		fmt.Fprintln(stderr, "pilotage-lint snapshot: give a server command after -- or --url, not both")
		fs.Usage()
		return exitUsage
	}
	if len(f.headers) > 0 && f.url == "" {
		fmt.Fprintln(stderr, "pilotage-lint snapshot: --header goes with --url; a command's server takes no HTTP headers")
		return exitUsage
	}
	headers, err := snapshotter.ParseHeaders(f.headers, lookupEnv)
	if err != nil {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
		return exitUsage
	}
	if f.maxBytes <= 0 {
		fmt.Fprintln(stderr, "pilotage-lint snapshot: --max-bytes must be positive")
		return exitUsage
	}
	opt := snapshotter.Options{Command: command, URL: f.url, Headers: headers, Timeout: f.timeout, ProtocolVersion: f.proto, ClientVersion: buildinfo.Version(), MaxBytes: f.maxBytes}
	if f.peerStdio {
		opt.Transport = peerTransport()
	}
	if code := probeOptions(&f, fs, &opt, stderr); code != exitOK {
		return code
	}
	if f.callsPath != "" {
		if opt.Calls, err = readCalls(f.callsPath); err != nil {
			fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
			return exitUsage
		}
	}
	// An interrupt cancels the session, which stops the server, instead of
	// killing the process and orphaning it.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	res, err := snapshotter.Take(ctx, opt)
	if err != nil {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
		return exitUsage
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: warning: %s\n", w)
	}
	if f.out == "" {
		if _, err := stdout.Write(res.JSON); err != nil {
			fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
			return exitUsage
		}
	} else if err := writeAtomic(f.out, res.JSON); err != nil {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %v\n", err)
		return exitUsage
	}
	dest := f.out
	if dest == "" {
		dest = "standard output"
	}
	fmt.Fprintf(stderr, "pilotage-lint snapshot: wrote %s: %s on %s, %d tools, %d recorded calls (%s)\n",
		dest, res.Handshake, res.Revision, res.Tools, res.Calls, time.Since(started).Round(time.Millisecond))
	for _, n := range res.ProbeRunNotes {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %s\n", n)
	}
	// A transport failure, a read that drew no answer and a session that
	// ran out are no success: the snapshot records what happened, and the
	// exit status says it is incomplete.
	for _, fl := range res.Failures {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: error: %s\n", fl)
	}
	if n := res.FailedCalls; n > 0 {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: %d probe %s failed for a transport reason; the snapshot records why, and lint fails it\n", n, plural(n, "call"))
	}
	if res.RanOut != "" {
		fmt.Fprintf(stderr, "pilotage-lint snapshot: error: %s\n", res.RanOut)
	}
	if len(res.Failures) > 0 || res.RanOut != "" {
		return exitIncomplete
	}
	return exitOK
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// probeOptions sets opt.Probe from the probe flags; a non-zero result is
// the exit status of a usage error it reported.
func probeOptions(f *snapshotFlags, fs *pflag.FlagSet, opt *snapshotter.Options, stderr io.Writer) int {
	if !f.probe {
		if f.probeRun != "" {
			fmt.Fprintln(stderr, "pilotage-lint snapshot: --probe-run needs --probe")
			return exitUsage
		}
		return exitOK
	}
	if f.probeRun == "" && (f.probeInput != "" || f.probeContext != "") {
		fmt.Fprintln(stderr, "pilotage-lint snapshot: --probe-input and --probe-context go with --probe-run")
		return exitUsage
	}
	opt.Probe = &snapshotter.Probing{CallTimeout: f.probeTimeout}
	// Some thirty probe calls, each allowed --probe-timeout, need more
	// than the default budget of a plain snapshot.
	if !fs.Changed("timeout") {
		opt.Timeout = 5 * time.Minute
	}
	if f.probeRun != "" {
		data, err := os.ReadFile(f.probeRun)
		if err == nil && !json.Valid(data) {
			err = errors.New("not JSON")
		}
		if err != nil {
			fmt.Fprintf(stderr, "pilotage-lint snapshot: --probe-run: want a JSON file holding one program: %v\n", err)
			return exitUsage
		}
		opt.Probe.Run = data
	}
	for _, side := range []struct {
		flag, path string
		to         *json.RawMessage
	}{{"--probe-input", f.probeInput, &opt.Probe.Input}, {"--probe-context", f.probeContext, &opt.Probe.Context}} {
		if side.path == "" {
			continue
		}
		data, err := os.ReadFile(side.path)
		if err == nil && !json.Valid(data) {
			err = errors.New("not JSON")
		}
		if err != nil {
			fmt.Fprintf(stderr, "pilotage-lint snapshot: %s: want a JSON file holding one value: %v\n", side.flag, err)
			return exitUsage
		}
		*side.to = data
	}
	return exitOK
}

func readCalls(path string) ([]snapshotter.Call, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--calls: %v", err)
	}
	var calls []snapshotter.Call
	if err := json.Unmarshal(data, &calls); err != nil {
		return nil, fmt.Errorf("--calls %s: want a JSON array of {\"name\", \"arguments\"} objects: %v", path, err)
	}
	for i, c := range calls {
		args := strings.TrimSpace(string(c.Arguments))
		switch {
		case c.Name == "":
			return nil, fmt.Errorf("--calls %s: call %d has no name", path, i+1)
		case args != "" && args != "null" && !strings.HasPrefix(args, "{"):
			return nil, fmt.Errorf("--calls %s: the arguments of call %d (%s) are not a JSON object", path, i+1, c.Name)
		}
	}
	return calls, nil
}

// writeAtomic replaces path only once the new content is complete, so an
// interrupted run leaves the committed snapshot as it was. Missing folders
// are created. Errors name path, never the temporary file.
func writeAtomic(path string, data []byte) error {
	fail := func(err error) error {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	_ = os.Chmod(tmp.Name(), 0o644)
	if err := os.Rename(tmp.Name(), path); err != nil {
		var le *os.LinkError
		if errors.As(err, &le) {
			err = le.Err
		}
		return fail(err)
	}
	return nil
}
