// Package rules is the one table of pilotage-lint's rule families: the lint
// families, each a package beneath this one, the engine's own rules and the
// diff rules. Docs, SARIF metadata, config
// validation, --print-config and the fixture tests all read this table.
//
// The table is built when first read, not at package init: each family's
// function returns its rules then, so a run that never asks (--version)
// pays nothing for them.
package rules

import (
	"fmt"
	"sort"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/diff"
	"github.com/pilotagekit/pilotagekit/lint/rules/binding"
	"github.com/pilotagekit/pilotagekit/lint/rules/calls"
	jsonrules "github.com/pilotagekit/pilotagekit/lint/rules/json"
	"github.com/pilotagekit/pilotagekit/lint/rules/manifest"
	"github.com/pilotagekit/pilotagekit/lint/rules/plans"
	proberules "github.com/pilotagekit/pilotagekit/lint/rules/probe"
	"github.com/pilotagekit/pilotagekit/lint/rules/result"
	"github.com/pilotagekit/pilotagekit/lint/rules/schema"
	"github.com/pilotagekit/pilotagekit/lint/rules/shape"
	"github.com/pilotagekit/pilotagekit/lint/rules/toolschema"
)

// DefaultSince is the release of every rule that does not name its own.
const DefaultSince = "v0.1.0"

// Command names what runs a family's rules.
type Command string

// Commands that run rules.
const (
	CommandLint Command = "lint" // pilotage-lint PATH...
	CommandDiff Command = "diff" // pilotage-lint diff OLD NEW
)

// Family is a group of rules: a docs section, a SARIF tag and a folder
// fixtures/<Name>/ holding one folder per rule.
type Family struct {
	Name    string
	Title   string
	Doc     string
	Command Command
	// Rules are sorted by ID.
	Rules []*lint.Rule
}

// families is the table. A new rule is a literal in its family's package;
// a new family is a package and one line here.
var families = []struct {
	name, title, doc string
	command          Command
	rules            func() []*lint.Rule
}{
	{"json", "JSON text", "The file itself: well-formed JSON that every receiver reads the same way (RFC 8259, I-JSON).", CommandLint, jsonrules.Rules},
	{"shape", "Shapes", "Generic schema checks of manifests and results against the generated schemas, reported only where no specific rule explains the defect.", CommandLint, shape.Rules},
	{"schema", "Tool schema portability", "JSON Schema features that clients and model providers handle differently.", CommandLint, schema.Rules},
	{"manifest", "Manifest", "The pilotage_manifest result: version, Languages, capabilities and loop maps (Part II §4, §5).", CommandLint, manifest.Rules},
	{"binding", "MCP binding", "How the surface is carried over MCP: the extension declaration, _meta keys, the fixed and loop tools and the cold-start signposts (Part III §2 to §5).", CommandLint, binding.Rules},
	{"toolschema", "Loop tool schemas", "The input and output schemas and annotations of the fixed and loop tools (Part III §4).", CommandLint, toolschema.Rules},
	{"result", "Recorded results", "Recorded tool calls judged against Part II's result shapes and Part III's error rules.", CommandLint, result.Rules},
	{"calls", "Recorded calls", "What a server does: each recorded request judged with its response and against the other recorded calls of the same snapshot (Part II §5 to §8, Part III §4 to §7).", CommandLint, calls.Rules},
	{"plans", "Plans and traces", "What a validate plan promises, judged against the catalog of the same catalog_version and against what execute and its trace show for the same program, and whether validate answers the same request the same way (Part II §3.4, §5.6, §5.8, §6.4, §6.5).", CommandLint, plans.Rules},
	{"probe", "Probe expectations", "Calls recorded by `snapshot --probe`, each sending one deliberate defect, judged against the sentence that decides the answer; a specific rule that explains the same call replaces this finding.", CommandLint, proberules.Rules},
	{"engine", "Engine", "Findings pilotage-lint reports about its own run: inputs it cannot read, and rules that failed.", CommandLint, lint.EngineRules},
	{"diff", "Diff (compatibility policy)", "Run by `pilotage-lint diff OLD NEW`: changes from OLD to NEW that break agents or Hosts relying on OLD, the way `buf breaking` judges a protobuf change. This is a compatibility policy, not the spec: the spec puts no duty on a Server to keep its surface, but removing or renaming it breaks its users. Additions are info. The two `*-version-content` rules are the exception: they enforce the spec's duty to change a catalog_version or a guide version when content changes, which only two recordings can show, and are graded by its keyword.", CommandDiff, diff.Rules},
}

type table struct {
	families []Family
	all      []*lint.Rule
	byID     map[string]*lint.Rule
}

var load = sync.OnceValue(func() *table {
	t := &table{byID: map[string]*lint.Rule{}}
	for _, fe := range families {
		f := Family{Name: fe.name, Title: fe.title, Doc: fe.doc, Command: fe.command}
		for _, r := range fe.rules() {
			if t.byID[r.ID] != nil {
				panic(fmt.Sprintf("rule %s listed twice", r.ID))
			}
			if r.Severity == 0 || r.Spec == "" || r.Summary == "" || r.Doc == "" {
				panic(fmt.Sprintf("rule %s lacks a severity, spec section, summary or doc", r.ID))
			}
			r.Family = fe.name
			if r.Since == "" {
				r.Since = DefaultSince
			}
			t.byID[r.ID] = r
			f.Rules = append(f.Rules, r)
			t.all = append(t.all, r)
		}
		sortRules(f.Rules)
		t.families = append(t.families, f)
	}
	sortRules(t.all)
	return t
})

func sortRules(rs []*lint.Rule) {
	sort.Slice(rs, func(i, j int) bool { return rs[i].ID < rs[j].ID })
}

// Families returns the table, in its order.
func Families() []Family { return load().families }

// All returns every rule of every family (lint, engine and diff), sorted
// by ID: the set a config file may name.
func All() []*lint.Rule { return append([]*lint.Rule(nil), load().all...) }

// For returns the rules a command runs, sorted by ID.
func For(c Command) []*lint.Rule {
	var out []*lint.Rule
	for _, r := range load().all {
		if familyCommand(r.Family) == c {
			out = append(out, r)
		}
	}
	return out
}

// Lint returns the rules `pilotage-lint PATH...` runs: every family but
// diff.
func Lint() []*lint.Rule { return For(CommandLint) }

func familyCommand(name string) Command {
	for _, f := range families {
		if f.name == name {
			return f.command
		}
	}
	return ""
}

// ByID returns the rule with the given ID, or nil.
func ByID(id string) *lint.Rule { return load().byID[id] }
