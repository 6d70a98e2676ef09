// Package inputs turns command-line paths into lint inputs: files, the
// JSON and JSON Lines files under directories, and standard input, each
// read with a size bound. It opens nothing it was not pointed at.
package inputs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// DefaultMaxBytes is the default bound on one input (64 MiB).
const DefaultMaxBytes = 64 << 20

// MaxBytes is the largest --max-bytes honoured: the parser keeps offsets
// in 32 bits.
const MaxBytes = source.MaxSize

// Options tune Collect.
type Options struct {
	// MaxBytes bounds each input; 0 means DefaultMaxBytes.
	MaxBytes int64
	// StdinName names standard input in reports ("-" reads it).
	StdinName string
	Stdin     io.Reader
	// Exclude are globs (doublestar: ** spans folders) of files and
	// folders the directory walk skips. A pattern is matched against the
	// path as the walk names it (slash-separated, from the path given)
	// and, when it has no slash, against each file or folder name too.
	Exclude []string
	// NamedAsWalked reads named files as if met in a directory walk: one
	// whose kind is not recognised is skipped quietly instead of being an
	// input-kind finding. A pre-commit hook, which names every staged file
	// its pattern matches, wants that.
	NamedAsWalked bool
	// Lazy leaves each file's text unread: Collect checks that it can be
	// opened and is within MaxBytes, and the Input's Read reads it when
	// lint.Run reaches it, so a run over many files does not hold them
	// all at once. Standard input is always read at once.
	Lazy bool
}

// CheckExclude returns an error naming the first invalid --exclude glob.
func CheckExclude(patterns []string) error {
	for _, p := range patterns {
		if !doublestar.ValidatePattern(filepath.ToSlash(p)) {
			return fmt.Errorf("--exclude %q is not a valid glob", p)
		}
	}
	return nil
}

func excluded(patterns []string, p string) bool {
	p = filepath.ToSlash(filepath.Clean(p))
	base := path.Base(p)
	for _, pat := range patterns {
		pat = strings.TrimSuffix(filepath.ToSlash(pat), "/")
		if ok, _ := doublestar.Match(pat, p); ok {
			return true
		}
		if !strings.Contains(pat, "/") {
			if ok, _ := doublestar.Match(pat, base); ok {
				return true
			}
		}
	}
	return false
}

// Collect reads every input named by paths. Problems with individual paths
// (unreadable, too large, not a regular file) are returned as errors while
// the other paths are still read.
func Collect(paths []string, opt Options) ([]lint.Input, []error) {
	if err := CheckExclude(opt.Exclude); err != nil {
		return nil, []error{err}
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	opt.MaxBytes = min(opt.MaxBytes, MaxBytes)
	var ins []lint.Input
	var errs []error
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "-" {
			if seen[p] {
				continue
			}
			seen[p] = true
			name := opt.StdinName
			if name == "" {
				name = "<stdin>"
			}
			data, err := readBounded(opt.Stdin, opt.MaxBytes, 0, name)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			ins = append(ins, lint.Input{Name: name, Data: data, Explicit: true})
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, unwrapPathErr(err)))
			continue
		}
		if fi.IsDir() {
			files, werrs := walk(p, opt.Exclude)
			errs = append(errs, werrs...)
			for _, f := range files {
				if seen[filepath.Clean(f)] {
					continue
				}
				seen[filepath.Clean(f)] = true
				in, err := collectFile(f, opt, false)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				ins = append(ins, in)
			}
			continue
		}
		if seen[filepath.Clean(p)] {
			continue
		}
		seen[filepath.Clean(p)] = true
		in, err := collectFile(p, opt, !opt.NamedAsWalked)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		ins = append(ins, in)
	}
	return ins, errs
}

func unwrapPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// walk lists *.json and *.jsonl files under dir in lexical order, skipping
// hidden folders, vendor, node_modules and what exclude matches. Symbolic links to folders met
// inside are not followed, so a link loop cannot trap the walk and nothing
// outside the folder is read; a link that loops back into the folder is
// reported, since the user may have meant its files to be linted twice.
// The folder itself may be a link: the user pointed at it.
func walk(dir string, exclude []string) ([]string, []error) {
	var files []string
	var errs []error
	root := dir
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		root = real
	}
	rootAbs, _ := filepath.Abs(root)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		// Name files by the path the user gave, not the link's target.
		if rel, rerr := filepath.Rel(root, p); rerr == nil && root != dir {
			p = filepath.Join(dir, rel)
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, unwrapPathErr(err)))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.Type()&fs.ModeSymlink != 0 {
			if t, err := filepath.EvalSymlinks(p); err == nil {
				if fi, err := os.Stat(t); err == nil && fi.IsDir() {
					if within(t, rootAbs) || within(rootAbs, t) {
						errs = append(errs, fmt.Errorf("%s: symbolic link into a folder already being walked (%s), not followed", p, t))
					}
					return nil
				}
			}
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "vendor" || name == "node_modules" || excluded(exclude, p)) {
				return fs.SkipDir
			}
			return nil
		}
		if excluded(exclude, p) {
			return nil
		}
		if strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	sort.Strings(files)
	return files, errs
}

