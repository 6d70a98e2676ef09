// Package baseline lets a server adopt pilotage-lint without fixing every
// existing finding first: a baseline file records today's findings, and
// later runs suppress those and report only new ones.
//
// A finding matches a recorded one by rule, file and JSON Pointer. Lines
// and columns are ignored, so reformatting a file or adding a tool above
// an old defect does not resurrect it; messages are ignored too, so a new
// pilotage-lint release that rewords a message keeps the baseline valid.
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

// Version is the baseline file format's version.
const Version = 1

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
		b.Findings = append(b.Findings, Entry{Rule: f.Rule, File: b.rel(f.File), Pointer: f.Pointer, Message: f.Message})
	}
	slices.SortStableFunc(b.Findings, func(x, y Entry) int {
		return cmp.Or(strings.Compare(x.File, y.File), strings.Compare(x.Rule, y.Rule),
			strings.Compare(x.Pointer, y.Pointer), strings.Compare(x.Message, y.Message))
	})
	return b
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

// Save writes the baseline to path.
func (b *Baseline) Save(path string) error {
	data, err := b.Marshal()
	if err != nil {
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
	if b.Version != Version {
		return nil, fmt.Errorf("baseline %s: version %d is not %d; regenerate it with --write-baseline", path, b.Version, Version)
	}
	b.dir = filepath.Dir(path)
	return &b, nil
}

// Filter returns the findings the baseline does not cover, how many it
// suppressed, and the recorded entries that matched nothing (fixed
// defects, which a rewrite of the baseline would drop).
func (b *Baseline) Filter(findings []lint.Finding) (kept []lint.Finding, suppressed int, stale []Entry) {
	left := map[key]int{}
	for _, e := range b.Findings {
		left[key{e.Rule, e.File, e.Pointer}]++
	}
	for _, f := range findings {
		k := key{f.Rule, b.rel(f.File), f.Pointer}
		if left[k] > 0 {
			left[k]--
			suppressed++
			continue
		}
		kept = append(kept, f)
	}
	for _, e := range b.Findings {
		k := key{e.Rule, e.File, e.Pointer}
		if left[k] > 0 {
			left[k]--
			stale = append(stale, e)
		}
	}
	return kept, suppressed, stale
}

// rel names a finding's file relative to the baseline's folder, with
// forward slashes. Names that are not paths in that tree (standard input,
// files outside it) are kept as they are, cleaned.
func (b *Baseline) rel(file string) string {
	if dir, err := filepath.Abs(b.dir); err == nil {
		if af, err := filepath.Abs(file); err == nil {
			if r, err := filepath.Rel(dir, af); err == nil && r != ".." && !filepath.IsAbs(r) && !startsDotDot(r) {
				return filepath.ToSlash(r)
			}
		}
	}
	return filepath.ToSlash(filepath.Clean(file))
}

func startsDotDot(r string) bool {
	return len(r) >= 3 && r[:2] == ".." && os.IsPathSeparator(r[2])
}
