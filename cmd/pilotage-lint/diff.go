package main

import (
	"errors"
	"fmt"

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
	maxBytes := fs.Int64("max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	listRules := fs.Bool("rules", false, "list the diff rules and exit")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint diff [flags] OLD NEW\n\nReports the changes from OLD to NEW (snapshots, manifests, tools/list results or\ncaptures) that break agents or Hosts relying on OLD. - reads one of them from\nstandard input. Reads the same config file as lint.\n\nflags:\n%s", fs.FlagUsages())
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
	if fs.NArg() != 2 {
		return usageError(e, fs, fmt.Errorf("give exactly two inputs, OLD and NEW (got %d)", fs.NArg()))
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		return usageError(e, fs, errors.New("only one of OLD and NEW can be - (standard input)"))
	}
	if _, err := out.targets(); err != nil {
		return usageError(e, fs, err)
	}
	sel, err := sf.resolve(rules.CommandDiff)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	kind := snapshot.Kind(*inputKind)
	if kind != "" && !knownKind(kind) {
		return usageError(e, fs, fmt.Errorf("unknown --input-kind %q: use one of %s", kind, kindList()))
	}
	// Each path must be one file: a directory would make OLD and NEW
	// ambiguous.
	var ins [2]lint.Input
	for i, p := range fs.Args() {
		got, errs := inputs.Collect([]string{p}, inputs.Options{MaxBytes: *maxBytes, StdinName: "<stdin>", Stdin: e.stdin})
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
	return finish(e, "pilotage-lint diff", &out, &report.Run{Tool: tool(), Result: res, Rules: sel.rules}, sel.failOn, false)
}

func knownKind(k snapshot.Kind) bool {
	for _, x := range snapshot.Kinds {
		if x == k {
			return true
		}
	}
	return false
}
