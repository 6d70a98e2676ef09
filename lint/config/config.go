// Package config reads pilotage-lint configuration files: YAML or JSON,
// found by name upward from the working directory.
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

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"go.yaml.in/yaml/v3"
)

// Names are the file names searched for, in order, in each folder from the
// working directory up to the root.
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

// Find returns the first config file named in Names found in dir or above,
// or "" when there is none.
func Find(dir string) string {
	for {
		for _, n := range Names {
			p := filepath.Join(dir, n)
			if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
				return p
			}
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
// folder is the one the ignore paths are relative to.
func Parse(path string, data []byte) (*Config, error) {
	var c Config
	if strings.HasSuffix(path, ".json") {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	} else {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	known := map[string]bool{}
	for _, r := range append(rules.All(), diff.Rules()...) {
		known[r.ID] = true
	}
	for i := range c.Ignore {
		// A misspelt ID would otherwise ignore nothing, silently.
		if id := c.Ignore[i].Rule; id != "" && id != "*" && !known[id] {
			return nil, fmt.Errorf("%s: ignore entry %d names unknown rule %q; pilotage-lint rules lists every rule ID", path, i+1, id)
		}
		c.Ignore[i].Base = filepath.Dir(path)
	}
	return &c, nil
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
