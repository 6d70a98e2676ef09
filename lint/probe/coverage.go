package probe

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Call is one recorded probe call of a snapshot file, as the reports show
// it.
type Call struct {
	File, Pointer string
	Probe         *Probe
	Language      string
	Tool          string
	Arguments     json.RawMessage
	// Answer is the result or the JSON-RPC error, as recorded; nil when the
	// call drew none.
	Answer     json.RawMessage
	AnswerKind string // "result", "error" or "timeout" (no answer)
	// Failure is why a call drew no answer, when not a timeout: the
	// transport's reason, as the tag records it.
	Failure string
	// Stopped is why a catalog listing was not followed further (a page
	// cap, a repeated cursor or entry), on its last recorded page.
	Stopped string
}

// ReadTag fills the members of c that the call's probe tag holds beyond
// its name: the reason a call failed, and why a listing stopped.
func (c *Call) ReadTag(tag []byte) {
	var t struct {
		Failure string `json:"failure"`
		Stopped string `json:"stopped"`
	}
	if json.Unmarshal(tag, &t) == nil {
		c.Failure, c.Stopped = t.Failure, t.Stopped
	}
}

// ReadSkips reads a snapshot's probe_skips member, naming file.
func ReadSkips(file string, raw []byte) []Skipped {
	var out []Skipped
	if json.Unmarshal(raw, &out) != nil {
		return nil
	}
	for i := range out {
		out[i].File = file
	}
	return out
}

// Vector is the standing of one official server vector in a lint run.
type Vector struct {
	ID string `json:"id"`
	// Class is how the vector is reached (docs/vectors.md).
	Class Class `json:"class"`
	// Status is one of the statuses below.
	Status string   `json:"status"`
	Probes []string `json:"probes,omitempty"`
	Rules  []string `json:"rules,omitempty"`
	// Why says, for every status of a probed vector but passed and
	// failed, which of its probes were not sent, answered or judged, and
	// why, as "probe (Language): reason"; for a suppressed one, first what
	// was suppressed.
	Why []string `json:"why,omitempty"`
	// session is the reason every line of Why gives when each is a probe
	// the session ended before sending (Skip kind Unsent), or that a
	// snapshot does not say why it did not send: the text report gives
	// the vectors that share it one line.
	session string
	// failedAt is the first call that failed the vector (file, pointer).
	failedAt [2]string
}

// FailedAt returns the file and pointer of the first call that failed
// the vector; "" when none did.
func (v *Vector) FailedAt() (file, pointer string) { return v.failedAt[0], v.failedAt[1] }

// NotRun is a Language on which the user's --probe-run program never ran.
type NotRun struct {
	File     string `json:"file"`
	Language string `json:"language"`
	Reason   string `json:"reason"`
}

// Coverage sums up the probe calls of a lint run against every official
// server vector. Every report (text, JSON, HTML) and pilotagetest take
// their figures from Cover, so that they agree.
type Coverage struct {
	Calls           int `json:"calls"`
	FailedCalls     int `json:"failed_calls"`
	SuppressedCalls int `json:"suppressed_calls"`
	UnansweredCalls int `json:"unanswered_calls"`
	// UnjudgedCalls are the answered calls no finding failed or suppressed
	// where a rule could not judge the answer (lint.Pass.SkipAt).
	UnjudgedCalls int `json:"unjudged_calls"`
	// Total is the number of official server vectors; the vectors_*
	// figures below add up to it. Probed counts the vectors some probe
	// call of which was sent: passed, failed, suppressed, partly probed
	// and not answered.
	Total         int `json:"vectors_total"`
	Probed        int `json:"vectors_probed"`
	Passed        int `json:"vectors_passed"`
	Failed        int `json:"vectors_failed"`
	Suppressed    int `json:"vectors_suppressed"`
	Partial       int `json:"vectors_partly_probed"`
	Unanswered    int `json:"vectors_not_answered"`
	NotApplicable int `json:"vectors_not_applicable"`
	NeedsRun      int `json:"vectors_need_probe_run"`
	NotSent       int `json:"vectors_not_sent"`
	Offline       int `json:"vectors_offline"`
	Recorded      int `json:"vectors_recorded"`
	Setup         int `json:"vectors_need_setup"`
	// Vectors are in ID order.
	Vectors []Vector `json:"vectors"`
	// Skipped are the probes not sent to a Language, with why.
	Skipped []Skipped `json:"skipped,omitempty"`
	// NotRun says where the --probe-run program never ran, and why.
	NotRun []NotRun `json:"not_run,omitempty"`
	// verdicts are the calls' verdicts, by file and pointer.
	verdicts map[[2]string]Verdict
}

