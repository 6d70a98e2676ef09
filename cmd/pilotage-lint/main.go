// Command pilotage-lint checks a server's Pilotage surfaces offline:
// manifests, tools/list dumps, initialize and discover results, JSON-RPC
// captures and snapshots. See the README for inputs, formats and exit codes.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/spf13/pflag"
)

// Exit codes (README, "Exit codes").
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command needs from the process, so tests can run it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// subcommands are dispatched on the first argument.
var subcommands = map[string]func(args []string, e *env) int{
	"rules": runRules,
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) > 0 {
		if cmd, ok := subcommands[args[0]]; ok {
			return cmd(args[1:], e)
		}
	}
	return runLint(args, e)
}

func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}

func tool() report.Tool { return report.Tool{Name: "pilotage-lint", Version: toolVersion()} }

// lintFlags are the flags of the lint command.
type lintFlags struct {
	format        string
	failOn        string
	enable        []string
	disable       []string
	severity      []string
	configPath    string
	quiet         bool
	version       bool
	inputKind     string
	manifest      string
	stdinFilename string
	maxBytes      int64
	timeout       time.Duration
	noConfig      bool
}

func newLintFlagSet(f *lintFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pilotage-lint", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.format, "format", "text", "output format: text or json")
	fs.StringVar(&f.failOn, "fail-on", "", "lowest severity that fails the run: error, warning or info (default error)")
	fs.StringSliceVar(&f.enable, "enable", nil, "run only these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&f.disable, "disable", nil, "turn off these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&f.severity, "severity", nil, "override a rule's severity, as ID=error|warning|info (repeatable)")
	fs.StringVar(&f.configPath, "config", "", "config file (default: .pilotage-lint.yaml, .yml or .json found upward from the working directory)")
	fs.BoolVar(&f.noConfig, "no-config", false, "do not look for a config file")
	fs.BoolVarP(&f.quiet, "quiet", "q", false, "print findings only, no summary")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.StringVar(&f.inputKind, "input-kind", "", "force the kind of every input: "+kindList())
	fs.StringVar(&f.manifest, "manifest", "", "manifest file to lint together with inputs that lack one (such as a tools/list dump)")
	fs.StringVar(&f.stdinFilename, "stdin-filename", "<stdin>", "name of standard input (-) in reports")
	fs.Int64Var(&f.maxBytes, "max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop the whole run after this long (0: no limit)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: pilotage-lint [flags] PATH...\n       pilotage-lint rules\n\nPATH is a file, a directory (walked for *.json and *.jsonl) or - for standard input.\n\nflags:\n%s", fs.FlagUsages())
	}
	return fs
}

func kindList() string {
	var ks []string
	for _, k := range snapshot.Kinds {
		ks = append(ks, string(k))
	}
	return strings.Join(ks, ", ")
}

