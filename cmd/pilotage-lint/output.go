package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/spf13/pflag"
)

// outputFlags choose where and how a command prints a lint result. Every
// command that reports findings (lint, diff) registers them with
// addOutputFlags and prints with writeReports, so all formats and
// --output files behave the same everywhere.
type outputFlags struct {
	formats []string
	outputs []string
	baseDir string
	quiet   bool
}

func addOutputFlags(fs *pflag.FlagSet, o *outputFlags) {
	fs.StringSliceVar(&o.formats, "format", []string{"text"}, "format on standard output: "+strings.Join(report.Formats, ", ")+"; repeat to combine text and github")
	fs.StringArrayVar(&o.outputs, "output", nil, "also write a format to a file, as FORMAT=FILE (repeatable), e.g. --output sarif=pilotage.sarif")
	fs.StringVar(&o.baseDir, "base-dir", "", "make file paths in sarif and github output relative to this directory (default: the working directory)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print findings only, no summary")
}

// reportTarget is one rendering: a format to standard output (file "")
// or to a file.
type reportTarget struct {
	format, file string
}

// targets checks the output flags before any linting, so a typo fails at
// once rather than after a long run.
func (o *outputFlags) targets() ([]reportTarget, error) {
	var ts []reportTarget
	stdout := map[string]bool{}
	for _, f := range o.formats {
		if !report.KnownFormat(f) {
			return nil, fmt.Errorf("unknown --format %q: use %s", f, strings.Join(report.Formats, ", "))
		}
		if stdout[f] {
			return nil, fmt.Errorf("--format %s given twice", f)
		}
		stdout[f] = true
		// Two documents on one stream parse as neither; text and github
		// lines mix fine, as a GitHub Actions log wants.
		if f == "json" || f == "sarif" || f == "junit" || f == "html" {
			if len(o.formats) > 1 {
				return nil, fmt.Errorf("--format %s is a whole document and cannot share standard output with %s; write it with --output %s=FILE", f, strings.Join(without(o.formats, f), ", "), f)
			}
		}
		ts = append(ts, reportTarget{format: f})
	}
	seen := map[string]bool{}
	for _, kv := range o.outputs {
		format, file, ok := strings.Cut(kv, "=")
		if !ok || file == "" {
			return nil, fmt.Errorf("--output %q: want FORMAT=FILE, such as sarif=pilotage.sarif", kv)
		}
		if !report.KnownFormat(format) {
			return nil, fmt.Errorf("--output %q: unknown format %q: use %s", kv, format, strings.Join(report.Formats, ", "))
		}
		if seen[file] {
			return nil, fmt.Errorf("--output: %s named twice", file)
		}
		seen[file] = true
		ts = append(ts, reportTarget{format: format, file: file})
	}
	return ts, nil
}

func without(list []string, drop string) []string {
	var out []string
	for _, s := range list {
		if s != drop {
			out = append(out, s)
		}
	}
	return out
}

// writeReports renders r to standard output and to every --output file.
// Each file is rendered in memory first, so a failed rendering never
// leaves half a report behind. Colour goes only to a terminal.
func writeReports(e *env, o *outputFlags, r *report.Run) error {
	ts, err := o.targets()
	if err != nil {
		return err
	}
	if r.BaseDir == "" {
		r.BaseDir = o.baseDir
	}
	if r.BaseDir == "" {
		r.BaseDir = "."
	}
	for _, t := range ts {
		var buf bytes.Buffer
		opt := report.TextOptions{Quiet: o.quiet}
		if t.file == "" {
			opt.Color = colorOK(e.stdout)
		}
		if err := report.Write(&buf, t.format, r, opt); err != nil {
			return err
		}
		if t.file == "" {
			if _, err := e.stdout.Write(buf.Bytes()); err != nil {
				return err
			}
			continue
		}
		if dir := filepath.Dir(t.file); dir != "." {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("--output %s=%s: %w", t.format, t.file, err)
			}
		}
		if err := os.WriteFile(t.file, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("--output %s=%s: %w", t.format, t.file, err)
		}
	}
	return nil
}
