package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/spf13/pflag"
)

// runDiff reports the changes from OLD to NEW that break clients relying
// on OLD. It takes lint's selection flags, config file, output flags and
// exit codes: 0 when nothing reaches --fail-on, 1 when something does, 2
// for usage errors and unreadable or unusable inputs.
func runDiff(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint diff", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	var out outputFlags
	var sf selectionFlags
	addOutputFlags(fs, &out)
	sf.add(fs)
	inputKind := fs.String("input-kind", "", "force the kind of both inputs: "+kindList())
	against := fs.String("against", "", "compare every snapshot under PATH... with the same path at this git revision (branch, tag or commit), or REV:path with one file")
	stdinName := fs.String("stdin-filename", "<stdin>", "name of standard input (-) in reports")
	exclude := fs.StringArray("exclude", nil, "with --against, skip files and folders matching this glob in directory walks (** spans folders; repeatable)")
	allowEmpty := fs.Bool("allow-empty", false, "with --against, exit 0 when the paths hold no snapshot at all instead of failing")
	maxBytes := fs.Int64("max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	listRules := fs.Bool("rules", false, "list the diff rules and exit")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint diff [flags] OLD NEW\n       pilotage-lint diff [flags] --against REV PATH...\n       pilotage-lint diff [flags] --against REV:FILE [NEW]\n\nReports the changes from OLD to NEW (snapshots, manifests, tools/list results or\ncaptures) that break agents or Hosts relying on OLD. - reads one of them from\nstandard input. With --against, every snapshot under PATH... (walked as lint\nwalks) is compared with the same path at the git revision REV: a renamed one\nwith its old path (git's rename detection), a new one as all additions, one\ndeleted since REV as all removals. Reads the same config file as lint; its\nignore entries apply.\n\nflags:\n%s", fs.FlagUsages())
	}
	if code, ok := parseArgs(e, fs, args); !ok {
		return code
	}
	if *listRules {
		for _, r := range diff.Rules() {
			fmt.Fprintf(e.stdout, "%-34s %-7s %-22s %s\n", r.ID, r.Severity, r.Spec, r.Summary)
		}
		return exitOK
	}
	if _, err := out.targets(); err != nil {
		return usageError(e, fs, err)
	}
	if err := inputs.CheckExclude(*exclude); err != nil {
		return usageError(e, fs, err)
	}
	kind := snapshot.Kind(*inputKind)
	if kind != "" && !knownKind(kind) {
		return usageError(e, fs, fmt.Errorf("unknown --input-kind %q: use one of %s", kind, kindList()))
	}
	if *against != "" {
		return runDiffAgainst(e, fs, &out, &sf, *against, kind, *stdinName, *exclude, *maxBytes, *allowEmpty)
	}
	if fs.NArg() != 2 {
		return usageError(e, fs, fmt.Errorf("give exactly two inputs, OLD and NEW (got %d), or --against REV and paths", fs.NArg()))
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		return usageError(e, fs, errors.New("only one of OLD and NEW can be - (standard input)"))
	}
	sel, err := sf.resolve(rules.CommandDiff)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	// Each path must be one file: a directory would make OLD and NEW
	// ambiguous.
	var ins [2]lint.Input
	for i, p := range fs.Args() {
		got, errs := inputs.Collect([]string{p}, inputs.Options{MaxBytes: *maxBytes, StdinName: *stdinName, Stdin: e.stdin})
		for _, err := range errs {
			fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		}
		if len(errs) > 0 {
			return exitUsage
		}
		if len(got) != 1 {
			fmt.Fprintf(e.stderr, "pilotage-lint diff: %s: want one file, found %d inputs\n", p, len(got))
			return exitUsage
		}
		ins[i] = got[0]
	}
	res, err := diff.Compare(&ins[0], &ins[1], &diff.Options{Rules: sel.rules, InputKind: kind})
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	hits := make([]int, len(sel.cfg.Ignore))
	res.Findings = suppress(res.Findings, sel.cfg.Ignore, hits)
	warnUnmatched(e, "pilotage-lint diff", sel, hits, res.Files)
	return finish(e, "pilotage-lint diff", &out, &report.Run{Tool: tool(), Result: res, Rules: sel.rules}, sel.failOn, false)
}

// runDiffAgainst is diff --against REV: every snapshot under the paths
// against the revision, or with REV:FILE one file against a given NEW.
func runDiffAgainst(e *env, fs *pflag.FlagSet, out *outputFlags, sf *selectionFlags, against string, kind snapshot.Kind, stdinName string, exclude []string, maxBytes int64, allowEmpty bool) int {
	const name = "pilotage-lint diff"
	rev, file, oneFile := strings.Cut(against, ":")
	if oneFile && fs.NArg() > 1 {
		return usageError(e, fs, fmt.Errorf("--against %s names one file; give at most one NEW input (got %d)", against, fs.NArg()))
	}
	if !oneFile && fs.NArg() == 0 {
		return usageError(e, fs, errors.New("give the paths to compare with --against, such as snapshots/ (or . for the whole work tree)"))
	}
	sel, err := sf.resolve(rules.CommandDiff)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	t, err := openRev(rev)
	if err != nil {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		return exitUsage
	}
	defer t.close()
	// The ignore entries are applied here, counting what each covers.
	opt := &diff.Options{Rules: sel.rules, InputKind: kind}
	hits := make([]int, len(sel.cfg.Ignore))
	if oneFile {
		// As in git show, REV:path is relative to the top of the work tree
		// and REV:./path to the working directory.
		rp := strings.TrimPrefix(file, "/")
		if strings.HasPrefix(file, "./") || strings.HasPrefix(file, "../") {
			if rp, err = t.repoPath(file); err != nil {
				fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
				return exitUsage
			}
		}
		was, err := t.read(rp)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %s: %v\n", name, against, err)
			return exitUsage
		}
		newPath := t.localPath(rp)
		if fs.NArg() == 1 {
			newPath = fs.Arg(0)
		}
		got, errs := inputs.Collect([]string{newPath}, inputs.Options{MaxBytes: maxBytes, StdinName: stdinName, Stdin: e.stdin})
		for _, err := range errs {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
		}
		if len(errs) > 0 || len(got) != 1 {
			return exitUsage
		}
		res, err := diff.Compare(was, &got[0], opt)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
			return exitUsage
		}
		res.Findings = suppress(res.Findings, sel.cfg.Ignore, hits)
		warnUnmatched(e, name, sel, hits, res.Files)
		return finish(e, name, out, &report.Run{Tool: tool(), Result: res, Rules: sel.rules}, sel.failOn, false)
	}
	run := compareAgainst(t, fs.Args(), exclude, maxBytes, opt)
	for _, err := range run.errs {
		fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
	}
	run.res.Findings = suppress(run.res.Findings, sel.cfg.Ignore, hits)
	if len(run.errs) == 0 {
		warnUnmatched(e, name, sel, hits, run.res.Files)
	}
	if run.compared == 0 && len(run.errs) == 0 && !allowEmpty {
		fmt.Fprintf(e.stderr, "%s: no snapshots were targeted: %s %s at %s and in the work tree; check the paths and --exclude, or pass --allow-empty\n", name, lint.Plural(len(fs.Args()), "path"), strings.Join(fs.Args(), " "), rev)
		return exitUsage
	}
	return finish(e, name, out, &report.Run{Tool: tool(), Result: run.res, Rules: sel.rules}, sel.failOn, len(run.errs) > 0)
}

func knownKind(k snapshot.Kind) bool {
	for _, x := range snapshot.Kinds {
		if x == k {
			return true
		}
	}
	return false
}