// Verdict returns the verdict on the probe call at pointer ("/calls/N")
// of file; VerdictClean for a call Cover was not given.
func (c *Coverage) Verdict(file, pointer string) Verdict {
	return c.verdicts[[2]string{file, pointer}]
}

// Statuses of a vector.
const (
	// Passed: every probe the vector names was sent, answered and judged
	// without a failing finding, on every Language it applies to.
	Passed = "passed"
	// Failed: a failing finding that counts for the vector (see Cover)
	// sits on a call of its probes.
	Failed = "failed"
	// Suppressed: the only such findings were suppressed by a baseline or
	// an ignore entry.
	Suppressed = "suppressed"
	// Partial: its calls were answered and judged clean, but a probe it
	// names was not sent somewhere for a reason other than the Language
	// not declaring what it needs, a rule could not judge an answer, or a
	// listing was not followed to its end.
	Partial = "partly probed"
	// Unanswered: a call of its probes drew no answer, and no finding
	// failed it.
	Unanswered = "not answered"
	// NotApplicable: no probe of it was sent, since no Language declares
	// what they need.
	NotApplicable = "not applicable"
	// NeedsRun: no probe of it was sent, and only --probe-run could send
	// one.
	NeedsRun = "needs --probe-run"
	// NotSent: no probe of it was sent, for another reason (no value fits
	// the declared schema, no refused Run to fetch, the session ended).
	NotSent = "not sent"
	// The classes no probe exercises.
	JudgedOffline = "judged offline"
	FromRecorded  = "judged from recorded calls"
	NeedsSetup    = "needs setup"
)

// ExpectationRule is the rule that judges each probe call against its
// probe's expectation, which belongs to the probe's own vector.
const ExpectationRule = "probe-expectation"

// ListingRule is the rule that judges a catalog listing as a whole, which
// a listing that stopped (Call.Stopped) leaves unjudged.
const ListingRule = "call-listing-incomplete"

// MarkKind says what a Mark is.
type MarkKind uint8

// The kinds of Mark.
const (
	// MarkFailed: a finding that fails the run (at or above its fail
	// threshold).
	MarkFailed MarkKind = iota + 1
	// MarkSuppressed: such a finding, kept out of the findings by a
	// baseline or an ignore entry.
	MarkSuppressed
	// MarkUnjudged: a value a rule could not judge (lint.Pass.SkipAt).
	MarkUnjudged
)

// Mark is what a lint run says about one value of a snapshot, as far as
// the probe coverage is concerned.
type Mark struct {
	File, Pointer string
	// Rule reported the finding, or could not judge the value.
	Rule string
	Kind MarkKind
	// What says, for MarkUnjudged, what was not judged and why.
	What string
}

// Verdict is what the marks of a lint run say about one probe call.
type Verdict int

// The verdicts on a probe call, most severe first among the marks.
const (
	// VerdictClean: answered, and no mark sits at or inside the call.
	VerdictClean Verdict = iota
	// VerdictFailed: a failing finding does.
	VerdictFailed
	// VerdictSuppressed: only failing findings a baseline or an ignore
	// entry suppressed do.
	VerdictSuppressed
	// VerdictUnanswered: the call drew no answer, and no finding says so.
	VerdictUnanswered
	// VerdictUnjudged: answered, no failing finding, and a rule could not
	// judge the answer.
	VerdictUnjudged
)

// String is the verdict as the HTML report's badge says it.
func (v Verdict) String() string {
	switch v {
	case VerdictFailed:
		return "fail"
	case VerdictSuppressed:
		return "suppressed"
	case VerdictUnanswered:
		return "no answer"
	case VerdictUnjudged:
		return "not judged"
	}
	return "pass"
}

// marked is a call with the marks that sit at or inside it.
type marked struct {
	*Call
	failed, suppressed []string // rules
	unjudged           []Mark
}

// counts reports whether a mark of rule on the call bears on the vector
// vc: always on a call of one of its core probes (a specific rule may
// stand in for probe-expectation there, so the rule need not be one the
// vector lists), and on a call of a probe it names only for support when
// rule is one that decides vc. probe-expectation judges a probe against
// its own vector's expectation, so it never counts for support.
func counts(vc *VectorClass, core bool, rule string) bool {
	return core || rule != ExpectationRule && slices.Contains(vc.Rules, rule)
}

