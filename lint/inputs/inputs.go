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
	"path/filepath"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
)

// DefaultMaxBytes is the default bound on one input (64 MiB).
const DefaultMaxBytes = 64 << 20

// Options tune Collect.
type Options struct {
	// MaxBytes bounds each input; 0 means DefaultMaxBytes.
	MaxBytes int64
	// StdinName names standard input in reports ("-" reads it).
	StdinName string
	Stdin     io.Reader
}

// Collect reads every input named by paths. Problems with individual paths
// (unreadable, too large, not a regular file) are returned as errors while
// the other paths are still read.
func Collect(paths []string, opt Options) ([]lint.Input, []error) {
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = DefaultMaxBytes
	}
	var ins []lint.Input
	var errs []error
	seen := map[string]bool{}
	for _, p := range paths {
		if p == "-" {
			name := opt.StdinName
			if name == "" {
				name = "<stdin>"
			}
			data, err := readBounded(opt.Stdin, opt.MaxBytes, name)
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
			files, werrs := walk(p)
			errs = append(errs, werrs...)
			for _, f := range files {
				if seen[f] {
					continue
				}
				seen[f] = true
				in, err := readFile(f, opt.MaxBytes, false)
				if err != nil {
					errs = append(errs, err)
					continue
				}
				ins = append(ins, in)
			}
			continue
		}
		if seen[p] {
			continue
		}
		seen[p] = true
		in, err := readFile(p, opt.MaxBytes, true)
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
// hidden folders, vendor and node_modules. WalkDir does not follow symbolic
// links to folders, so a link loop cannot trap it.
func walk(dir string) ([]string, []error) {
	var files []string
	var errs []error
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, unwrapPathErr(err)))
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(name, ".") || name == "vendor" || name == "node_modules") {
				return fs.SkipDir
			}
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

func readFile(p string, max int64, explicit bool) (lint.Input, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return lint.Input{}, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
	}
	if !fi.Mode().IsRegular() {
		return lint.Input{}, fmt.Errorf("%s: not a regular file (%s); pilotage-lint reads files, directories and - for standard input", p, kindOf(fi.Mode()))
	}
	if fi.Size() > max {
		return lint.Input{}, fmt.Errorf("%s: %d bytes is larger than --max-bytes %d; raise the limit if this input is genuine", p, fi.Size(), max)
	}
	f, err := os.Open(p)
	if err != nil {
		return lint.Input{}, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
	}
	defer f.Close()
	data, err := readBounded(f, max, p)
	if err != nil {
		return lint.Input{}, err
	}
	return lint.Input{Name: filepath.ToSlash(p), Data: data, Explicit: explicit}, nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeDevice != 0, m&fs.ModeCharDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "not a regular file"
}

// readBounded reads at most max bytes and fails, without reading the rest,
// when there is more.
func readBounded(r io.Reader, max int64, name string) ([]byte, error) {
	if r == nil {
		return nil, fmt.Errorf("%s: no standard input", name)
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: larger than --max-bytes %d; raise the limit if this input is genuine", name, max)
	}
	return data, nil
}
