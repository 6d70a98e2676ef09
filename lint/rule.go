// Package lint is the pilotage-lint engine: it runs a set of rules over
// snapshots of a server's Pilotage surfaces and returns sorted findings. It
// prints nothing and knows no CLI.
package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Severity orders findings; the zero value is not a severity.
type Severity int8

// Severities, from least to most severe. The spec's MUST and MUST NOT map to
// Error, SHOULD to Warning, and advice beyond the spec to Info.
const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "off"
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q: use error, warning or info", s)
}

// Policy is a clause of the severity policy for rules whose sentence
// carries no requirement keyword.
type Policy string

// The keyword-less clauses that grade a rule at warning.
const (
	// PolicyIgnored is a declaration the spec tells receivers to ignore
	// or replace with a fallback (an unknown capability, an unknown
	// closed-set value, a duplicate Language name): it has no effect.
	PolicyIgnored Policy = "a declaration receivers ignore or replace with a fallback"
	// PolicyContradiction is an answer (or a declaration) that
	// contradicts the spec's definitions although no sentence carries a
	// keyword (a trace fetch returning another Run's trace).
	PolicyContradiction Policy = "contradicts the spec's definitions without a keyword"
)

// Rule is one check. Its ID is permanent once released.
type Rule struct {
	// ID is kebab-case and never changes meaning.
	ID string
	// Severity is the default; configuration may override it.
	Severity Severity
	// Family groups rules for the docs, SARIF tags and fixture folders; the
	// rule table sets it, so a rule cannot sit in one family's list and claim
	// another.
	Family string
	// Spec cites the section enforced, such as "Part III §4.6".
	Spec string
	// Quote is the sentence the rule enforces, verbatim from the cited text,
	// keyword included; empty for advice beyond the spec and for the tool's
	// own policies.
	Quote string
	// Keyword is the requirement keyword of Quote (MUST, MUST NOT, REQUIRED,
	// SHOULD, SHOULD NOT, RECOMMENDED); "" for advice. The default Severity
	// follows it, and a test holds every rule to that.
	Keyword string
	// Policy, for a rule whose sentence carries no keyword, names the
	// clause of the severity policy that grades it; "" is advice (info).
	// The refined policy raises two keyword-less classes to warning,
	// because each silently does something the author did not mean.
	Policy Policy
	// Since is the release that added the rule.
	Since string
	// Deprecated rules still run when enabled by name; ReplacedBy names the
	// rules that took over their checks.
	Deprecated bool
	ReplacedBy []string
	// Summary is one line: what the rule checks.
	Summary string
	// Doc is one paragraph: what, why it matters for an agent or Host.
	Doc string
	// Bad and Good are short JSON examples for the docs.
	Bad, Good string
	// Scope, for an error rule, names what the rule binds: which
	// Languages, calls, entries, channels and manifest versions it judges,
	// and what it leaves alone (a replay, a sub-program's trace entries).
	Scope string
	// Exceptions are the sentences of Parts II–III that narrow or excuse
	// Quote (MAY, "only", "except", "unless", "not itself", "without
	// further processing", a later minor version), each with the good
	// fixture that keeps the rule silent where the sentence allows.
	Exceptions []Exception
	// NoExceptions, for an error rule that no sentence narrows, says why:
	// which sections were read and found silent.
	NoExceptions string
	// Check reports the rule's findings on one snapshot.
	Check func(*Pass)
	// Fallback marks a generic rule (schema shape checks) whose finding
	// is dropped when a specific rule reported the same pointer of the
	// same file: one defect, one finding, from the rule that explains it.
	Fallback bool
	// FallbackScope, for a Fallback rule, names the value within which any
	// specific finding replaces this rule's finding, given the finding's
	// pointer; nil means the finding's own value. A probe verdict sits on
	// the answer while the rule that explains it may point at the request.
	FallbackScope func(pointer string) string
	// Syntax rules check the text itself and run on every input; the
	// others run only on inputs recognized as Pilotage surfaces.
	Syntax bool
	// Locked rules cannot be disabled (their severity can change): the
	// engine's internal-error, without which a failed rule goes unnoticed.
	Locked bool
}

// Exception is one sentence that narrows a rule's quote, and the good
// fixture in fixtures/<family>/<rule>/ on which the rule stays silent
// because of it.
type Exception struct {
	// Spec is the section of the narrowing sentence, such as
	// "Part II §6.5.2".
	Spec string
	// Quote is the sentence, verbatim from the cited text.
	Quote string
	// Fixture is the good fixture's base name without .json, such as
	// "good-replay", in fixtures/<family>/<rule-id>/; or "lookalikes/NAME"
	// for one in fixtures/lookalikes/, a legal input that several rules
	// share instead of each keeping a copy. The base name starts with
	// "good".
	Fixture string
}

// Finding is one reported defect, positioned at the offending JSON value.
type Finding struct {
	Rule      string   `json:"rule"`
	Severity  Severity `json:"-"`
	File      string   `json:"file"`
	Line      int      `json:"line"`
	Column    int      `json:"column"`
	EndLine   int      `json:"end_line"`
	EndColumn int      `json:"end_column"`
	// Pointer is the RFC 6901 pointer of the value inside its document;
	// for JSON Lines, inside that line's document.
	Pointer string `json:"pointer"`
	Message string `json:"message"`
	Spec    string `json:"spec"`
	// Related are other places the finding relates to, such as the tool a
	// loop member names or the plan step a trace entry lacks.
	Related []Related `json:"related,omitempty"`
	// Key is Pointer in identity form (see KeyOf): what baselines and
	// ignores match, so they survive reordering.
	Key string `json:"-"`
}