// Cover is the one function behind every coverage figure: it gives each
// call its verdict and sums the calls and the skipped probes up by
// official server vector. A mark (a failing, suppressed or unjudged
// finding) counts for a vector as counts says, so an error on a listing
// fails the vectors it decides and not every vector that names the
// listing. It returns nil when there are no probe calls and no skipped
// probes: a snapshot taken without --probe.
func Cover(calls []Call, skips []Skipped, marks []Mark) *Coverage {
	if len(calls) == 0 && len(skips) == 0 {
		return nil
	}
	cov := &Coverage{Calls: len(calls), Total: len(ServerVectors), Skipped: skips, verdicts: make(map[[2]string]Verdict, len(calls))}
	// Each mark goes to the call that holds it, in one pass: the calls
	// are not each matched against every finding.
	on := map[[2]string]*marked{}
	for i := range calls {
		on[[2]string{calls[i].File, calls[i].Pointer}] = &marked{Call: &calls[i]}
	}
	for _, m := range marks {
		mc := on[[2]string{m.File, CallOf(m.Pointer)}]
		if mc == nil {
			continue
		}
		switch m.Kind {
		case MarkFailed:
			mc.failed = append(mc.failed, m.Rule)
		case MarkSuppressed:
			mc.suppressed = append(mc.suppressed, m.Rule)
		case MarkUnjudged:
			mc.unjudged = append(mc.unjudged, m)
		}
	}
	sent := map[string][]*marked{}
	for i := range calls {
		c := &calls[i]
		mc := on[[2]string{c.File, c.Pointer}]
		answered := c.AnswerKind == "result" || c.AnswerKind == "error"
		v := VerdictClean
		switch {
		case len(mc.failed) > 0:
			v = VerdictFailed
			cov.FailedCalls++
		case len(mc.suppressed) > 0:
			v = VerdictSuppressed
			cov.SuppressedCalls++
		case !answered:
			v = VerdictUnanswered
		case len(mc.unjudged) > 0:
			v = VerdictUnjudged
			cov.UnjudgedCalls++
		}
		cov.verdicts[[2]string{c.File, c.Pointer}] = v
		if !answered {
			cov.UnansweredCalls++
		}
		if c.Probe.RunsProgram() {
			if why := Refusal(c.Answer, c.AnswerKind); why != "" {
				if c.Failure != "" {
					why = "the call failed: " + c.Failure
				}
				cov.NotRun = append(cov.NotRun, NotRun{File: c.File, Language: c.Language, Reason: why})
			}
		}
		sent[c.Probe.Name] = append(sent[c.Probe.Name], mc)
	}
	skipped := map[string][]Skipped{}
	for _, s := range skips {
		skipped[s.Name] = append(skipped[s.Name], s)
	}
	cov.Vectors = make([]Vector, len(ServerVectors))
	for i := range ServerVectors {
		vc := &ServerVectors[i]
		v := &cov.Vectors[i]
		*v = Vector{ID: vc.ID, Class: vc.Class, Probes: ProbesOf(vc.ID), Rules: vc.Rules}
		switch vc.Class {
		case ByProbe, ByProbeRun:
			standing(vc, v, sent, skipped)
		case Offline:
			v.Status = JudgedOffline
		case Recorded:
			v.Status = FromRecorded
		default:
			v.Status = NeedsSetup
		}
		cov.count(v.Status)
	}
	cov.Probed = cov.Passed + cov.Failed + cov.Suppressed + cov.Partial + cov.Unanswered
	sort.Slice(cov.Vectors, func(i, j int) bool { return cov.Vectors[i].ID < cov.Vectors[j].ID })
	return cov
}

func (c *Coverage) count(status string) {
	switch status {
	case Passed:
		c.Passed++
	case Failed:
		c.Failed++
	case Suppressed:
		c.Suppressed++
	case Partial:
		c.Partial++
	case Unanswered:
		c.Unanswered++
	case NotApplicable:
		c.NotApplicable++
	case NeedsRun:
		c.NeedsRun++
	case NotSent:
		c.NotSent++
	case JudgedOffline:
		c.Offline++
	case FromRecorded:
		c.Recorded++
	default:
		c.Setup++
	}
}

// reason is one line of a vector's Why; session is the reason itself when
// it is about the session rather than a Language (see Vector.session).
type reason struct{ line, session string }

// skipReason is the reason line of a skipped probe.
func skipReason(name string, s Skipped) reason {
	r := reason{line: skipLine(name, s)}
	if s.Kind == Unsent {
		r.session = s.Reason
	}
	return r
}

// unrecorded is the reason of a probe a snapshot neither sent nor says
// why.
func unrecorded(name string) reason {
	return reason{line: name + ": " + unrecordedWhy, session: unrecordedWhy}
}

