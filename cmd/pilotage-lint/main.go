// Command pilotage-lint checks a server's Pilotage surfaces offline:
// manifests, tools/list dumps, initialize and discover results, JSON-RPC
// captures and snapshots. See the README for inputs, formats and exit codes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/pilotagekit/pilotagekit/internal/buildinfo"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/baseline"
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
	// lint reads each input when a worker reaches it and drops it once
	// linted, so the live heap is a few files; at Go's default GOGC of 100
	// a 1,000-file run then collects 49 times and spends about twice the
	// CPU. At 200 it collects 17 times, at the CPU of reading every file
	// up front and with half its page faults (bench/RESULTS.md). A GOGC the
	// user set wins.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command needs from the process, so tests can run it.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

// command is one entry of the subcommand table.
type command struct {
	// name is the first argument that selects it; "" is lint, the default.
	name string
	// usage is the synopsis a usage error repeats.
	usage string
	run   func(args []string, e *env) int
}

// commands is the one subcommand table. It is a function, not a variable,
// because the commands print usage lines read from it.
func commands() []command {
	return []command{
		{"", "usage: pilotage-lint [flags] PATH...", runLint},
		{"diff", "usage: pilotage-lint diff [flags] OLD NEW", runDiff},
		{"snapshot", "usage: pilotage-lint snapshot [flags] -- COMMAND [ARGS...]\n       pilotage-lint snapshot [flags] --url URL", runSnapshot},
		{"rules", "usage: pilotage-lint rules [--markdown | --format text|json] [ID...]", runRules},
		{"init", "usage: pilotage-lint init [--force] [FILE]", runInit},
		{"help", "usage: pilotage-lint help [COMMAND]", runHelp},
	}
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) > 0 {
		for _, c := range commands() {
			if c.name != "" && c.name == args[0] {
				return c.run(args[1:], e)
			}
		}
	}
	return runLint(args, e)
}

// usageError says what was wrong and repeats the command's usage line:
// exit 2. fs names the command ("pilotage-lint diff").
func usageError(e *env, fs *pflag.FlagSet, err error) int {
	name := strings.TrimSpace(strings.TrimPrefix(fs.Name(), "pilotage-lint"))
	fmt.Fprintf(e.stderr, "%s: %v\n", fs.Name(), err)
	for _, c := range commands() {
		if c.name == name {
			fmt.Fprintf(e.stderr, "%s\n(see %s --help)\n", c.usage, fs.Name())
		}
	}
	return exitUsage
}

// parseArgs parses a command's flags: --help is exit 0, an error is a
// usage error; ok says whether to go on.
func parseArgs(e *env, fs *pflag.FlagSet, args []string) (code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK, false
		}
		return usageError(e, fs, err), false
	}
	return 0, true
}

func toolVersion() string { return buildinfo.Version() }

func tool() report.Tool { return report.Tool{Name: "pilotage-lint", Version: toolVersion()} }

// lintFlags are the flags of the lint command.
type lintFlags struct {
	out           outputFlags
	sel           selectionFlags
	version       bool
	inputKind     string
	manifest      string
	stdinFilename string
	maxBytes      int64
	timeout       time.Duration
	baseline      string
	writeBaseline string
	printConfig   bool
	exclude       []string
	namedAsWalked bool
	allowEmpty    bool
}

