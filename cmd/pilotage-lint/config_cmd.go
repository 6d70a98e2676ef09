package main

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/config"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/spf13/pflag"
)

// selectionFlags are the rule-selection flags every command that runs
// rules takes, lint and diff alike, and the config file they merge with.
type selectionFlags struct {
	enable, disable, severity []string
	failOn, configPath        string
	noConfig                  bool
}

func (s *selectionFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&s.failOn, "fail-on", "", "lowest severity that fails the run: error, warning or info (default error)")
	fs.StringSliceVar(&s.enable, "enable", nil, "run only these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&s.disable, "disable", nil, "turn off these rule IDs (comma-separated, repeatable)")
	fs.StringSliceVar(&s.severity, "severity", nil, "override a rule's severity, as ID=error|warning|info (repeatable)")
	fs.StringVar(&s.configPath, "config", "", "config file (default: .pilotage-lint.yaml, .yml or .json found upward from the working directory, up to the repository root)")
	fs.BoolVar(&s.noConfig, "no-config", false, "do not look for a config file")
}

// selection is the outcome of the config file and the selection flags for
// one command.
type selection struct {
	cfg     *config.Config
	cfgPath string
	// rules are the command's enabled rules with effective severities;
	// of is every rule the command can run.
	rules, of []*lint.Rule
	failOn    lint.Severity
	// deprecated are IDs the user named whose rules no longer do anything.
	deprecated []string
}

// resolve loads the config file and merges the flags into it (flags win).
// Every ID is checked against the whole rule table, so one config file
// serves lint and diff: a diff rule's severity there does not break lint.
// An enable list applies to the command whose rules it names.
func (s *selectionFlags) resolve(cmd rules.Command) (*selection, error) {
	cfg, path, err := loadConfig(s.configPath, s.noConfig)
	if err != nil {
		return nil, err
	}
	sel, err := cfg.Selection()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	sel.Enable = append(append([]string(nil), sel.Enable...), s.enable...)
	sel.Disable = append(append([]string(nil), sel.Disable...), s.disable...)
	for _, kv := range s.severity {
		id, lvl, ok := strings.Cut(kv, "=")
		if !ok {
			return nil, fmt.Errorf("--severity %q: want ID=error|warning|info", kv)
		}
		sv, err := lint.ParseSeverity(lvl)
		if err != nil {
			return nil, fmt.Errorf("--severity %s: %w", id, err)
		}
		sel.Severity[id] = sv
	}
	if _, err := lint.Select(rules.All(), sel); err != nil {
		if path != "" {
			err = fmt.Errorf("%w (flags, or config %s)", err, path)
		}
		return nil, err
	}
	out := &selection{cfg: cfg, cfgPath: path, of: commandRules(cmd), failOn: lint.Error}
	mine := map[string]bool{}
	for _, r := range out.of {
		mine[r.ID] = true
	}
	keep := func(ids []string) []string {
		var k []string
		for _, id := range ids {
			if mine[id] {
				k = append(k, id)
			} else if r := rules.ByID(id); r != nil && r.Deprecated && r.Check == nil && !slices.Contains(out.deprecated, id) {
				out.deprecated = append(out.deprecated, id)
			}
		}
		return k
	}
	own := lint.Selection{Enable: keep(sel.Enable), Disable: keep(sel.Disable), Severity: map[string]lint.Severity{}}
	var sevIDs []string
	for id := range sel.Severity {
		sevIDs = append(sevIDs, id)
	}
	sort.Strings(sevIDs)
	for _, id := range keep(sevIDs) {
		own.Severity[id] = sel.Severity[id]
	}
	if out.rules, err = lint.Select(out.of, own); err != nil {
		return nil, err
	}
	level := cfg.FailOn
	if s.failOn != "" {
		level = s.failOn
	}
	if level != "" {
		if out.failOn, err = lint.ParseSeverity(level); err != nil {
			return nil, fmt.Errorf("--fail-on: %w", err)
		}
	}
	return out, nil
}

// commandRules are the rules a command runs: its families' rules and the
// engine's, less deprecated rules that no longer do anything.
func commandRules(cmd rules.Command) []*lint.Rule {
	var out []*lint.Rule
	for _, f := range rules.Families() {
		if f.Command != cmd && f.Name != "engine" {
			continue
		}
		for _, r := range f.Rules {
			if r.Deprecated && r.Check == nil {
				continue
			}
			// Of the engine's rules only internal-error reaches diff.
			if f.Command != cmd && cmd == rules.CommandDiff && r.ID != lint.InternalRule.ID {
				continue
			}
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

func loadConfig(path string, noConfig bool) (*config.Config, string, error) {
	if path == "" && !noConfig {
		if wd, err := os.Getwd(); err == nil {
			path = config.Find(wd)
		}
	}
	if path == "" {
		return &config.Config{}, "", nil
	}
	c, err := config.Load(path)
	return c, path, err
}

// printConfig prints the configuration a run would use, after the config
// file and the flags are merged, as a config file: saving it as
// .pilotage-lint.yaml reproduces the run without the flags. The comment
// counts the rules lint really runs.
func printConfig(e *env, f *selectionFlags, sel *selection) int {
	cfg := sel.cfg
	eff := config.Config{
		Enable:  append(append([]string(nil), cfg.Enable...), f.enable...),
		Disable: append(append([]string(nil), cfg.Disable...), f.disable...),
		FailOn:  sel.failOn.String(),
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
	if sel.cfgPath != "" {
		source = sel.cfgPath
	}
	var off []string
	on := map[string]bool{}
	for _, r := range sel.rules {
		on[r.ID] = true
	}
	for _, r := range sel.of {
		if !on[r.ID] {
			off = append(off, r.ID)
		}
	}
	sort.Strings(off)
	fmt.Fprintf(e.stdout, "# Effective pilotage-lint configuration.\n# From: %s, then command-line flags.\n# Rules that run: %d of %d", source, len(sel.rules), len(sel.of))
	// A long list says nothing the enable list does not.
	if len(off) > 0 && len(off) <= 12 {
		fmt.Fprintf(e.stdout, "; off: %s", strings.Join(off, ", "))
	}
	fmt.Fprint(e.stdout, ".\n")
	if len(sel.deprecated) > 0 {
		fmt.Fprintf(e.stdout, "# Deprecated, no effect: %s.\n", strings.Join(sel.deprecated, ", "))
	}
	fmt.Fprintf(e.stdout, "%s", out)
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
	if code, ok := parseArgs(e, fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return usageError(e, fs, errors.New("give at most one file name"))
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
