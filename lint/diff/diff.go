// Package diff compares two snapshots of one server and reports the changes
// that break an agent or a Host relying on the old one, the way `buf
// breaking` judges a protobuf change. Each kind of change is a rule with a
// permanent ID (prefixed "diff-"), a severity and a doc; the rules live in
// their own registry because each compares two inputs, which the lint
// engine's single-snapshot rules do not.
//
// A finding sits in the NEW file at the value that changed when that value
// exists there, and in the OLD file at what disappeared otherwise.
package diff

import (
	"fmt"
	"sort"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Options configure a comparison.
type Options struct {
	// Rules are the enabled rules with their effective severities (see
	// lint.Select over Rules()); nil runs every rule at its default.
	Rules []*lint.Rule
	// InputKind forces the kind of both inputs; "" detects it.
	InputKind snapshot.Kind
}

// Compare reads two inputs (any kind the engine reads) and returns the
// changes from old to new as findings, sorted like lint findings.
func Compare(old, new *lint.Input, opt *Options) (res *lint.Result, err error) {
	// A failing check is a pilotage-lint bug; say so instead of crashing.
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("comparing %s with %s failed (%v); please report this as a pilotage-lint bug", old.Name, new.Name, r)
		}
	}()
	if opt == nil {
		opt = &Options{}
	}
	a, err := build(old, opt.InputKind)
	if err != nil {
		return nil, err
	}
	b, err := build(new, opt.InputKind)
	if err != nil {
		return nil, err
	}
	rules := opt.Rules
	if rules == nil {
		rules = Rules()
	}
	c := &comparison{old: a, new: b, on: map[string]*lint.Rule{}}
	for _, r := range rules {
		c.on[r.ID] = r
	}
	for _, ch := range checks {
		ch(c)
	}
	return &lint.Result{
		Files:    []lint.FileInfo{{Path: old.Name, Kind: a.Kind}, {Path: new.Name, Kind: b.Kind}},
		Findings: lint.Dedupe(c.findings),
	}, nil
}

func build(in *lint.Input, kind snapshot.Kind) (*snapshot.Snapshot, error) {
	f := source.Parse(in.Name, in.Data, source.Options{})
	for _, p := range f.Problems {
		if p.Code == source.ProblemSyntax || p.Code == source.ProblemEmpty {
			pos := f.Position(p.Start)
			return nil, fmt.Errorf("%s:%d:%d: %s", in.Name, pos.Line, pos.Column, p.Message)
		}
	}
	s, err := snapshot.Build(f, kind)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", in.Name, err)
	}
	if s.Manifest == nil && len(s.Tools) == 0 {
		return nil, fmt.Errorf("%s: holds neither a manifest nor a tool list, so there is nothing to compare; give a snapshot, a manifest or a tools/list result", in.Name)
	}
	return s, nil
}

// comparison is one run: the two snapshots and the findings so far.
type comparison struct {
	old, new *snapshot.Snapshot
	on       map[string]*lint.Rule
	findings []lint.Finding
}

// report records a finding of rule id at node n, which belongs to either
// snapshot.
func (c *comparison) report(id string, n *source.Node, format string, args ...any) {
	c.reportSpan(id, n, false, format, args...)
}

// reportKey records a finding at the member name of n.
func (c *comparison) reportKey(id string, n *source.Node, format string, args ...any) {
	c.reportSpan(id, n, true, format, args...)
}

func (c *comparison) reportSpan(id string, n *source.Node, key bool, format string, args ...any) {
	r := c.on[id]
	if r == nil || n == nil {
		return
	}
	f := c.new.FileOf(n)
	if f == nil {
		f = c.old.FileOf(n)
	}
	if f == nil {
		return
	}
	start, end := int(n.Start), int(n.End)
	if key && n.Parent.IsObject() {
		start, end = int(n.KeyStart), int(n.KeyEnd)
	}
	if !key && (n.Kind == source.Object || n.Kind == source.Array) {
		// A whole object or array would hide the line; its opening
		// bracket is enough.
		end = start + 1
	}
	s, e := f.Position(start), f.Position(end)
	c.findings = append(c.findings, lint.Finding{
		Rule: r.ID, Severity: r.Severity, File: f.Name,
		Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
		Pointer: n.Pointer(), Message: fmt.Sprintf(format, args...), Spec: r.Spec,
	})
}

var (
	registry = map[string]*lint.Rule{}
	checks   []func(*comparison)
)

// register adds rules and the one check that reports them.
func register(check func(*comparison), rs ...*lint.Rule) {
	for _, r := range rs {
		if registry[r.ID] != nil {
			panic("diff rule registered twice: " + r.ID)
		}
		if r.Severity == 0 || r.Spec == "" || r.Summary == "" || r.Doc == "" || r.Bad == "" || r.Good == "" {
			panic("diff rule lacks a severity, spec, summary, doc or examples: " + r.ID)
		}
		registry[r.ID] = r
	}
	checks = append(checks, check)
}

// Rules returns the diff rules, sorted by ID. Their Check is nil: they
// compare two snapshots and run through Compare, not the lint engine.
func Rules() []*lint.Rule {
	out := make([]*lint.Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
