// Package fixtureseed feeds the repository's fixtures to fuzz targets as
// seeds: the small ones only, so that a short fuzz run in CI spends its time
// mutating rather than minimizing.
package fixtureseed

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Walk calls add with the contents of every *.json and *.jsonl file under
// root no larger than maxBytes, with whether it is JSON Lines.
func Walk(root string, maxBytes int64, add func(path string, data []byte, jsonl bool)) {
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".json") || strings.HasSuffix(p, ".jsonl")) {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > maxBytes {
			return nil
		}
		if data, err := os.ReadFile(p); err == nil {
			add(p, data, strings.HasSuffix(p, ".jsonl"))
		}
		return nil
	})
}
