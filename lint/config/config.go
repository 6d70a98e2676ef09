// Package config reads pilotage-lint configuration files: YAML or JSON,
// found by name upward from the working directory to the repository root.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"go.yaml.in/yaml/v3"
)

// Names are the file names searched for, in order, in each folder from the
// working directory up to the repository root (see Find).
var Names = []string{".pilotage-lint.yaml", ".pilotage-lint.yml", ".pilotage-lint.json"}

// Config is the file format; every member is optional.
type Config struct {
	// Enable, when set, runs only these rules.
	Enable []string `json:"enable,omitempty" yaml:"enable,omitempty"`
	// Disable turns rules off.
	Disable []string `json:"disable,omitempty" yaml:"disable,omitempty"`
	// Severity maps rule IDs to error, warning or info.
	Severity map[string]string `json:"severity,omitempty" yaml:"severity,omitempty"`
	// FailOn is the lowest severity that fails the run.
	FailOn string `json:"fail-on,omitempty" yaml:"fail-on,omitempty"`
	// Ignore suppresses findings by rule, path glob and pointer prefix.
	// Paths are relative to the config file's folder.
	Ignore []lint.Ignore `json:"ignore,omitempty" yaml:"ignore,omitempty"`
}

// Find returns the first config file named in Names found in dir or above
// it up to the root of its repository, the folder holding .git (a folder,
// or a file in a worktree or submodule); outside a repository, dir alone
// is searched. "" means none. A file above the repository is not the
// repository's: anyone who can write a parent folder (a shared /tmp, a
// CI runner's work folder) could otherwise switch the gate off.
func Find(dir string) string {
	root := RepoRoot(dir)
	for {
		for _, n := range Names {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
		}
		parent := filepath.Dir(dir)
		if root == "" || dir == root || parent == dir {
			return ""
		}
		dir = parent
	}
}

// RepoRoot returns the folder holding .git at or above dir, or "" when
// dir is in no repository.
func RepoRoot(dir string) string {
	for {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Load reads and strictly decodes a config file: unknown keys are errors,
// so a misspelt option is not silently ignored.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, data)
}

// Parse decodes config text; path decides between JSON and YAML, and its
// folder is the one the ignore paths are relative to. Every mistake is an
// error naming the file and the entry: an unknown key, a rule ID that does
// not exist, a bad severity, an ignore pointer without its leading / or an
// invalid path glob, any of which would otherwise ignore nothing, silently.
func Parse(path string, data []byte) (*Config, error) {
	var c Config
	if strings.HasSuffix(path, ".json") {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %s", path, unknownKey(err.Error()))
		}
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %s", path, unknownKey(err.Error()))
		}
		// The decoder drops a null item of a list of structs ("- " alone
		// on a line), which would shift the numbers of the entries after
		// it; it is as empty as {}.
		var raw struct {
			Ignore []any `yaml:"ignore"`
		}
		if yaml.Unmarshal(data, &raw) == nil {
			for i, e := range raw.Ignore {
				if e == nil {
					return nil, emptyEntry(path, i)
				}
			}
		}
	}
	known := map[string]bool{}
	for _, r := range append(rules.All(), diff.Rules()...) {
		known[r.ID] = true
	}
	for _, list := range []struct {
		key string
		ids []string
	}{{"enable", c.Enable}, {"disable", c.Disable}, {"severity", slices.Sorted(maps.Keys(c.Severity))}} {
		for _, id := range list.ids {
			if !known[id] {
				return nil, fmt.Errorf("%s: %s: unknown rule %q; pilotage-lint rules lists every rule ID", path, list.key, id)
			}
		}
	}
	for _, id := range slices.Sorted(maps.Keys(c.Severity)) {
		if _, err := lint.ParseSeverity(c.Severity[id]); err != nil {
			return nil, fmt.Errorf("%s: severity of %s: %w", path, id, err)
		}
	}
	if c.FailOn != "" {
		if _, err := lint.ParseSeverity(c.FailOn); err != nil {
			return nil, fmt.Errorf("%s: fail-on: %w", path, err)
		}
	}
	for i := range c.Ignore {
		ig := &c.Ignore[i]
		// An empty entry ({} or null) covers every finding of every file:
		// one stray "-" in YAML would switch the gate off.
		if ig.Rule == "" && ig.Path == "" && ig.Pointer == "" {
			return nil, emptyEntry(path, i)
		}
		if id := ig.Rule; id != "" && id != "*" && !known[id] {
			return nil, fmt.Errorf("%s: ignore entry %d names unknown rule %q; pilotage-lint rules lists every rule ID", path, i+1, id)
		}
		if ig.Pointer != "" && !strings.HasPrefix(ig.Pointer, "/") {
			return nil, fmt.Errorf("%s: ignore entry %d: pointer %q does not start with /; write a JSON Pointer such as /%s", path, i+1, ig.Pointer, ig.Pointer)
		}
		if ig.Path != "" && !doublestar.ValidatePattern(filepath.ToSlash(ig.Path)) {
			return nil, fmt.Errorf("%s: ignore entry %d: path %q is not a valid glob", path, i+1, ig.Path)
		}
		ig.Base = filepath.Dir(path)
	}
	return &c, nil
}

func emptyEntry(path string, i int) error {
	return fmt.Errorf("%s: ignore entry %d is empty, which would suppress every finding; give it a rule, a path or a pointer (rule: \"*\" with a path ignores every rule in those files)", path, i+1)
}

// unknownKey rewords the decoders' complaint about an unknown key, which
// names Go types, in the file's own terms.
func unknownKey(msg string) string {
	for _, t := range []struct{ goType, where, keys string }{
		{"lint.Ignore", " in an ignore entry", "rule, path, pointer"},
		{"config.Config", "", "enable, disable, severity, fail-on, ignore"},
	} {
		if field, ok := strings.CutSuffix(msg, " not found in type "+t.goType); ok {
			if i := strings.LastIndex(field, "field "); i >= 0 {
				return fmt.Sprintf("%sunknown key %q%s; the keys are %s", field[:i], field[i+len("field "):], t.where, t.keys)
			}
		}
	}
	if field, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		return fmt.Sprintf("unknown key %s; the keys are enable, disable, severity, fail-on, ignore, and rule, path, pointer in an ignore entry", field)
	}
	return msg
}

// Selection converts the rule choices to the engine's form. Severities
// are checked in ID order, so the same file always gives the same message.
func (c *Config) Selection() (lint.Selection, error) {
	sel := lint.Selection{Enable: c.Enable, Disable: c.Disable, Severity: map[string]lint.Severity{}}
	for _, id := range slices.Sorted(maps.Keys(c.Severity)) {
		sev, err := lint.ParseSeverity(c.Severity[id])
		if err != nil {
			return sel, fmt.Errorf("severity of %s: %w", id, err)
		}
		sel.Severity[id] = sev
	}
	return sel, nil
}