func newLintFlagSet(f *lintFlags, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet("pilotage-lint", pflag.ContinueOnError)
	fs.SetOutput(stderr)
	addOutputFlags(fs, &f.out)
	f.sel.add(fs)
	fs.BoolVar(&f.printConfig, "print-config", false, "print the effective configuration (config file and flags) as YAML and exit")
	fs.StringVar(&f.baseline, "baseline", "", "suppress the findings recorded in this baseline file; new ones still fail")
	fs.StringVar(&f.writeBaseline, "write-baseline", "", "record the current findings in this baseline file (and suppress them in this run)")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	fs.StringVar(&f.inputKind, "input-kind", "", "force the kind of every input: "+kindList())
	fs.StringVar(&f.manifest, "manifest", "", "manifest file to lint together with inputs that lack one (such as a tools/list dump)")
	fs.StringVar(&f.stdinFilename, "stdin-filename", "<stdin>", "name of standard input (-) in reports")
	fs.Int64Var(&f.maxBytes, "max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	fs.DurationVar(&f.timeout, "timeout", 0, "stop the whole run after this long (0: no limit)")
	fs.StringArrayVar(&f.exclude, "exclude", nil, "skip files and folders matching this glob in directory walks (** spans folders; repeatable)")
	fs.BoolVar(&f.allowEmpty, "allow-empty", false, "exit 0 when the paths hold no .json or .jsonl file at all (after --exclude) instead of failing")
	fs.BoolVar(&f.namedAsWalked, "skip-unrecognized", false, "skip named files whose kind is not recognised, as a directory walk does (for hooks that pass every matching file)")
	fs.Usage = func() {
		var names []string
		for _, c := range commands() {
			if c.name != "" {
				names = append(names, c.name)
			}
		}
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
	if code, ok := parseArgs(e, fs, args); !ok {
		return code
	}
	if f.version {
		fmt.Fprintf(e.stdout, "pilotage-lint %s\n", toolVersion())
		return exitOK
	}
	sel, err := f.sel.resolve(rules.CommandLint)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	opt, err := options(&f, sel)
	if err != nil {
		return usageError(e, fs, err)
	}
	if f.printConfig {
		return printConfig(e, &f.sel, sel)
	}
	paths := fs.Args()
	if len(paths) == 0 {
		return usageError(e, fs, errors.New("no input paths; give files, directories or - for standard input"))
	}
	if _, err := f.out.targets(); err != nil {
		return usageError(e, fs, err)
	}
	var base *baseline.Baseline
	if f.baseline != "" {
		if base, err = baseline.Load(f.baseline); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint: --baseline: %v\n", err)
			return exitUsage
		}
	}
	ins, errs := inputs.Collect(paths, inputs.Options{MaxBytes: f.maxBytes, StdinName: f.stdinFilename, Stdin: e.stdin, Exclude: f.exclude, NamedAsWalked: f.namedAsWalked, Lazy: true})
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
	// A gate fails closed: a path typo or an --exclude that matches
	// everything must not pass as "no findings".
	if len(ins) == 0 && len(errs) == 0 && !f.allowEmpty {
		fmt.Fprintf(e.stderr, "pilotage-lint: no inputs were targeted: %s %s %s no .json or .jsonl file%s; check the paths, or pass --allow-empty\n",
			lint.Plural(len(paths), "path"), strings.Join(paths, " "), map[bool]string{true: "holds", false: "hold"}[len(paths) == 1], map[bool]string{true: " after --exclude", false: ""}[len(f.exclude) > 0])
		return exitUsage
	}
	ctx := context.Background()
	var current sync.Map
	if f.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.timeout)
		defer cancel()
		opt.Progress = func(name string) { current.Store("file", name) }
	}
	// Nothing below reads an input's text again.
	opt.Release = true
	res, err := lintBounded(ctx, ins, opt, &current)
	if err != nil {
		where := ""
		var se *lint.StoppedError
		if errors.As(err, &se) {
			where = se.Where()
		}
		fmt.Fprintf(e.stderr, "pilotage-lint: stopped after --timeout %s%s\n", f.timeout, where)
		return exitUsage
	}
	// A file that could be opened when collected and not when its turn
	// came (removed or changed meanwhile) was not judged.
	for _, err := range res.Unread {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
	}
	errs = append(errs, res.Unread...)
	var linted []string
	for _, fi := range res.Files {
		linted = append(linted, fi.Path)
	}
	if f.writeBaseline != "" {
		// The new baseline takes effect at once: this run then reports
		// only what it could not record, and exits 0 for an adoption. The
		// entries of files this run did not lint (a hook passes the
		// staged ones) are kept.
		var prev *baseline.Baseline
		if _, err := os.Stat(f.writeBaseline); err == nil {
			if prev, err = baseline.Load(f.writeBaseline); err != nil {
				fmt.Fprintf(e.stderr, "pilotage-lint: --write-baseline: %v; it keeps the entries of files this run does not lint, so fix or remove the file first\n", err)
				return exitUsage
			}
		}
		base = baseline.New(f.writeBaseline, res.Findings).Merge(prev, linted)
		if err := base.Save(f.writeBaseline); err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint: --write-baseline: %v\n", err)
			return exitUsage
		}
		if !f.out.quiet {
			kept := ""
			if n := len(base.Findings) - len(res.Findings); n > 0 {
				kept = fmt.Sprintf(", and kept %d of files this run did not lint", n)
			}
			fmt.Fprintf(e.stderr, "pilotage-lint: recorded %d %s in baseline %s%s\n", len(res.Findings), lint.Plural(len(res.Findings), "finding"), f.writeBaseline, kept)
		}
	}
	if base != nil {
		kept, dropped, stale := base.Filter(res.Findings, linted)
		// The probe coverage counts what the baseline dropped as
		// suppressed.
		res.Suppressed = append(res.Suppressed, dropped...)
		res.Findings = kept
		n := len(dropped)
		name := f.baseline
		if f.writeBaseline != "" {
			name = f.writeBaseline
		}
		if !f.out.quiet && n > 0 {
			fmt.Fprintf(e.stderr, "pilotage-lint: %d %s suppressed by baseline %s\n", n, lint.Plural(n, "finding"), name)
		}
		if !f.out.quiet && len(stale) > 0 {
			fmt.Fprintf(e.stderr, "pilotage-lint: %d %s in baseline %s no longer occur; run with --write-baseline %s to drop them:\n%s", len(stale), lint.Plural(len(stale), "finding"), name, name, staleEntries(stale))
		}
	}
	warnUnmatched(e, "pilotage-lint", sel, ignoreHits(len(opt.Ignores), res.Files), res.Files)
	return finish(e, "pilotage-lint", &f.out, &report.Run{Tool: tool(), Result: res, Rules: opt.Rules, Probes: report.ProbesOf(res), Time: time.Now()}, sel.failOn, len(errs) > 0)
}

