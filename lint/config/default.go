package config

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// Default is the file `pilotage-lint init` writes: every option, with the
// default active and examples commented out, so a newcomer edits rather
// than looks up the format.
const Default = `# pilotage-lint configuration.
#
# pilotage-lint reads the first .pilotage-lint.yaml, .pilotage-lint.yml or
# .pilotage-lint.json found in the working directory or a folder above it,
# up to the repository's root (the folder holding .git), never above;
# --config FILE names another and --no-config ignores them. Flags given on
# the command line override this file. See the effective result with
# pilotage-lint --print-config, and every rule with pilotage-lint rules.

# The lowest severity that fails the run (exit code 1): error, warning or
# info. Findings below it are still printed.
fail-on: error

# Run only these rules. Leave empty to run every rule.
# enable:
#   - json-syntax
#   - json-duplicate-key

# Turn these rules off.
# disable:
#   - manifest-version-outdated

# Change a rule's severity to error, warning or info.
# severity:
#   json-number-range: info

# Suppress findings by rule, file path (a glob, where ** spans folders, or a
# folder; relative to this file's folder) and JSON Pointer (the value and
# everything under it). Name array elements by identity, as
# [name=TOOL] for a tool or Language, [id=ID] for a guide, [uri=URI] for a
# resource, so the entry survives inserting and reordering tools; a pointer
# into the manifest may start at /manifest (/manifest/languages/0/retention)
# in every input kind. Each field is optional, but an entry needs one; an
# empty or "*" rule means every rule, and an unknown rule ID is an error. An
# entry that suppresses nothing is named in a warning. To adopt pilotage-lint on a server with many findings,
# prefer a baseline: pilotage-lint --write-baseline FILE.
# ignore:
#   - rule: json-duplicate-key
#     path: snapshots/legacy/**/*.json
#     pointer: /tools/tools/[name=run_flow]
`

// YAML renders c as a config file that Parse reads back to the same
// configuration; map keys come out sorted.
func (c *Config) YAML() ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(c); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
