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
// Every finding sits in the NEW file, so a pull request can show it on a
// line it touches: at the value that changed when that value exists there,
// and otherwise (a removal) at the nearest surviving parent of what
// disappeared, found by identity (the tools array, the manifest's Language
// list), with the OLD location as a related location. Only when there is no
// NEW file (a deleted snapshot) do findings stay in the OLD one.
package diff

import (
	"errors"
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
	// Ignores drop findings as lint's do, matched against the NEW file's
	// name and the finding's pointer or identity key; a removal's key is
	// the identity form of what was removed, such as
	// /tools/tools/[name=run_flow]/name.
	Ignores []lint.Ignore
}

// ErrNothingToCompare is wrapped by Compare's error for an input that
// holds neither a manifest nor a tool list.
var ErrNothingToCompare = errors.New("nothing to compare")

// Compare reads two inputs (any kind the engine reads) and returns the
// changes from old to new as findings, sorted like lint findings. A nil
// old is a snapshot that did not exist (everything in new is added); a
// nil new one that no longer exists (every tool and Language is removed).
// A check that fails becomes one internal-error finding naming its rules
// and the files; the other checks still run.
func Compare(old, new *lint.Input, opt *Options) (*lint.Result, error) {
	if opt == nil {
		opt = &Options{}
	}
	if old == nil && new == nil {
		return nil, errors.New("diff: no input to compare")
	}
	a, b := &snapshot.Snapshot{}, &snapshot.Snapshot{}
	var err error
	if old != nil {
		if a, err = build(old, opt.InputKind); err != nil {
			return nil, err
		}
	}
	if new != nil {
		if b, err = build(new, opt.InputKind); err != nil {
			return nil, err
		}
	}
	selected := opt.Rules
	if selected == nil {
		selected = append(Rules(), lint.InternalRule)
	}
	byID := map[string]*lint.Rule{}
	for _, r := range selected {
		byID[r.ID] = r
	}
	c := &comparison{old: a, new: b, on: map[*lint.Rule]*lint.Rule{}, fresh: old == nil, gone: new == nil}
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
	// The run's file is NEW, where every finding sits, so that a report
	// per file (JUnit's test suites) has one test case per rule; OLD only
	// when there is no NEW.
	res := &lint.Result{Files: []lint.FileInfo{{Path: name(new), Kind: b.Kind}}}
	if new == nil {
		res.Files = []lint.FileInfo{{Path: old.Name, Kind: a.Kind}}
	}
	for _, f := range c.findings {
		if !lint.Ignored(opt.Ignores, &f) {
			res.Findings = append(res.Findings, f)
		}
	}
	res.Findings = lint.Dedupe(res.Findings)
	return res, nil
}

func name(in *lint.Input) string {
	if in == nil {
		return ""
	}
	return in.Name
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
		files := append(append([]*source.File(nil), c.new.Files...), c.old.Files...)
		if internal == nil || len(files) == 0 {
			return
		}
		var ids []string
		for _, rl := range rules {
			ids = append(ids, rl.ID)
		}
		name := func(s *snapshot.Snapshot) string {
			if len(s.Files) == 0 {
				return "nothing"
			}
			return s.Files[0].Name
		}
		c.findings = append(c.findings, lint.Finding{
			Rule: internal.ID, Severity: internal.Severity, File: files[0].Name, Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Spec: internal.Spec,
			Message: fmt.Sprintf("the check of %s failed comparing %s with %s (%v); the other checks still ran; please report this as a pilotage-lint bug", strings.Join(ids, ", "), name(c.old), name(c.new), r),
		})
	}()
	check(c)
}

func build(in *lint.Input, kind snapshot.Kind) (*snapshot.Snapshot, error) {
	f := source.Parse(in.Name, in.Data, source.Options{})
	for _, p := range f.Problems {
		// A text in UTF-16, UTF-32 or binary has no document, only the
		// problem naming its encoding.
		if p.Code == source.ProblemSyntax || p.Code == source.ProblemEmpty || p.Code == source.ProblemInvalidUTF8 && len(f.Docs) == 0 {
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
		return nil, fmt.Errorf("%s: holds neither a manifest nor a tool list, so there is %w; give a snapshot, a manifest or a tools/list result", in.Name, ErrNothingToCompare)
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
	// fresh says the old snapshot did not exist, gone that the new one
	// no longer does; the other is then empty.
	fresh, gone bool
}

// pass returns a lint.Pass for rule r whose findings carry key, the
// identity form of what they are about, or nil when r is off.
func (c *comparison) pass(r *lint.Rule, key string) *lint.Pass {
	sel := c.on[r]
	if sel == nil {
		return nil
	}
	return lint.NewPass(sel, c.fileOf, func(f lint.Finding) {
		f.Key = key
		c.findings = append(c.findings, f)
	})
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
// was of the other snapshot, described by note. A node of the old snapshot
// is moved to its nearest surviving parent in the new one.
func (c *comparison) reportWith(r *lint.Rule, n, was *source.Node, note, format string, args ...any) {
	if n == nil {
		return
	}
	key := lint.KeyOf(n.Root(), n.Pointer())
	also := []lint.Also{{Node: was, Note: note}}
	if s := c.survivor(n); s != nil {
		also = append([]lint.Also{{Node: n, Note: "the old location"}}, also...)
		n = s
	}
	p := c.pass(r, key)
	if p == nil {
		return
	}
	p = p.With(also...)
	if n.Kind == source.Object || n.Kind == source.Array {
		p.ReportMissing(n, format, args...)
		return
	}
	p.Report(n, format, args...)
}

// reportKey records a finding at the member name of n; a member of the
// old snapshot is reported as reportWith reports it.
func (c *comparison) reportKey(r *lint.Rule, n *source.Node, format string, args ...any) {
	if n == nil {
		return
	}
	if c.old.FileOf(n) != nil && len(c.new.Files) > 0 {
		c.reportWith(r, n, nil, "", format, args...)
		return
	}
	if p := c.pass(r, lint.KeyOf(n.Root(), n.Pointer())); p != nil {
		p.ReportKey(n, format, args...)
	}
}

// survivor returns, for a value of the old snapshot, the deepest value of
// the new one on its identity path (lint.KeyOf): for a removed tool's name
// /tools/tools/[name=run_flow]/name, the new tools array, or the new tool
// run_flow when only its name member went. It returns nil for a value of
// the new snapshot, or when there is no new file. Documents pair by
// position, as JSON Lines captures do.
func (c *comparison) survivor(n *source.Node) *source.Node {
	of := c.old.FileOf(n)
	if of == nil || len(c.new.Files) == 0 {
		return nil
	}
	root := n.Root()
	nf := c.new.Files[0]
	if len(nf.Docs) == 0 {
		return nil
	}
	cur := nf.Docs[0].Root
	for i, d := range of.Docs {
		if d.Root == root && i < len(nf.Docs) {
			cur = nf.Docs[i].Root
		}
	}
	return lint.Follow(cur, lint.KeyOf(root, n.Pointer()))
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
