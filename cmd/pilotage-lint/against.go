package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/inputs"
	"github.com/pilotagekit/pilotagekit/lint/source"
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

	// The git processes started must not grow with the files compared:
	// listed keeps the entry of every file files listed, by its path from
	// the top, so that read needs no ls-tree of its own; entries keeps
	// each ls-tree answer of entry, so that locate asks once per folder;
	// cats read the blobs, one git cat-file --batch per repository.
	listed  map[string]treeEntry
	entries map[[3]string]string
	cats    map[string]*catFile
}

// treeEntry is a file of the revision: the repository that holds it (the
// top's or a submodule's folder), its mode and its object id.
type treeEntry struct{ repo, mode, object string }

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
	return &revTree{rev: rev, commit: strings.TrimSpace(string(out)), top: top, cwd: wd,
		listed: map[string]treeEntry{}, entries: map[[3]string]string{}, cats: map[string]*catFile{}}, nil
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

// files lists the files of the revision under the repository paths:
// blobs, symbolic links (read follows them), and the files of submodules
// at the commits the revision records for them. A submodule whose commit
// cannot be read fails closed: its snapshots would otherwise all look new.
func (t *revTree) files(pathspecs []string, skip func(dir string) bool) ([]string, error) {
	var out []string
	for _, spec := range pathspecs {
		at, err := t.locate(spec)
		if err != nil {
			return nil, err
		}
		if at == nil {
			continue // nothing there at the revision
		}
		got, err := t.list(at.repo, at.commit, at.prefix, at.rest, skip)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// list lists the files under rest ("" for all) of commit in the repository
// at folder repo, named from the top of the work tree (prefix is repo's
// path there), descending into submodules.
func (t *revTree) list(repo, commit, prefix, rest string, skip func(dir string) bool) ([]string, error) {
	args := []string{"ls-tree", "-r", "-z", "--full-tree", commit}
	if rest != "" {
		args = append(args, "--", rest)
	}
	raw, err := git(repo, args...)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range splitZ(raw) {
		mode, name, ok := treeLine(e)
		if !ok {
			continue
		}
		full := path.Join(prefix, name)
		if mode != modeSubmodule {
			out = append(out, full)
			t.listed[full] = treeEntry{repo: repo, mode: mode, object: objectOf(e)}
			continue
		}
		if skip != nil && skip(full) {
			continue
		}
		sub, err := t.submodule(full, objectOf(e))
		if err != nil {
			return nil, err
		}
		got, err := t.list(sub, objectOf(e), full, "", skip)
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

const (
	modeSubmodule = "160000"
	modeSymlink   = "120000"
)

// treeLine splits one entry of git ls-tree -z: "MODE TYPE OBJECT\tPATH".
func treeLine(e string) (mode, name string, ok bool) {
	meta, name, ok := strings.Cut(e, "\t")
	if !ok {
		return "", "", false
	}
	mode, _, _ = strings.Cut(meta, " ")
	return mode, name, true
}

func objectOf(e string) string {
	meta, _, _ := strings.Cut(e, "\t")
	f := strings.Fields(meta)
	if len(f) < 3 {
		return ""
	}
	return f[2]
}

// entry returns the ls-tree entry of exactly name in commit of repo, ""
// when the commit has no such path. A commit never changes, so each
// answer is kept.
func (t *revTree) entry(repo, commit, name string) (string, error) {
	k := [3]string{repo, commit, name}
	if e, ok := t.entries[k]; ok {
		return e, nil
	}
	raw, err := git(repo, "ls-tree", "-z", "--full-tree", commit, "--", name)
	if err != nil {
		return "", err
	}
	e := ""
	for _, l := range splitZ(raw) {
		if _, n, ok := treeLine(l); ok && n == name {
			e = l
			break
		}
	}
	t.entries[k] = e
	return e, nil
}

// located is where a path of the work tree lives at the revision: the
// repository holding it (the top's, or a submodule's at the commit the
// revision records), and the path inside that one.
type located struct {
	repo, commit string
	prefix       string // repo's path from the top of the work tree
	rest         string
}

// locate finds the repository that holds repoPath at the revision,
// descending into submodules folder by folder: a pathspec inside a
// submodule matches nothing in the superproject's tree. nil means the
// revision has nothing there.
func (t *revTree) locate(repoPath string) (*located, error) {
	at := &located{repo: t.top, commit: t.commit}
	if repoPath == "." || repoPath == "" {
		return at, nil
	}
	parts := strings.Split(repoPath, "/")
	for i := range parts {
		name := strings.Join(parts[:i+1], "/")
		rel := strings.TrimPrefix(strings.TrimPrefix(name, at.prefix), "/")
		e, err := t.entry(at.repo, at.commit, rel)
		if err != nil {
			return nil, err
		}
		if e == "" {
			return nil, nil
		}
		switch mode, _, _ := treeLine(e); {
		case mode == modeSubmodule:
			sub, err := t.submodule(name, objectOf(e))
			if err != nil {
				return nil, err
			}
			at = &located{repo: sub, commit: objectOf(e), prefix: name}
		case mode == modeSymlink && i < len(parts)-1:
			return nil, fmt.Errorf("%s is a symbolic link to a folder at %s, which diff --against does not follow; name the folder it points to", name, t.rev)
		}
	}
	at.rest = strings.TrimPrefix(strings.TrimPrefix(repoPath, at.prefix), "/")
	return at, nil
}

// submodule returns the folder of the submodule at name, checking that it
// is checked out as a repository of its own and holds commit, the one the
// revision records; otherwise git would read the superproject, or nothing.
func (t *revTree) submodule(name, commit string) (string, error) {
	dir := filepath.Join(t.top, filepath.FromSlash(name))
	notFollowed := fmt.Sprintf("%s is a git submodule, and %s records its commit %s", name, t.rev, short(commit))
	out, err := git(dir, "rev-parse", "--show-toplevel")
	top := ""
	if err == nil {
		top, _ = filepath.EvalSymlinks(strings.TrimSpace(string(out)))
	}
	if real, _ := filepath.EvalSymlinks(dir); err != nil || top != real {
		return "", fmt.Errorf("%s, but the submodule is not checked out here, so its snapshots at %s cannot be read; run git submodule update --init %s (in GitHub Actions, actions/checkout with submodules: true), or leave it out with --exclude %s", notFollowed, t.rev, name, name)
	}
	if _, err := git(dir, "cat-file", "-e", commit+"^{commit}"); err != nil {
		return "", fmt.Errorf("%s, which its clone lacks, so its snapshots at %s cannot be read; fetch it with git submodule update --init %s (or git -C %s fetch), or leave it out with --exclude %s", notFollowed, t.rev, name, name, name)
	}
	return dir, nil
}

func short(id string) string { return id[:min(len(id), 12)] }

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

// read returns the content of a path at the revision, named "REV:path":
// a file of a submodule is read at the commit the revision records for
// it, and a symbolic link is followed as long as it stays inside the work
// tree. A Git LFS pointer is refused with the way to compare by hand:
// git cat-file gives the pointer, never the object.
func (t *revTree) read(repoPath string) (*lint.Input, error) {
	data, err := t.blob(repoPath, 0)
	if err != nil {
		return nil, fmt.Errorf("%s:%s: %w", t.rev, repoPath, err)
	}
	if what, ok := source.LFSPointer(string(data)); ok {
		return nil, fmt.Errorf("%s:%s: the file is a Git LFS pointer (%s) at %s, not the snapshot, and diff --against reads revisions with git, which does not fetch LFS objects; compare by hand: git lfs pull, then git show %s:%s | git lfs smudge > old.json and pilotage-lint diff old.json %s", t.rev, repoPath, what, t.rev, t.rev, repoPath, t.localPath(repoPath))
	}
	return &lint.Input{Name: t.rev + ":" + repoPath, Data: data, Explicit: true}, nil
}

// maxLinks bounds the symbolic links followed for one path, as the kernel
// bounds them (ELOOP).
const maxLinks = 40

func (t *revTree) blob(repoPath string, hops int) ([]byte, error) {
	e, ok := t.listed[repoPath]
	if !ok {
		// A path files did not list: REV:path, or a link's target.
		at, err := t.locate(path.Dir(repoPath))
		if err != nil {
			return nil, err
		}
		if at == nil {
			return nil, fmt.Errorf("no such file at %s", t.rev)
		}
		line, err := t.entry(at.repo, at.commit, path.Join(at.rest, path.Base(repoPath)))
		if err != nil {
			return nil, err
		}
		if line == "" {
			return nil, fmt.Errorf("no such file at %s", t.rev)
		}
		mode, _, _ := treeLine(line)
		e = treeEntry{repo: at.repo, mode: mode, object: objectOf(line)}
	}
	if e.mode == modeSubmodule {
		return nil, fmt.Errorf("a git submodule at %s, not a file", t.rev)
	}
	data, err := t.cat(e.repo, e.object)
	switch {
	case err != nil:
		return nil, err
	case e.mode != modeSymlink:
		return data, nil
	}
	target := string(data)
	if hops >= maxLinks {
		return nil, fmt.Errorf("too many levels of symbolic links at %s", t.rev)
	}
	next := path.Join(path.Dir(repoPath), target)
	if path.IsAbs(target) || next == ".." || strings.HasPrefix(next, "../") {
		return nil, fmt.Errorf("a symbolic link to %s at %s, outside the repository, which diff --against does not follow; commit the snapshot itself, or compare by hand with pilotage-lint diff", target, t.rev)
	}
	return t.blob(next, hops+1)
}

// catFile is a git cat-file --batch of one repository, which reads any
// number of objects in one process.
type catFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
}

// cat returns the content of the blob object of repo.
func (t *revTree) cat(repo, object string) ([]byte, error) {
	c := t.cats[repo]
	if c == nil {
		c = &catFile{cmd: exec.Command("git", "cat-file", "--batch")}
		c.cmd.Dir = repo
		c.cmd.Stderr = &c.stderr
		in, err := c.cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := c.cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := c.cmd.Start(); err != nil {
			return nil, fmt.Errorf("git: %w (diff --against reads revisions with the git command line)", err)
		}
		c.in, c.out = in, bufio.NewReader(out)
		t.cats[repo] = c
	}
	fail := func(err error) ([]byte, error) {
		if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
			err = errors.New(msg)
		}
		return nil, fmt.Errorf("git cat-file --batch %s: %w", object, err)
	}
	if _, err := io.WriteString(c.in, object+"\n"); err != nil {
		return fail(err)
	}
	// "OBJECT TYPE SIZE", then SIZE bytes and a newline; or "OBJECT missing".
	head, err := c.out.ReadString('\n')
	if err != nil {
		return fail(err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return fail(fmt.Errorf("%s", strings.TrimSpace(head)))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || size < 0 {
		return fail(fmt.Errorf("unexpected header %q", strings.TrimSpace(head)))
	}
	data := make([]byte, size+1)
	if _, err := io.ReadFull(c.out, data); err != nil {
		return fail(err)
	}
	if f[1] != "blob" {
		return fail(fmt.Errorf("a %s, not a file", f[1]))
	}
	return data[:size], nil
}

// close ends the git processes the revision started.
func (t *revTree) close() {
	for _, c := range t.cats {
		_ = c.in.Close()
		_ = c.cmd.Wait()
	}
	t.cats = map[string]*catFile{}
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
	// A submodule the walks of the paths would not enter (under vendor, a
	// hidden folder, or excluded) is not read at the revision either.
	skip := func(sub string) bool {
		for i, p := range paths {
			rest, ok := strings.CutPrefix(sub, specs[i]+"/")
			if specs[i] == "." {
				rest, ok = sub, true
			}
			if sub == specs[i] || ok && inputs.WalkedDir(p, filepath.Join(p, filepath.FromSlash(rest)), exclude) {
				return false
			}
		}
		return true
	}
	files, err := t.files(specs, skip)
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
		add(res)
	}
	run.res.Findings = lint.Dedupe(run.res.Findings)
	return run
}