// standing sets the status of probed vector vc in v, from the calls sent
// and the skips recorded, with why it is not passed. The probes whose
// Vector is vc's are its core: the vector applies where they do. The
// others it names support it (a listing to compare with, the Run a fetch
// needs); one of those that applies to no Language leaves nothing undone.
func standing(vc *VectorClass, v *Vector, sent map[string][]*marked, skipped map[string][]Skipped) {
	names := v.Probes
	core := map[string]bool{}
	for _, n := range names {
		core[n] = ByName(n).Vector == vc.ID
	}
	if !slices.ContainsFunc(names, func(n string) bool { return core[n] }) {
		for _, n := range names {
			core[n] = true
		}
	}
	var why []reason
	defer func() {
		for _, r := range why {
			v.Why = append(v.Why, r.line)
		}
		v.session = sharedSession(why)
	}()
	// Where no core probe was sent, the skips say why.
	if !slices.ContainsFunc(names, func(n string) bool { return core[n] && len(sent[n]) > 0 }) {
		kind := Undeclared
		for _, n := range names {
			if !core[n] {
				continue
			}
			if len(skipped[n]) == 0 {
				v.Status, why = NotSent, []reason{unrecorded(n)}
				return
			}
			for _, s := range skipped[n] {
				why = append(why, skipReason(n, s))
				switch {
				case s.Kind == Undeclared:
				case s.Kind == NoProbeRun && kind != otherSkip:
					kind = NoProbeRun
				default:
					kind = otherSkip
				}
			}
		}
		switch kind {
		case Undeclared:
			v.Status = NotApplicable
		case NoProbeRun:
			v.Status = NeedsRun
		default:
			v.Status = NotSent
		}
		return
	}
	var unanswered bool
	var suppressed []reason
	for _, n := range names {
		for _, c := range sent[n] {
			if slices.ContainsFunc(c.failed, func(r string) bool { return counts(vc, core[n], r) }) {
				if v.failedAt[1] == "" {
					v.failedAt = [2]string{c.File, c.Pointer}
				}
				continue
			}
			var rules []string
			for _, r := range c.suppressed {
				if counts(vc, core[n], r) && !slices.Contains(rules, r) {
					rules = append(rules, r)
				}
			}
			if len(rules) > 0 {
				suppressed = append(suppressed, reason{line: fmt.Sprintf("%s (%s): %s suppressed by a baseline or ignore entry", n, c.Language, strings.Join(rules, ", "))})
			}
			switch {
			case c.AnswerKind != "result" && c.AnswerKind != "error":
				unanswered = true
				what := "no answer within the probe timeout"
				if c.Failure != "" {
					what = "no answer: " + c.Failure
				}
				why = append(why, reason{line: fmt.Sprintf("%s (%s): %s", n, c.Language, what)})
			case c.Stopped != "" && counts(vc, core[n], ListingRule):
				why = append(why, reason{line: fmt.Sprintf("%s (%s): not judged as a whole listing: %s", n, c.Language, c.Stopped)})
			}
			for _, m := range c.unjudged {
				if counts(vc, core[n], m.Rule) {
					why = append(why, reason{line: fmt.Sprintf("%s (%s): not judged: %s", n, c.Language, m.What)})
				}
			}
		}
		if len(sent[n]) == 0 && len(skipped[n]) == 0 {
			why = append(why, unrecorded(n))
		}
		for _, s := range skipped[n] {
			if s.Kind != Undeclared {
				why = append(why, skipReason(n, s))
			}
		}
		if core[n] && len(sent[n]) == 0 && len(skipped[n]) > 0 && allUndeclared(skipped[n]) {
			why = append(why, reason{line: n + ": applies to no Language of the server"})
		}
	}
	switch {
	case v.failedAt[1] != "":
		v.Status, why = Failed, nil
	case len(suppressed) > 0:
		v.Status, why = Suppressed, append(suppressed, why...)
	case unanswered:
		v.Status = Unanswered
	case len(why) > 0:
		v.Status = Partial
	default:
		v.Status = Passed
	}
}

// sharedSession returns the reason every line gives when each is about
// the session rather than a Language (a probe the session ended before
// sending, a snapshot from before skips were recorded), and they all give
// the same one; else "".
func sharedSession(why []reason) string {
	if len(why) == 0 {
		return ""
	}
	for _, r := range why {
		if r.session == "" || r.session != why[0].session {
			return ""
		}
	}
	return why[0].session
}

// unrecordedWhy is the reason of a probe a snapshot neither sent nor says
// why.
const unrecordedWhy = "not sent: the snapshot does not say why (it was taken before pilotage-lint recorded probe skips)"

// otherSkip stands, in standing, for any reason a core probe was not
// sent other than Undeclared and NoProbeRun.
const otherSkip SkipKind = "other"