// Related is a second location of a finding, with a note saying what it is.
type Related struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Pointer   string `json:"pointer"`
	Message   string `json:"message"`
}

// Also names a related value for Pass.With.
type Also struct {
	Node *source.Node
	Note string
}

// Same reports whether two findings are equal in every field.
func (f *Finding) Same(g *Finding) bool {
	return f.Rule == g.Rule && f.Severity == g.Severity && f.File == g.File &&
		f.Line == g.Line && f.Column == g.Column && f.EndLine == g.EndLine && f.EndColumn == g.EndColumn &&
		f.Pointer == g.Pointer && f.Message == g.Message && f.Spec == g.Spec && slices.Equal(f.Related, g.Related)
}

// located is a finding with the byte offset of its document in the file
// (-1 for none): in JSON Lines one pointer names values of many documents.
type located struct {
	Finding
	doc int32
}

// Pass is what a rule's Check receives: one snapshot, and a way to report.
type Pass struct {
	Snap *snapshot.Snapshot
	Rule *Rule

	report func(located)
	skip   func(string)
	// skipAt, when set, hears of each value a check could not judge
	// (SkipAt), after skip has.
	skipAt func(n *source.Node, what string)
	// fileOf, when set, finds a node's file instead of Snap: diff rules
	// report into either of two snapshots.
	fileOf func(*source.Node) *source.File
	// also are the related locations of the findings this Pass reports.
	also []Also
}

// With returns a Pass whose findings carry related locations: a value in
// another place that the defect involves. Values the snapshot does not
// hold are left out.
func (p *Pass) With(also ...Also) *Pass {
	q := *p
	q.also = also
	return &q
}

// NewPass returns a Pass for rule r outside the engine: its findings go to
// report, positioned by the same span logic as lint findings, and each
// node's file is found with fileOf. The diff rules, which compare two
// snapshots, report through it.
func NewPass(r *Rule, fileOf func(*source.Node) *source.File, report func(Finding)) *Pass {
	return &Pass{Rule: r, fileOf: fileOf, report: func(l located) { report(l.Finding) }, skip: func(string) {}}
}

// Report records a finding at value n.
func (p *Pass) Report(n *source.Node, format string, args ...any) {
	if n == nil {
		return
	}
	p.reportSpan(n, int(n.Start), int(n.End), format, args...)
}

// ReportKey records a finding at the member name of n (a value inside an
// object), for defects of the name rather than of the value. The pointer is
// still the member's.
func (p *Pass) ReportKey(n *source.Node, format string, args ...any) {
	if n == nil {
		return
	}
	if n.Parent == nil || n.Parent.Kind != source.Object {
		p.Report(n, format, args...)
		return
	}
	p.reportSpan(n, int(n.KeyStart()), int(n.KeyEnd()), format, args...)
}

// ReportMissing records that object n lacks member name: the finding sits at
// the object and its pointer is the object's.
func (p *Pass) ReportMissing(n *source.Node, format string, args ...any) {
	if n == nil {
		return
	}
	// Point at the opening brace only: a whole-object span hides the line.
	p.reportSpan(n, int(n.Start), int(n.Start)+1, format, args...)
}

// ReportProblem records a finding at a byte span of a file that has no
// value of its own, such as a syntax error.
func (p *Pass) ReportProblem(f *source.File, start, end int, pointer, format string, args ...any) {
	p.emit(f, start, end, pointer, -1, fmt.Sprintf(format, args...))
}

// Skip notes a cross-check the input did not allow; the engine says each
// once per snapshot.
func (p *Pass) Skip(what string) { p.skip(what) }

// SkipAt is Skip for a check of one recorded value that the rule could
// not make, such as the answer to a probe call it cannot judge offline:
// besides the summary's line, the engine keeps where (FileInfo.Unjudged),
// so that the probe coverage counts the call holding n as not judged
// rather than passed. A probe not judged is not passed.
func (p *Pass) SkipAt(n *source.Node, what string) {
	p.skip(what)
	if p.skipAt != nil && n != nil {
		p.skipAt(n, what)
	}
}

func (p *Pass) file(n *source.Node) *source.File {
	if p.fileOf != nil {
		return p.fileOf(n)
	}
	return p.Snap.FileOf(n)
}

func (p *Pass) reportSpan(n *source.Node, start, end int, format string, args ...any) {
	f := p.file(n)
	if f == nil {
		return
	}
	p.emit(f, start, end, n.Pointer(), n.Root().Start, fmt.Sprintf(format, args...))
}

func (p *Pass) emit(f *source.File, start, end int, pointer string, doc int32, msg string) {
	s, e := f.Position(start), f.Position(end)
	p.report(located{Finding{
		Rule: p.Rule.ID, Severity: p.Rule.Severity, File: f.Name,
		Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column,
		Pointer: pointer, Message: msg, Spec: p.Rule.Spec, Related: p.related(),
	}, doc})
}

func (p *Pass) related() []Related {
	var out []Related
	for _, a := range p.also {
		if a.Node == nil {
			continue
		}
		f := p.file(a.Node)
		if f == nil {
			continue
		}
		start, end := int(a.Node.Start), int(a.Node.End)
		if a.Node.Kind == source.Object || a.Node.Kind == source.Array {
			end = start + 1 // the opening bracket; a whole object hides the line
		}
		s, e := f.Position(start), f.Position(end)
		out = append(out, Related{File: f.Name, Line: s.Line, Column: s.Column, EndLine: e.Line, EndColumn: e.Column, Pointer: a.Node.Pointer(), Message: a.Note})
	}
	return out
}
