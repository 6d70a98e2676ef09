package main

import (
	"errors"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/spf13/pflag"
)

func init() { subcommands["init"] = runInit }

// printConfig prints the configuration a run would use, after the config
// file and the flags are merged, as a config file: saving it as
// .pilotage-lint.yaml reproduces the run without the flags.
func printConfig(e *env, f *lintFlags, cfg *config.Config, path string, ran []*lint.Rule, failOn lint.Severity) int {
	eff := config.Config{
		Enable:  append(append([]string(nil), cfg.Enable...), f.enable...),
		Disable: append(append([]string(nil), cfg.Disable...), f.disable...),
		FailOn:  failOn.String(),
		Ignore:  cfg.Ignore,
	}
	if len(cfg.Severity) > 0 || len(f.severity) > 0 {
		eff.Severity = map[string]string{}
		for id, s := range cfg.Severity {
			eff.Severity[id] = strings.ToLower(s)
		}
		for _, kv := range f.severity {
			id, lvl, _ := strings.Cut(kv, "=")
			eff.Severity[id] = strings.ToLower(lvl)
		}
	}
	out, err := eff.YAML()
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint: %v\n", err)
		return exitUsage
	}
	source := "no config file (defaults)"
	if path != "" {
		source = path
	}
	var off []string
	on := map[string]bool{}
	for _, r := range ran {
		on[r.ID] = true
	}
	for _, r := range rules.All() {
		if !on[r.ID] {
			off = append(off, r.ID)
		}
	}
	sort.Strings(off)
	fmt.Fprintf(e.stdout, "# Effective pilotage-lint configuration.\n# From: %s, then command-line flags.\n# Rules that run: %d of %d", source, len(ran), len(rules.All()))
	// A long list says nothing the enable list does not.
	if len(off) > 0 && len(off) <= 12 {
		fmt.Fprintf(e.stdout, "; off: %s", strings.Join(off, ", "))
	}
	fmt.Fprintf(e.stdout, ".\n%s", out)
	return exitOK
}

// runInit writes the commented default configuration:
//
//	pilotage-lint init [--force] [FILE]
//
// FILE defaults to .pilotage-lint.yaml in the working directory. An
// existing file is kept unless --force is given.
func runInit(args []string, e *env) int {
	fs := pflag.NewFlagSet("pilotage-lint init", pflag.ContinueOnError)
	fs.SetOutput(e.stderr)
	force := fs.Bool("force", false, "overwrite an existing file")
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: pilotage-lint init [--force] [FILE]\n\nWrites a commented default configuration to FILE (default %s).\n\nflags:\n%s", config.Names[0], fs.FlagUsages())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(e.stderr, "pilotage-lint init: %v (see --help)\n", err)
		return exitUsage
	}
	if fs.NArg() > 1 {
		fmt.Fprintln(e.stderr, "pilotage-lint init: give at most one file name (see --help)")
		return exitUsage
	}
	path := config.Names[0]
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if strings.HasSuffix(path, ".json") {
		fmt.Fprintf(e.stderr, "pilotage-lint init: %s: init writes YAML, with comments; name the file .yaml or .yml\n", path)
		return exitUsage
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_EXCL
	if *force {
		flags = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	}
	fh, err := os.OpenFile(path, flags, 0o644)
	if errors.Is(err, os.ErrExist) {
		fmt.Fprintf(e.stderr, "pilotage-lint init: %s already exists; pass --force to overwrite it\n", path)
		return exitUsage
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint init: %v\n", err)
		return exitUsage
	}
	if _, err := fh.WriteString(config.Default); err != nil {
		fh.Close()
		fmt.Fprintf(e.stderr, "pilotage-lint init: %v\n", err)
		return exitUsage
	}
	if err := fh.Close(); err != nil {
		fmt.Fprintf(e.stderr, "pilotage-lint init: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(e.stdout, "wrote %s; see the effective configuration with pilotage-lint --print-config\n", path)
	return exitOK
}
