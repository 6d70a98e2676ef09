// Package baseline lets a server adopt pilotage-lint without fixing every
// existing finding first: a baseline file records today's findings, and
// later runs suppress those and report only new ones.
//
// A finding matches a recorded one by rule, file and JSON Pointer in
// identity form (lint.KeyOf: /tools/tools/[name=run_flow]/inputSchema, not
// /tools/tools/3/inputSchema). Lines, columns and array indexes of named
// things are ignored, so reformatting a file, or inserting and reordering
// tools, does not resurrect an old defect; messages are ignored too, so a
// new pilotage-lint release that rewords a message keeps the baseline
// valid. Version 1 files, which recorded plain pointers, still load and
// match on the plain pointer.
// Matching counts: two recorded findings suppress at most two current ones
// with the same key, so a second copy of a known defect is still reported.
package baseline

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// Version is the baseline file format's version: 2 records pointers in
// identity form; 1 recorded them with array indexes.
const Version = 2

// Entry is one recorded finding. Message is for the people reviewing the
// file; matching does not use it.
type Entry struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Pointer string `json:"pointer"`
	Message string `json:"message"`
}

// Baseline is the file format.
type Baseline struct {
	Version  int     `json:"version"`
	Findings []Entry `json:"findings"`

	// dir is the baseline file's folder: recorded paths are relative to
	// it, so the baseline works from any working directory.
	dir string
}

type key struct{ rule, file, pointer string }

// New records findings for a baseline file to be written at path.
func New(path string, findings []lint.Finding) *Baseline {
	b := &Baseline{Version: Version, Findings: []Entry{}, dir: filepath.Dir(path)}
	for _, f := range findings {
		b.Findings = append(b.Findings, Entry{Rule: f.Rule, File: b.rel(f.File), Pointer: keyOf(&f), Message: f.Message})
	}
	sortEntries(b.Findings)
	return b
}

func sortEntries(es []Entry) {
	slices.SortStableFunc(es, func(x, y Entry) int {
		return cmp.Or(strings.Compare(x.File, y.File), strings.Compare(x.Rule, y.Rule),
			strings.Compare(x.Pointer, y.Pointer), strings.Compare(x.Message, y.Message))
	})
}

// Marshal renders the file: indented JSON in a stable order, so a
// regenerated baseline diffs cleanly in review.
func (b *Baseline) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Save writes the baseline to path, creating its folders.
func (b *Baseline) Save(path string) error {
	data, err := b.Marshal()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, data, 0o644)
}

// Load reads a baseline file.
func Load(path string) (*Baseline, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes a baseline file's contents; path places its relative paths.
func Parse(path string, data []byte) (*Baseline, error) {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		return nil, fmt.Errorf("baseline %s: %w", path, err)
	}
	if b.Version != Version && b.Version != 1 {
		return nil, fmt.Errorf("baseline %s: version %d is not %d; regenerate it with --write-baseline", path, b.Version, Version)
	}
	b.dir = filepath.Dir(path)
	return &b, nil
}

// Filter returns the findings the baseline does not cover, the ones it
// suppressed (each as it was, in order: the reports count them), and the
// recorded entries that matched nothing (fixed defects, which a rewrite
// of the baseline would drop). Only entries the
// run could have matched can be stale: those of the files it linted
// (named as in findings), and those of files that no longer exist. A run
// of a pre-commit hook lints the staged files only, and the entries of the
// other files are no news.
func (b *Baseline) Filter(findings []lint.Finding, linted []string) (kept, suppressed []lint.Finding, stale []Entry) {
	left := map[key]int{}
	for _, e := range b.Findings {
		left[key{e.Rule, e.File, e.Pointer}]++
	}
	for _, f := range findings {
		ptr := keyOf(&f)
		if b.Version == 1 {
			ptr = f.Pointer
		}
		k := key{f.Rule, b.rel(f.File), ptr}
		if left[k] > 0 {
			left[k]--
			suppressed = append(suppressed, f)
			continue
		}
		kept = append(kept, f)
	}
	in := b.inScope(linted)
	for _, e := range b.Findings {
		k := key{e.Rule, e.File, e.Pointer}
		if left[k] > 0 && in(e) {
			left[k]--
			stale = append(stale, e)
		}
	}
	return kept, suppressed, stale
}

// Merge returns b with the entries of old that the run could not have
// matched (see Filter: files it did not lint and that still exist) added
// back, so that --write-baseline on a run of some files keeps what was
// recorded for the others. old may be nil.
func (b *Baseline) Merge(old *Baseline, linted []string) *Baseline {
	if old == nil {
		return b
	}
	in := old.inScope(linted)
	out := &Baseline{Version: Version, Findings: append([]Entry(nil), b.Findings...), dir: b.dir}
	for _, e := range old.Findings {
		if in(e) {
			continue
		}
		// Re-anchor the path at the new file's folder.
		abs := filepath.Join(old.dir, filepath.FromSlash(e.File))
		if strings.HasPrefix(e.File, "<") {
			abs = e.File
		}
		e.File = out.rel(abs)
		out.Findings = append(out.Findings, e)
	}
	sortEntries(out.Findings)
	return out
}

// inScope says which entries a run of the linted files could have
// matched: those of a linted file, and those of a file that is gone. A
// nil linted means every entry.
func (b *Baseline) inScope(linted []string) func(Entry) bool {
	if linted == nil {
		return func(Entry) bool { return true }
	}
	set := map[string]bool{}
	for _, f := range linted {
		set[b.rel(f)] = true
	}
	return func(e Entry) bool {
		if set[e.File] || strings.HasPrefix(e.File, "<") {
			return true
		}
		_, err := os.Stat(filepath.Join(b.dir, filepath.FromSlash(e.File)))
		return err != nil
	}
}

// rel names a finding's file relative to the baseline's folder, with
// forward slashes, also when it lies outside that folder (../snaps/x.json),
// so the baseline matches from any working directory. Standard input
// ("<stdin>") is no path and is kept as it is.
func (b *Baseline) rel(file string) string {
	if strings.HasPrefix(file, "<") {
		return file
	}
	if dir, err := filepath.Abs(b.dir); err == nil {
		if af, err := filepath.Abs(file); err == nil {
			if r, err := filepath.Rel(dir, af); err == nil {
				return filepath.ToSlash(r)
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

// keyOf is the pointer a baseline records: the identity form when the
// engine computed one.
func keyOf(f *lint.Finding) string {
	if f.Key != "" {
		return f.Key
	}
	return f.Pointer
}
