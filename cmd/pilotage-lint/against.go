package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
)

// git runs the git command line the user already has in dir and returns
// its standard output; the error carries git's own message. Revisions are
// read through git, never by parsing its objects, so every ref syntax,
// packfile, worktree and partial clone git understands works here too.
func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := strings.TrimSpace(stderr.String())
			if msg == "" {
				msg = err.Error()
			}
			return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
		}
		return nil, fmt.Errorf("git: %w (diff --against reads revisions with the git command line)", err)
	}
	return out, nil
}

// revTree is one git revision seen from the working directory: what diff
// --against compares the snapshots on disk with.
type revTree struct {
	rev    string // as the user wrote it, to name old files "REV:path"
	commit string
	top    string // the work tree's top folder, symlinks resolved
	cwd    string // the working directory, symlinks resolved
}

func openRev(rev string) (*revTree, error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if wd, err = filepath.EvalSymlinks(wd); err != nil {
		return nil, err
	}
	out, err := git(wd, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("--against needs a git work tree: %w", err)
	}
	top, err := filepath.EvalSymlinks(strings.TrimSpace(string(out)))
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(rev, "-") {
		return nil, fmt.Errorf("--against %q: a revision cannot start with -", rev)
	}
	out, err = git(wd, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("--against %q: no such commit in this repository (a shallow clone may lack it: fetch it, or check out with fetch-depth 0)", rev)
	}
	return &revTree{rev: rev, commit: strings.TrimSpace(string(out)), top: top, cwd: wd}, nil
}

// repoPath names a path (relative to the working directory or absolute)
// relative to the top of the work tree, with forward slashes.
func (t *revTree) repoPath(p string) (string, error) {
	abs := p
	if !filepath.IsAbs(p) {
		abs = filepath.Join(t.cwd, p)
	}
	// Resolve links in the folders, as git does; the file itself may not
	// exist any more.
	if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		abs = filepath.Join(d, filepath.Base(abs))
	}
	rel, err := filepath.Rel(t.top, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the git work tree %s", p, t.top)
	}
	return filepath.ToSlash(rel), nil
}

// localPath names a repository path as the working directory sees it, the
// way the walk names files, so findings of deleted files read like the rest.
func (t *revTree) localPath(repoPath string) string {
	rel, err := filepath.Rel(t.cwd, filepath.Join(t.top, filepath.FromSlash(repoPath)))
	if err != nil {
		return repoPath
	}
	return filepath.ToSlash(rel)
}

// files lists the blobs of the revision under the repository paths.
func (t *revTree) files(pathspecs []string) ([]string, error) {
	out, err := git(t.top, append([]string{"ls-tree", "-r", "-z", "--name-only", "--full-tree", t.commit, "--"}, pathspecs...)...)
	if err != nil {
		return nil, err
	}
	return splitZ(out), nil
}

// renames maps each path under the pathspecs that git's rename detection
// pairs with a path of the revision (new to old), comparing the revision
// with the work tree as git diff does.
func (t *revTree) renames(pathspecs []string) (map[string]string, error) {
	out, err := git(t.top, append([]string{"diff", "-z", "--name-status", "-M", "--no-ext-diff", "--no-color", t.commit, "--"}, pathspecs...)...)
	if err != nil {
		return nil, err
	}
	m := map[string]string{}
	f := splitZ(out)
	for i := 0; i < len(f); i++ {
		if strings.HasPrefix(f[i], "R") && i+2 < len(f) {
			m[f[i+2]] = f[i+1]
			i += 2
			continue
		}
		if strings.HasPrefix(f[i], "C") && i+2 < len(f) {
			i += 2
			continue
		}
		i++ // status, then one path
	}
	return m, nil
}

// read returns the content of a path at the revision, named "REV:path".
func (t *revTree) read(repoPath string) (*lint.Input, error) {
	out, err := git(t.top, "cat-file", "blob", t.commit+":"+repoPath)
	if err != nil {
		return nil, err
	}
	return &lint.Input{Name: t.rev + ":" + repoPath, Data: out, Explicit: true}, nil
}

