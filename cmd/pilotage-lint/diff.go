package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/spf13/pflag"
)

func init() { subcommands["diff"] = runDiff }

// runDiff reports the changes from OLD to NEW that break clients relying
// on OLD. Exit codes are lint's: 0 when nothing reaches --fail-on, 1 when
// something does, 2 for usage errors and unreadable or unusable inputs.
func runDiff(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint diff", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	format := fs.String("format", "text", "output format: "+strings.Join(report.Formats, ", "))
	failOn := fs.String("fail-on", "error", "lowest severity that fails the run: error, warning or info")
	enable := fs.StringSlice("enable", nil, "run only these diff rule IDs (comma-separated, repeatable)")
	disable := fs.StringSlice("disable", nil, "turn off these diff rule IDs (comma-separated, repeatable)")
	severity := fs.StringSlice("severity", nil, "override a diff rule's severity, as ID=error|warning|info (repeatable)")
	quiet := fs.BoolP("quiet", "q", false, "print findings only, no summary")
	inputKind := fs.String("input-kind", "", "force the kind of both inputs: "+kindList())
	maxBytes := fs.Int64("max-bytes", inputs.DefaultMaxBytes, "refuse inputs larger than this many bytes")
	listRules := fs.Bool("rules", false, "list the diff rules and exit")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint diff [flags] OLD NEW\n\nReports the changes from OLD to NEW (snapshots, manifests, tools/list results or\ncaptures) that break agents or Hosts relying on OLD. - reads one of them from\nstandard input.\n\nflags:\n%s", fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *listRules {
		for _, r := range diff.Rules() {
			fmt.Fprintf(e.stdout, "%-34s %-7s %-22s %s\n", r.ID, r.Severity, r.Spec, r.Summary)
		}
		return exitOK
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(e.stderr, "pilotage-lint diff: give exactly two inputs, OLD and NEW (see --help)")
		return exitUsage
	}
	if fs.Arg(0) == "-" && fs.Arg(1) == "-" {
		fmt.Fprintln(e.stderr, "pilotage-lint diff: only one of OLD and NEW can be - (standard input)")
		return exitUsage
	}
	if !report.KnownFormat(*format) {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: unknown --format %q: use %s\n", *format, strings.Join(report.Formats, ", "))
		return exitUsage
	}
	fail, err := lint.ParseSeverity(*failOn)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: --fail-on: %v\n", err)
		return exitUsage
	}
	sel := lint.Selection{Enable: *enable, Disable: *disable, Severity: map[string]lint.Severity{}}
	for _, kv := range *severity {
		id, lvl, ok := strings.Cut(kv, "=")
		s, err := lint.ParseSeverity(lvl)
		if !ok || err != nil {
			fmt.Fprintf(e.stderr, "pilotage-lint diff: --severity %q: want ID=error|warning|info\n", kv)
			return exitUsage
		}
		sel.Severity[id] = s
	}
	rules, err := lint.Select(diff.Rules(), sel)
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	kind := snapshot.Kind(*inputKind)
	if kind != "" && !knownKind(kind) {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: unknown --input-kind %q: use one of %s\n", kind, kindList())
		return exitUsage
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
	res, err := diff.Compare(&ins[0], &ins[1], &diff.Options{Rules: rules, InputKind: kind})
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	run := &report.Run{Tool: tool(), Result: res, Rules: rules}
	if err := report.Write(e.stdout, *format, run, report.TextOptions{Quiet: *quiet, Color: colorOK(e.stdout)}); err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint diff: %v\n", err)
		return exitUsage
	}
	for _, f := range res.Findings {
		if f.Severity >= fail {
			return exitFindings
		}
	}
	return exitOK
}

func knownKind(k snapshot.Kind) bool {
	for _, x := range snapshot.Kinds {
		if x == k {
			return true
		}
	}
	return false
}
