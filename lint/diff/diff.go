// Package diff compares two snapshots of one server and reports the changes
// that break an agent or a Host relying on the old one, the way `buf
// breaking` judges a protobuf change. The rules are a compatibility policy,
// not the spec: the spec puts no duty on a Server to keep its surface, but
// removing or renaming part of it breaks whoever calls it. Each rule is a
// lint.Rule variable (prefixed "diff-"), selected and positioned like a lint
// rule; it has no Check, since it compares two inputs. The exception are
// the rules of calls.go, which enforce spec duties that only two recordings
// show (a token or version unchanged while its content changed); they quote
// their sentence and are graded by its keyword.
//
// A finding sits in the NEW file at the value that changed when that value
// exists there, and in the OLD file at what disappeared otherwise.
package diff

import (
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Options configure a comparison.
type Options struct {
	// Rules are the enabled rules with their effective severities (see
	// lint.Select); rules of other commands in it are ignored, and the
	// engine's internal-error rule in it grades a failing check. Nil runs
	// every diff rule at its default.
	Rules []*lint.Rule
	// InputKind forces the kind of both inputs; "" detects it.
	InputKind snapshot.Kind
}

// Compare reads two inputs (any kind the engine reads) and returns the
// changes from old to new as findings, sorted like lint findings. A check
// that fails becomes one internal-error finding naming its rules and the
// files; the other checks still run.
func Compare(old, new *lint.Input, opt *Options) (*lint.Result, error) {
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
	selected := opt.Rules
	if selected == nil {
		selected = append(Rules(), lint.InternalRule)
	}
	byID := map[string]*lint.Rule{}
	for _, r := range selected {
		byID[r.ID] = r
	}
	c := &comparison{old: a, new: b, on: map[*lint.Rule]*lint.Rule{}}
	for _, ch := range checks {
		for _, r := range ch.rules {
			if s := byID[r.ID]; s != nil {
				c.on[r] = s
			}
		}
	}
	for _, ch := range checks {
		c.run(ch.check, ch.rules, byID[lint.InternalRule.ID])
	}
	return &lint.Result{
		Files:    []lint.FileInfo{{Path: old.Name, Kind: a.Kind}, {Path: new.Name, Kind: b.Kind}},
		Findings: lint.Dedupe(c.findings),
	}, nil
}

// run runs one check, turning a panic into an internal-error finding (when
// that rule is selected) at the start of the NEW file.
func (c *comparison) run(check func(*comparison), rules []*lint.Rule, internal *lint.Rule) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if os.Getenv("PILOTAGE_LINT_DEBUG_PANIC") != "" {
			panic(r) // a developer asked for the stack
		}
		if internal == nil || len(c.new.Files) == 0 {
			return
		}
		var ids []string
		for _, rl := range rules {
			ids = append(ids, rl.ID)
		}
		f := c.new.Files[0]
		c.findings = append(c.findings, lint.Finding{
			Rule: internal.ID, Severity: internal.Severity, File: f.Name, Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Spec: internal.Spec,
			Message: fmt.Sprintf("the check of %s failed comparing %s with %s (%v); the other checks still ran; please report this as a pilotage-lint bug", strings.Join(ids, ", "), c.old.Files[0].Name, f.Name, r),
		})
	}()
	check(c)
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
	// An empty tool list is a listing (of nothing), so it is compared; only
	// an input with neither a manifest nor a tool list is unusable.
	if s.Manifest == nil && s.ToolsArray == nil {
		return nil, fmt.Errorf("%s: holds neither a manifest nor a tool list, so there is nothing to compare; give a snapshot, a manifest or a tools/list result", in.Name)
	}
	return s, nil
}

// comparison is one run: the two snapshots and the findings so far.
type comparison struct {
	old, new *snapshot.Snapshot
	// on maps each rule variable to its selected copy, which carries the
	// effective severity; a rule that is off is absent.
	on       map[*lint.Rule]*lint.Rule
	findings []lint.Finding
}

// pass returns a lint.Pass for rule r, or nil when r is off.
func (c *comparison) pass(r *lint.Rule) *lint.Pass {
	sel := c.on[r]
	if sel == nil {
		return nil
	}
	return lint.NewPass(sel, c.fileOf, func(f lint.Finding) { c.findings = append(c.findings, f) })
}

func (c *comparison) fileOf(n *source.Node) *source.File {
	if f := c.new.FileOf(n); f != nil {
		return f
	}
	return c.old.FileOf(n)
}

// report records a finding of rule r at node n, which belongs to either
// snapshot. A whole object or array would hide the line, so the finding
// sits at its opening bracket.
func (c *comparison) report(r *lint.Rule, n *source.Node, format string, args ...any) {
	c.reportWith(r, n, nil, "", format, args...)
}

// reportWith records a finding of rule r at node n, related to the value
// was of the other snapshot, described by note.
func (c *comparison) reportWith(r *lint.Rule, n, was *source.Node, note, format string, args ...any) {
	p := c.pass(r)
	if p == nil || n == nil {
		return
	}
	p = p.With(lint.Also{Node: was, Note: note})
	if n.Kind == source.Object || n.Kind == source.Array {
		p.ReportMissing(n, format, args...)
		return
	}
	p.Report(n, format, args...)
}

// reportKey records a finding at the member name of n.
func (c *comparison) reportKey(r *lint.Rule, n *source.Node, format string, args ...any) {
	if p := c.pass(r); p != nil {
		p.ReportKey(n, format, args...)
	}
}

// Rules returns the diff rules, sorted by ID.
func Rules() []*lint.Rule {
	var out []*lint.Rule
	for _, ch := range checks {
		out = append(out, ch.rules...)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