// Walked reports whether a walk of dir would list file, a path under dir
// named as the walk names it (dir joined with the rest), by name alone: the
// same suffixes, skipped folders and exclude globs. diff --against uses it
// for the files of a git revision, which no walk of the disk can see.
func Walked(dir, file string, exclude []string) bool {
	name := filepath.Base(file)
	if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".jsonl") || excluded(exclude, file) {
		return false
	}
	return WalkedDir(dir, filepath.Dir(file), exclude)
}

// WalkedDir reports whether a walk of dir would enter folder, a path at or
// under dir named as the walk names it: no folder on the way is hidden,
// vendor, node_modules or excluded. dir itself is always entered.
func WalkedDir(dir, folder string, exclude []string) bool {
	rel, err := filepath.Rel(dir, folder)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	if rel == "." {
		return true
	}
	p := dir
	for _, f := range strings.Split(filepath.ToSlash(rel), "/") {
		p = filepath.Join(p, f)
		if strings.HasPrefix(f, ".") || f == "vendor" || f == "node_modules" || excluded(exclude, p) {
			return false
		}
	}
	return true
}

// readFile reads one regular file. Devices, fifos and sockets are refused
// before they are opened (opening a tape or a fifo has effects of its own),
// and again after, in case the path was swapped in between: the open does
// not block even on a fifo, and the check is made on what was opened.
// within reports whether path a is b or inside it.
func within(a, b string) bool {
	a, _ = filepath.Abs(a)
	return a == b || strings.HasPrefix(a, strings.TrimSuffix(b, string(filepath.Separator))+string(filepath.Separator))
}

// collectFile reads the file at p, or with opt.Lazy checks it now and
// reads it when asked; a file that changed in between is checked again.
func collectFile(p string, opt Options, explicit bool) (lint.Input, error) {
	if !opt.Lazy {
		return readFile(p, opt.MaxBytes, explicit)
	}
	f, _, err := openChecked(p, opt.MaxBytes)
	if err != nil {
		return lint.Input{}, err
	}
	f.Close()
	in := lint.Input{Name: filepath.ToSlash(p), Explicit: explicit}
	in.Read = func() ([]byte, error) {
		r, err := readFile(p, opt.MaxBytes, explicit)
		return r.Data, err
	}
	return in, nil
}

func readFile(p string, max int64, explicit bool) (lint.Input, error) {
	f, fi, err := openChecked(p, max)
	if err != nil {
		return lint.Input{}, err
	}
	defer f.Close()
	data, err := readBounded(f, max, fi.Size(), p)
	if err != nil {
		return lint.Input{}, err
	}
	return lint.Input{Name: filepath.ToSlash(p), Data: data, Explicit: explicit}, nil
}

// openChecked opens a regular file of at most max bytes, checking before
// the open (a FIFO must not block it) and after (the path may have been
// swapped in between).
func openChecked(p string, max int64) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
	}
	if err := check(p, fi, max); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
	}
	if fi, err = f.Stat(); err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
	}
	if err := check(p, fi, max); err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

func check(p string, fi fs.FileInfo, max int64) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s); pilotage-lint reads files, directories and - for standard input", p, kindOf(fi.Mode()))
	}
	if fi.Size() > max {
		return fmt.Errorf("%s: %d bytes is larger than --max-bytes %d; raise the limit if this input is genuine", p, fi.Size(), max)
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file"
}

// readBounded reads at most max bytes and fails, without reading the rest,
// when there is more. hint is the expected size (a file's), so the buffer
// is allocated once; a file that grows past it is still bounded.
func readBounded(r io.Reader, max, hint int64, name string) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("%s: no standard input", name)
	}
	buf := make([]byte, 0, min(max, hint)+512)
	lr := io.LimitReader(r, max+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, unwrapPathErr(err))
		}
	}
	if int64(len(buf)) > max {
		return nil, fmt.Errorf("%s: larger than --max-bytes %d; raise the limit if this input is genuine", name, max)
	}
	return buf, nil
}