// finish is the last step of every command that reports findings: it sets
// the failure threshold on the report (so JUnit failures agree with the
// exit status), writes every --format and --output, and returns the exit
// status: 2 when a report could not be written or an input could not be
// read (unreadable), else 1 when a finding reaches failOn, else 0.
func finish(e *env, name string, out *outputFlags, r *report.Run, failOn lint.Severity, unreadable bool) int {
	r.FailOn = failOn
	if err := writeReports(e, out, r); err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	if unreadable {
		return exitUsage
	}
	for _, fd := range r.Result.Findings {
		if fd.Severity >= failOn {
			return exitFindings
		}
	}
	return exitOK
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

// options turns the lint flags and the resolved selection into the
// engine's options.
func options(f *lintFlags, sel *selection) (*lint.Options, error) {
	kind := snapshot.Kind(f.inputKind)
	if kind != "" && !slices.Contains(snapshot.Kinds, kind) {
		return nil, fmt.Errorf("unknown --input-kind %q: use one of %s", kind, kindList())
	}
	return &lint.Options{
		Rules:     sel.rules,
		From:      sel.of,
		InputKind: kind,
		Ignores:   sel.cfg.Ignore,
		Parse:     source.Options{},
	}, nil
}

func runRules(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint rules", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	markdown := fs.Bool("markdown", false, "print the rules reference (docs/rules.md)")
	format := fs.String("format", "text", "text, or json: every rule with its severity, spec, quote, doc and examples")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint rules [--markdown | --format text|json] [ID...]\n\nLists every rule (lint and diff), or explains the rules named: doc, the spec\nsentence it enforces, and examples.\n\nflags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseArgs(e, fs, args); !ok {
		return code
	}
	if *format != "text" && *format != "json" {
		return usageError(e, fs, fmt.Errorf("unknown --format %q: use text or json", *format))
	}
	if *markdown {
		if fs.NArg() > 0 || *format != "text" {
			return usageError(e, fs, errors.New("--markdown prints the whole reference; it takes no rule ID or --format"))
		}
		fmt.Fprint(e.stdout, ruledoc.Markdown())
		return exitOK
	}
	all := ruleList()
	picked := all
	if fs.NArg() > 0 {
		picked = nil
		for _, id := range fs.Args() {
			i := slices.IndexFunc(all, func(r *lint.Rule) bool { return r.ID == id })
			if i < 0 {
				return usageError(e, fs, fmt.Errorf("unknown rule %q (pilotage-lint rules lists every rule)", id))
			}
			picked = append(picked, all[i])
		}
	}
	if *format == "json" {
		type jsonException struct {
			Spec    string `json:"spec"`
			Quote   string `json:"quote"`
			Fixture string `json:"fixture"`
		}
		type jsonRule struct {
			ID           string          `json:"id"`
			Severity     string          `json:"severity"`
			Family       string          `json:"family"`
			Spec         string          `json:"spec"`
			Quote        string          `json:"quote,omitempty"`
			Keyword      string          `json:"keyword,omitempty"`
			Since        string          `json:"since,omitempty"`
			Deprecated   bool            `json:"deprecated,omitempty"`
			ReplacedBy   []string        `json:"replaced_by,omitempty"`
			Summary      string          `json:"summary"`
			Doc          string          `json:"doc"`
			Scope        string          `json:"scope,omitempty"`
			Exceptions   []jsonException `json:"exceptions,omitempty"`
			NoExceptions string          `json:"no_exceptions,omitempty"`
			Bad          string          `json:"bad,omitempty"`
			Good         string          `json:"good,omitempty"`
		}
		out := []jsonRule{}
		for _, r := range picked {
			j := jsonRule{ID: r.ID, Severity: r.Severity.String(), Family: r.Family, Spec: r.Spec, Quote: r.Quote, Keyword: r.Keyword, Since: r.Since, Deprecated: r.Deprecated, ReplacedBy: r.ReplacedBy, Summary: r.Summary, Doc: r.Doc, Scope: r.Scope, NoExceptions: r.NoExceptions, Bad: r.Bad, Good: r.Good}
			for _, x := range r.Exceptions {
				j.Exceptions = append(j.Exceptions, jsonException(x))
			}
			out = append(out, j)
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			return exitUsage
		}
		return exitOK
	}
	if fs.NArg() > 0 {
		// As staticcheck -explain: everything about each rule named.
		for i, r := range picked {
			if i > 0 {
				fmt.Fprintln(e.stdout)
			}
			fmt.Fprintf(e.stdout, "%s (%s, %s)\n\n%s\n\n", r.ID, r.Severity, r.Spec, r.Summary)
			if r.Deprecated {
				fmt.Fprintf(e.stdout, "Deprecated")
				if len(r.ReplacedBy) > 0 {
					fmt.Fprintf(e.stdout, "; replaced by %s", strings.Join(r.ReplacedBy, ", "))
				}
				fmt.Fprint(e.stdout, ".\n\n")
			}
			if r.Quote != "" {
				fmt.Fprintf(e.stdout, "The spec says (%s): \"%s\"\n\n", r.Spec, r.Quote)
			}
			fmt.Fprintf(e.stdout, "%s\n", r.Doc)
			if r.Scope != "" {
				fmt.Fprintf(e.stdout, "\nScope: %s\n", r.Scope)
			}
			for i, x := range r.Exceptions {
				if i == 0 {
					fmt.Fprint(e.stdout, "\nWhere the spec allows it:\n")
				}
				fmt.Fprintf(e.stdout, "    %s: %q (fixture %s)\n", x.Spec, x.Quote, x.Fixture)
			}
			if r.NoExceptions != "" {
				fmt.Fprintf(e.stdout, "\nNo sentence narrows it: %s\n", r.NoExceptions)
			}
			if r.Bad != "" {
				fmt.Fprintf(e.stdout, "\nBad:\n    %s\n", strings.TrimSpace(r.Bad))
			}
			if r.Good != "" {
				fmt.Fprintf(e.stdout, "\nGood:\n    %s\n", strings.TrimSpace(r.Good))
			}
			if r.Family != "" {
				fmt.Fprintf(e.stdout, "\nReference: docs/rules.md#%s\n", r.ID)
			}
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 0, 2, ' ', 0)
	for i, s := range ruledoc.Sections() {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		fmt.Fprintf(tw, "# %s\n", s.Title)
		for _, r := range s.Rules {
			sum := r.Summary
			if r.Deprecated {
				sum = "(deprecated) " + sum
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, r.Spec, sum)
		}
	}
	if err := tw.Flush(); err != nil {
		return exitUsage
	}
	return exitOK
}

// ruleList is every rule of the table, lint and diff, in the table's
// order.
func ruleList() []*lint.Rule {
	var out []*lint.Rule
	for _, s := range ruledoc.Sections() {
		out = append(out, s.Rules...)
	}
	return out
}

// runHelp prints the usage of a command: pilotage-lint help [COMMAND].
func runHelp(args []string, e *env) int {
	if len(args) > 1 {
		fmt.Fprintf(e.stderr, "pilotage-lint help: give at most one command\nusage: pilotage-lint help [COMMAND]\n")
		return exitUsage
	}
	name := ""
	if len(args) == 1 {
		name = args[0]
	}
	for _, c := range commands() {
		if c.name == name && name != "help" {
			// Every command prints its usage, to stderr, for --help; help
			// asked for it, so it goes to stdout.
			sub := *e
			sub.stderr = e.stdout
			return c.run([]string{"--help"}, &sub)
		}
	}
	var names []string
	for _, c := range commands() {
		if c.name != "" {
			names = append(names, c.name)
		}
	}
	fmt.Fprintf(e.stderr, "pilotage-lint help: unknown command %q; the commands are %s\nusage: pilotage-lint help [COMMAND]\n", name, strings.Join(names, ", "))
	return exitUsage
}