func splitZ(b []byte) []string {
	var out []string
	for _, s := range strings.Split(string(b), "\x00") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// againstRun is the outcome of comparing a tree of snapshots with a
// revision: the merged findings and what was compared.
type againstRun struct {
	res      *lint.Result
	compared int
	errs     []error
}

// compareAgainst pairs every snapshot the walk of paths finds (with the
// same excludes as lint) with the same path at the revision, or the path
// git's rename detection says it came from; a snapshot the revision lacks
// is all additions, and a snapshot of the revision under paths that the
// work tree lacks is compared with nothing.
func compareAgainst(t *revTree, paths []string, exclude []string, maxBytes int64, opt *diff.Options) *againstRun {
	run := &againstRun{res: &lint.Result{}}
	fail := func(err error) { run.errs = append(run.errs, err) }
	var specs []string
	for _, p := range paths {
		rp, err := t.repoPath(p)
		if err != nil {
			fail(err)
			continue
		}
		specs = append(specs, rp)
	}
	if len(run.errs) > 0 {
		return run
	}
	ins, errs := inputs.Collect(paths, inputs.Options{MaxBytes: maxBytes, Exclude: exclude})
	run.errs = append(run.errs, errs...)
	old := map[string]bool{}
	files, err := t.files(specs)
	if err != nil {
		fail(err)
		return run
	}
	for _, f := range files {
		for i, p := range paths {
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() || specs[i] == f {
				if specs[i] == f {
					old[f] = true
				}
				continue
			}
			// A folder: take the revision's files the walk would take,
			// named as the walk would name them.
			rest, ok := strings.CutPrefix(f, specs[i]+"/")
			if specs[i] == "." {
				rest, ok = f, true
			}
			if ok && inputs.Walked(p, filepath.Join(p, filepath.FromSlash(rest)), exclude) {
				old[f] = true
			}
		}
	}
	renamed, err := t.renames(specs)
	if err != nil {
		fail(err)
		return run
	}
	used := map[string]bool{}
	add := func(res *lint.Result) {
		run.compared++
		run.res.Files = append(run.res.Files, res.Files...)
		run.res.Findings = append(run.res.Findings, res.Findings...)
	}
	for i := range ins {
		in := &ins[i]
		rp, err := t.repoPath(in.Name)
		if err != nil {
			fail(err)
			continue
		}
		from := ""
		if o, ok := renamed[rp]; ok {
			from = o
		} else if old[rp] {
			from = rp
		}
		var was *lint.Input
		if from != "" {
			used[from] = true
			if was, err = t.read(from); err != nil {
				fail(err)
				continue
			}
		}
		res, err := diff.Compare(was, in, opt)
		if errors.Is(err, diff.ErrNothingToCompare) && !in.Explicit {
			// Some other JSON met in the walk, as lint skips it; unless it
			// was a snapshot at the revision, which is now unreadable.
			if was == nil {
				continue
			}
			if _, werr := diff.Compare(was, nil, opt); werr != nil {
				continue
			}
		}
		if err != nil {
			fail(err)
			continue
		}
		add(res)
	}
	have := map[string]bool{}
	for i := range ins {
		if rp, err := t.repoPath(ins[i].Name); err == nil {
			have[rp] = true
		}
	}
	var gone []string
	for f := range old {
		if used[f] || have[f] {
			continue
		}
		if _, err := os.Lstat(filepath.Join(t.top, filepath.FromSlash(f))); err == nil {
			continue // on disk but not read: the walk or Collect said why
		}
		gone = append(gone, f)
	}
	sort.Strings(gone)
	for _, f := range gone {
		was, err := t.read(f)
		if err != nil {
			fail(err)
			continue
		}
		res, err := diff.Compare(was, nil, opt)
		if errors.Is(err, diff.ErrNothingToCompare) {
			continue
		}
		if err != nil {
			fail(err)
			continue
		}
		// A deleted file has no lines left to annotate: its findings name
		// the path it had, at the lines it had.
		local := t.localPath(f)
		for i := range res.Findings {
			fd := &res.Findings[i]
			fd.Related = append([]lint.Related{{File: fd.File, Line: fd.Line, Column: fd.Column, EndLine: fd.EndLine, EndColumn: fd.EndColumn, Pointer: fd.Pointer,
				Message: "the old location; the file was deleted since " + t.rev}}, fd.Related...)
			fd.File = local
		}
		for i := range res.Files {
			res.Files[i].Path = local
		}
		if len(opt.Ignores) > 0 {
			kept := res.Findings[:0]
			for _, fd := range res.Findings {
				if !lint.Ignored(opt.Ignores, &fd) {
					kept = append(kept, fd)
				}
			}
			res.Findings = kept
		}
		add(res)
	}
	run.res.Findings = lint.Dedupe(run.res.Findings)
	return run
}
