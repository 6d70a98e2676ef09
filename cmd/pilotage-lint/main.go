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
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/baseline"
	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/ruledoc"
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
	tuneGC()
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
	out           outputFlags
	failOn        string
	enable        []string
	disable       []string
	severity      []string
	configPath    string
	version       bool
	inputKind     string
	manifest      string
	stdinFilename string
	maxBytes      int64
	timeout       time.Duration
	noConfig      bool
	baseline      string
	writeBaseline string
	printConfig   bool
}

func newLintFlagSet(f *lintFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pilotage-lint", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addOutputFlags(fs, &f.out)
	fs.StringVar(&f.failOn, "fail-on", "", "lowest severity that fails the run: error, warning or info (default error)")
	fs.StringSliceVar(&f.enable, "enable", nil, "run only these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&f.disable, "disable", nil, "turn off these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&f.severity, "severity", nil, "override a rule's severity, as ID=error|warning|info (repeatable)")
	fs.StringVar(&f.configPath, "config", "", "config file (default: .pilotage-lint.yaml, .yml or .json found upward from the working directory)")
	fs.BoolVar(&f.noConfig, "no-config", false, "do not look for a config file")
	fs.BoolVar(&f.printConfig, "print-config", false, "print the effective configuration (config file and flags) as YAML and exit")
	fs.StringVar(&f.baseline, "baseline", "", "suppress the findings recorded in this baseline file; new ones still fail")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in this baseline file (and suppress them in this run)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.StringVar(&f.inputKind, "input-kind", "", "force the kind of every input: "+kindList())
	fs.StringVar(&f.manifest, "manifest", "", "manifest file to lint together with inputs that lack one (such as a tools/list dump)")
	fs.StringVar(&f.stdinFilename, "stdin-filename", "<stdin>", "name of standard input (-) in reports")
	fs.Int64Var(&f.maxBytes, "max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop the whole run after this long (0: no limit)")
	fs.Usage = func() {
		var names []string
		for name := range subcommands {
			names = append(names, name)
		}
		sort.Strings(names)
		fmt.Fprintf(stderr, "usage: pilotage-lint [flags] PATH...\n       pilotage-lint SUBCOMMAND [flags] (%s; each takes --help)\n\nPATH is a file, a directory (walked for *.json and *.jsonl) or - for standard input.\n\nflags:\n%s", strings.Join(names, ", "), fs.FlagUsages())
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
	cfg, cfgPath, err := loadConfig(&f)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	opt, failOn, err := options(&f, cfg)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	if f.printConfig {
		return printConfig(e, &f, cfg, cfgPath, opt.Rules, failOn)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		fmt.Fprintln(e.stderr, "pilotage-lint: no input paths; give files, directories or - for standard input (see --help)")
		return exitUsage
	}
	if _, err := f.out.targets(); err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	var base *baseline.Baseline
	if f.baseline != "" {
		if base, err = baseline.Load(f.baseline); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint: --baseline: %v\n", err)
			return exitUsage
		}
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
	res, err := lintBounded(ctx, ins, opt, &current)
	if err != nil {
		where := ""
		var se *lint.StoppedError
		if errors.As(err, &se) && len(se.Files) > 0 {
			where = " while linting " + strings.Join(se.Files, ", ")
		}
		fmt.Fprintf(e.stderr, "pilotage-lint: stopped after --timeout %s%s\n", f.timeout, where)
		return exitUsage
	}
	if f.writeBaseline != "" {
		// The new baseline takes effect at once: this run then reports
		// only what it could not record, and exits 0 for an adoption.
		base = baseline.New(f.writeBaseline, res.Findings)
		if err := base.Save(f.writeBaseline); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint: --write-baseline: %v\n", err)
			return exitUsage
		}
		if !f.out.quiet {
			fmt.Fprintf(e.stderr, "pilotage-lint: recorded %d %s in baseline %s\n", len(base.Findings), plural(len(base.Findings), "finding"), f.writeBaseline)
		}
	}
	if base != nil {
		kept, n, stale := base.Filter(res.Findings)
		res.Findings = kept
		name := f.baseline
		if f.writeBaseline != "" {
			name = f.writeBaseline
		}
		if !f.out.quiet && n > 0 {
			fmt.Fprintf(e.stderr, "pilotage-lint: %d %s suppressed by baseline %s\n", n, plural(n, "finding"), name)
		}
		if !f.out.quiet && len(stale) > 0 {
			fmt.Fprintf(e.stderr, "pilotage-lint: %d %s in baseline %s no longer occur; run with --write-baseline %s to drop them\n", len(stale), plural(len(stale), "finding"), name, name)
		}
	}
	r := &report.Run{Tool: tool(), Result: res, Rules: opt.Rules, FailOn: failOn}
	if err := writeReports(e, &f.out, r); err != nil {
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

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// stopGrace is how long a run may overrun --timeout while its workers reach
// the next rule boundary.
const stopGrace = 2 * time.Second

// lintBounded is lint.Run bounded by ctx even if a rule never returns: Run
// stops each input at the next rule boundary, but a rule stuck in a loop
// (or the parse of a huge file) must not hold the run past --timeout. Its
// goroutine is then abandoned; the process is about to exit.
func lintBounded(ctx context.Context, ins []lint.Input, opt *lint.Options, current *sync.Map) (*lint.Result, error) {
	type result struct {
		res *lint.Result
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := lint.Run(ctx, ins, opt)
		done <- result{r, err}
	}()
	select {
	case r := <-done:
		return r.res, r.err
	case <-ctx.Done():
	}
	select {
	case r := <-done:
		return r.res, r.err
	case <-time.After(stopGrace):
		var files []string
		if v, ok := current.Load("file"); ok {
			files = append(files, v.(string))
		}
		return nil, &lint.StoppedError{Err: ctx.Err(), Files: files}
	}
}

// colorOK reports whether w is a terminal and NO_COLOR is unset or empty
// (https://no-color.org: "when present and not an empty string").
func colorOK(w io.Writer) bool {
	if os.Getenv("NO_COLOR") != "" {
		return false
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func loadConfig(f *lintFlags) (*config.Config, string, error) {
	path := f.configPath
	if path == "" && !f.noConfig {
		wd, err := os.Getwd()
		if err == nil {
			path = config.Find(wd)
		}
	}
	if path == "" {
		return &config.Config{}, "", nil
	}
	c, err := config.Load(path)
	return c, path, err
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
	if kind != "" && !slices.Contains(snapshot.Kinds, kind) {
		return nil, 0, fmt.Errorf("unknown --input-kind %q: use one of %s", kind, kindList())
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
		fmt.Fprint(e.stdout, ruledoc.Markdown())
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for i, s := range ruledoc.Sections() {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "# %s\n", s.Title)
		for _, r := range s.Rules {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Spec, r.Summary)
		}
	}
	if err := tw.Flush(); err != nil {
		return exitUsage
	}
	return exitOK
}