func runLint(args []string, e *env) int {
	var f lintFlags
	fs := newLintFlagSet(&f, e.stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(e.stderr, "pilotage-lint: %v (see --help)\n", err)
		return exitUsage
	}
	if f.version {
		fmt.Fprintf(e.stdout, "pilotage-lint %s\n", toolVersion())
		return exitOK
	}
	paths := fs.Args()
	if len(paths) == 0 {
		fmt.Fprintln(e.stderr, "pilotage-lint: no input paths; give files, directories or - for standard input (see --help)")
		return exitUsage
	}
	cfg, err := loadConfig(&f)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	opt, failOn, err := options(&f, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	if f.format != "text" && f.format != "json" {
		fmt.Fprintf(e.stderr, "pilotage-lint: unknown --format %q: use text or json\n", f.format)
		return exitUsage
	}
	ins, errs := inputs.Collect(paths, inputs.Options{MaxBytes: f.maxBytes, StdinName: f.stdinFilename, Stdin: e.stdin})
	if f.manifest != "" {
		m, merrs := inputs.Collect([]string{f.manifest}, inputs.Options{MaxBytes: f.maxBytes, StdinName: f.stdinFilename, Stdin: e.stdin})
		errs = append(errs, merrs...)
		if len(m) == 1 {
			opt.Manifest = &m[0]
		}
	}
	for _, err := range errs {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
	}
	ctx := context.Background()
	var current sync.Map
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
		opt.Progress = func(name string) { current.Store("file", name) }
	}
	res, err := lint.Run(ctx, ins, opt)
	if err != nil {
		where := ""
		if v, ok := current.Load("file"); ok {
			where = fmt.Sprintf(" while linting %s", v)
		}
		fmt.Fprintf(e.stderr, "pilotage-lint: stopped after --timeout %s%s\n", f.timeout, where)
		return exitUsage
	}
	r := &report.Run{Tool: tool(), Result: res, Rules: opt.Rules}
	switch f.format {
	case "json":
		err = report.JSON(e.stdout, r)
	default:
		err = report.Text(e.stdout, r, report.TextOptions{Quiet: f.quiet, Color: colorOK(e.stdout)})
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	if len(errs) > 0 {
		return exitUsage
	}
	for _, fd := range res.Findings {
		if fd.Severity >= failOn {
			return exitFindings
		}
	}
	return exitOK
}

// colorOK reports whether w is a terminal and NO_COLOR is unset
// (https://no-color.org).
func colorOK(w io.Writer) bool {
	if _, set := os.LookupEnv("NO_COLOR"); set {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func loadConfig(f *lintFlags) (*config.Config, error) {
	path := f.configPath
	if path == "" && !f.noConfig {
		wd, err := os.Getwd()
		if err == nil {
			path = config.Find(wd)
		}
	}
	if path == "" {
		return &config.Config{}, nil
	}
	return config.Load(path)
}

// options merges the config file and the flags; flags win.
func options(f *lintFlags, cfg *config.Config) (*lint.Options, lint.Severity, error) {
	sel, err := cfg.Selection()
	if err != nil {
		return nil, 0, err
	}
	sel.Enable = append(sel.Enable, f.enable...)
	sel.Disable = append(sel.Disable, f.disable...)
	for _, kv := range f.severity {
		id, lvl, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, 0, fmt.Errorf("--severity %q: want ID=error|warning|info", kv)
		}
		s, err := lint.ParseSeverity(lvl)
		if err != nil {
			return nil, 0, fmt.Errorf("--severity %s: %w", id, err)
		}
		sel.Severity[id] = s
	}
	rs, err := lint.Select(rules.All(), sel)
	if err != nil {
		return nil, 0, err
	}
	failOn := lint.Error
	level := cfg.FailOn
	if f.failOn != "" {
		level = f.failOn
	}
	if level != "" {
		if failOn, err = lint.ParseSeverity(level); err != nil {
			return nil, 0, fmt.Errorf("--fail-on: %w", err)
		}
	}
	kind := snapshot.Kind(f.inputKind)
	if kind != "" {
		known := false
		for _, k := range snapshot.Kinds {
			known = known || k == kind
		}
		if !known {
			return nil, 0, fmt.Errorf("unknown --input-kind %q: use one of %s", kind, kindList())
		}
	}
	return &lint.Options{
		Rules:     rs,
		InputKind: kind,
		Ignores:   cfg.Ignore,
		Parse:     source.Options{},
	}, failOn, nil
}

func runRules(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint rules", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	markdown := fs.Bool("markdown", false, "print the rules reference (docs/rules.md)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(e.stderr, "pilotage-lint: %v (see --help)\n", err)
		return exitUsage
	}
	if *markdown {
		fmt.Fprint(e.stdout, rules.Markdown())
		return exitOK
	}
	for _, r := range rules.All() {
		fmt.Fprintf(e.stdout, "%-34s %-7s %-22s %s\n", r.ID, r.Severity, r.Spec, r.Summary)
	}
	return exitOK
}
