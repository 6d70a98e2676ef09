package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/baseline"
)

// ignoreHits sums, per ignore entry, the findings each input's entries
// suppressed.
func ignoreHits(n int, files []lint.FileInfo) []int {
	hits := make([]int, n)
	for _, fi := range files {
		for i, h := range fi.IgnoreHits {
			if i < n {
				hits[i] += h
			}
		}
	}
	return hits
}

// suppress drops the findings the ignore entries cover, counting in hits
// what each entry covered: diff's findings are filtered here rather than
// in lint/diff so that an entry that covers nothing can be named.
func suppress(fs []lint.Finding, ignores []lint.Ignore, hits []int) []lint.Finding {
	if len(ignores) == 0 {
		return fs
	}
	kept := fs[:0]
	for _, f := range fs {
		if !lint.Suppress(ignores, &f, hits) {
			kept = append(kept, f)
		}
	}
	return kept
}

// warnUnmatched names, on standard error, each ignore entry of the config
// file that suppressed nothing although this run could have used it: a
// mistyped pointer or path, or an entry for a defect since fixed, would
// otherwise sit in the file unnoticed, and a copied example that matches
// nothing would look like a fix. An entry for a rule this command does not
// run (a diff rule, in lint) is left alone, and so is one whose path
// names existing files this run did not lint (a pre-commit hook lints the
// staged files only). It warns; it never fails the run.
func warnUnmatched(e *env, name string, sel *selection, hits []int, files []lint.FileInfo) {
	if sel.cfg == nil || len(sel.cfg.Ignore) == 0 {
		return
	}
	runs := map[string]bool{}
	for _, r := range sel.rules {
		runs[r.ID] = true
	}
	for i, ig := range sel.cfg.Ignore {
		if i < len(hits) && hits[i] > 0 || ig.Rule != "" && ig.Rule != "*" && !runs[ig.Rule] {
			continue
		}
		covered := 0
		for _, fi := range files {
			if lint.PathMatches(ig, fi.Path) {
				covered++
			}
		}
		why := fmt.Sprintf("matched no finding in the %d linted %s it covers", covered, lint.Plural(covered, "file"))
		if covered == 0 {
			if onDisk(ig) {
				continue
			}
			base, _ := lint.RelTo("", ig.Base)
			why = fmt.Sprintf("its path %q matches no file under %s", ig.Path, base)
		}
		hint := "; fix or remove it"
		if ig.Pointer != "" && covered > 0 {
			hint = "; check its pointer against the finding's (--format json shows it; a manifest's values are under " + lint.ManifestRoot + " in every input kind), or remove it"
		}
		cfg, _ := lint.RelTo("", sel.cfgPath)
		fmt.Fprintf(e.stderr, "%s: warning: %s: ignore entry %d (%s) %s%s\n", name, cfg, i+1, describe(ig), why, hint)
	}
}

// describe names an entry by its members.
func describe(ig lint.Ignore) string {
	var parts []string
	if ig.Rule != "" {
		parts = append(parts, "rule "+ig.Rule)
	}
	if ig.Path != "" {
		parts = append(parts, "path "+ig.Path)
	}
	if ig.Pointer != "" {
		parts = append(parts, "pointer "+ig.Pointer)
	}
	return strings.Join(parts, ", ")
}

// onDisk reports whether an entry's path names at least one file or
// folder under its base.
func onDisk(ig lint.Ignore) bool {
	base := ig.Base
	if base == "" {
		base = "."
	}
	pattern := strings.TrimSuffix(filepath.ToSlash(ig.Path), "/")
	if _, err := os.Stat(filepath.Join(base, filepath.FromSlash(pattern))); err == nil {
		return true
	}
	err := doublestar.GlobWalk(os.DirFS(base), pattern, func(string, fs.DirEntry) error { return errFound })
	return err == errFound
}

var errFound = errors.New("found")

// staleEntries names the baseline entries no finding matched, a few at
// most, under the summary line.
func staleEntries(stale []baseline.Entry) string {
	const most = 20
	var b strings.Builder
	for i, s := range stale {
		if i == most {
			fmt.Fprintf(&b, "  and %d more\n", len(stale)-most)
			break
		}
		fmt.Fprintf(&b, "  %s %s %s\n", s.Rule, s.File, s.Pointer)
	}
	return b.String()
}