func skipLine(name string, s Skipped) string {
	if s.Language == "" {
		return name + ": " + s.Reason
	}
	return fmt.Sprintf("%s (%s): %s", name, s.Language, s.Reason)
}

func allUndeclared(skips []Skipped) bool {
	for _, s := range skips {
		if s.Kind != Undeclared {
			return false
		}
	}
	return true
}

// NotSentWhy says why probe was sent to no Language, joining the reasons
// per Language; "" when it was sent somewhere or no reason is recorded.
func (c *Coverage) NotSentWhy(probe string) string {
	var out []string
	for _, s := range c.Skipped {
		if s.Name != probe {
			continue
		}
		if s.Language == "" {
			out = append(out, s.Reason)
		} else {
			out = append(out, s.Language+": "+s.Reason)
		}
	}
	return strings.Join(out, "; ")
}

// CallOf returns the pointer of the recorded call ("/calls/N") that holds
// pointer, or "" when pointer lies outside the snapshot's calls.
func CallOf(pointer string) string {
	rest, ok := strings.CutPrefix(pointer, "/calls/")
	if !ok || rest == "" {
		return ""
	}
	if i := strings.IndexByte(rest, '/'); i >= 0 {
		rest = rest[:i]
	}
	return "/calls/" + rest
}

// Inside reports whether pointer is call or a value inside it.
func Inside(pointer, call string) bool {
	return pointer == call || strings.HasPrefix(pointer, call+"/")
}

// String is the summary the text report prints: one line of figures; a
// line per vector that was probed but not passed or failed, saying why;
// and one line per Language where the --probe-run program never ran.
func (c *Coverage) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "probe coverage: %d of %d official server vectors probed (%d passed, %d failed", c.Probed, c.Total, c.Passed, c.Failed)
	for _, f := range []struct {
		n    int
		what string
	}{{c.Suppressed, "suppressed"}, {c.Partial, "partly probed"}, {c.Unanswered, "not answered"}} {
		if f.n > 0 {
			fmt.Fprintf(&b, ", %d %s", f.n, f.what)
		}
	}
	fmt.Fprintf(&b, "), %d not applicable", c.NotApplicable)
	if c.NeedsRun > 0 {
		fmt.Fprintf(&b, ", %d need --probe-run", c.NeedsRun)
	}
	if c.NotSent > 0 {
		fmt.Fprintf(&b, ", %d not sent", c.NotSent)
	}
	fmt.Fprintf(&b, ", %d judged offline, %d judged only from recorded calls, %d need a setup no probe may create; %d probe calls, %d failed", c.Offline, c.Recorded, c.Setup, c.Calls, c.FailedCalls)
	if c.SuppressedCalls > 0 {
		fmt.Fprintf(&b, ", %d suppressed", c.SuppressedCalls)
	}
	if c.UnansweredCalls > 0 {
		fmt.Fprintf(&b, ", %d not answered", c.UnansweredCalls)
	}
	if c.UnjudgedCalls > 0 {
		fmt.Fprintf(&b, ", %d not judged", c.UnjudgedCalls)
	}
	// Vectors whose probes share one reason (a lost connection, a
	// snapshot from before skips were recorded) share one line.
	type group struct {
		head string
		ids  []string
	}
	var groups []*group
	for _, v := range c.Vectors {
		switch v.Status {
		case Suppressed, Partial, Unanswered, NotSent:
		default:
			continue
		}
		head := v.ID + " " + v.Status
		if len(v.Why) > 0 {
			head += ": " + strings.Join(v.Why, "; ")
		}
		if v.session != "" {
			// The snapshotter's reason for a probe the session ended
			// before sending opens with the status's own words.
			head = v.Status + ": " + strings.TrimPrefix(v.session, v.Status+": ")
		}
		i := slices.IndexFunc(groups, func(g *group) bool { return g.head == head })
		if i < 0 {
			groups = append(groups, &group{head: head})
			i = len(groups) - 1
		}
		groups[i].ids = append(groups[i].ids, v.ID)
	}
	for _, g := range groups {
		if strings.HasPrefix(g.head, g.ids[0]+" ") {
			fmt.Fprintf(&b, "\nprobe coverage: %s", g.head)
		} else {
			fmt.Fprintf(&b, "\nprobe coverage: %s: %s", g.head, strings.Join(g.ids, ", "))
		}
	}
	for _, n := range c.NotRun {
		fmt.Fprintf(&b, "\nprobe-run: %s: the program never ran on %s: %s; %s", n.File, n.Language, n.Reason, NotRunAdvice)
	}
	return b.String()
}
