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
	// Failed and Suppressed are set by Cover: an error finding sits at or
	// inside the call, or only a finding a baseline or ignore entry
	// suppressed does.
	Failed, Suppressed bool
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
	// why, as "probe (Language): reason".
	Why []string `json:"why,omitempty"`
}

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
}

// Statuses of a vector.
const (
	// Passed: every probe the vector names was sent, answered and judged
	// without an error finding, on every Language it applies to.
	Passed = "passed"
	// Failed: an error finding sits on a call of its probes.
	Failed = "failed"
	// Suppressed: the only error findings on its calls were suppressed
	// by a baseline or an ignore entry.
	Suppressed = "suppressed"
	// Partial: its calls were answered and judged clean, but a probe it
	// names was not sent somewhere for a reason other than the Language
	// not declaring what it needs, or a listing was not followed to its
	// end.
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

// Verdict is what the findings of a lint run say about one probe call.
type Verdict int

// The verdicts on a probe call.
const (
	// VerdictClean: no error finding sits at or inside the call.
	VerdictClean Verdict = iota
	// VerdictFailed: an error finding does.
	VerdictFailed
	// VerdictSuppressed: only error findings a baseline or an ignore
	// entry suppressed do.
	VerdictSuppressed
)

// Cover is the one function behind every coverage figure: it marks each
// call with its verdict and sums the calls and the skipped probes up by
// official server vector. It returns nil when there are no probe calls.
func Cover(calls []Call, skips []Skipped, verdict func(file, pointer string) Verdict) *Coverage {
	if len(calls) == 0 {
		return nil
	}
	cov := &Coverage{Calls: len(calls), Total: len(ServerVectors), Skipped: skips}
	sent := map[string][]*Call{}
	for i := range calls {
		c := &calls[i]
		switch verdict(c.File, c.Pointer) {
		case VerdictFailed:
			c.Failed = true
			cov.FailedCalls++
		case VerdictSuppressed:
			c.Suppressed = true
			cov.SuppressedCalls++
		}
		if c.AnswerKind != "result" && c.AnswerKind != "error" {
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
		sent[c.Probe.Name] = append(sent[c.Probe.Name], c)
	}
	skipped := map[string][]Skipped{}
	for _, s := range skips {
		skipped[s.Name] = append(skipped[s.Name], s)
	}
	cov.Vectors = make([]Vector, len(ServerVectors))
	for i, vc := range ServerVectors {
		v := &cov.Vectors[i]
		*v = Vector{ID: vc.ID, Class: vc.Class, Probes: ProbesOf(vc.ID), Rules: vc.Rules}
		switch vc.Class {
		case ByProbe, ByProbeRun:
			v.Status, v.Why = standing(vc.ID, sent, skipped)
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

// standing is the status of probed vector id, from the calls sent and
// the skips recorded, with why it is not passed. The probes whose Vector
// is id are its core: the vector applies where they do. The others it
// names support it (a listing to compare with, the Run a fetch needs);
// one of those that applies to no Language leaves nothing undone.
func standing(id string, sent map[string][]*Call, skipped map[string][]Skipped) (string, []string) {
	names := ProbesOf(id)
	core := map[string]bool{}
	for _, n := range names {
		core[n] = ByName(n).Vector == id
	}
	if !slices.ContainsFunc(names, func(n string) bool { return core[n] }) {
		for _, n := range names {
			core[n] = true
		}
	}
	// Where no core probe was sent, the skips say why.
	if !slices.ContainsFunc(names, func(n string) bool { return core[n] && len(sent[n]) > 0 }) {
		var why []string
		kind := Undeclared
		for _, n := range names {
			if !core[n] {
				continue
			}
			if len(skipped[n]) == 0 {
				return NotSent, []string{n + unrecordedWhy}
			}
			for _, s := range skipped[n] {
				why = append(why, skipLine(n, s))
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
			return NotApplicable, why
		case NoProbeRun:
			return NeedsRun, why
		}
		return NotSent, why
	}
	var failed, suppressed, unanswered bool
	var why []string
	for _, n := range names {
		for _, c := range sent[n] {
			failed = failed || c.Failed
			suppressed = suppressed || c.Suppressed
			switch {
			case c.AnswerKind != "result" && c.AnswerKind != "error":
				unanswered = true
				what := "no answer within the probe timeout"
				if c.Failure != "" {
					what = "no answer: " + c.Failure
				}
				why = append(why, fmt.Sprintf("%s (%s): %s", n, c.Language, what))
			case c.Stopped != "":
				why = append(why, fmt.Sprintf("%s (%s): not judged as a whole listing: %s", n, c.Language, c.Stopped))
			}
		}
		if len(sent[n]) == 0 && len(skipped[n]) == 0 {
			why = append(why, n+unrecordedWhy)
		}
		for _, s := range skipped[n] {
			if s.Kind != Undeclared {
				why = append(why, skipLine(n, s))
			}
		}
		if core[n] && len(sent[n]) == 0 && len(skipped[n]) > 0 && allUndeclared(skipped[n]) {
			why = append(why, n+": applies to no Language of the server")
		}
	}
	switch {
	case failed:
		return Failed, nil
	case suppressed:
		return Suppressed, why
	case unanswered:
		return Unanswered, why
	case len(why) > 0:
		return Partial, why
	}
	return Passed, nil
}

// sharedReason returns the reason every line of why gives, after its
// "probe (Language): " head, when they all give one and it is about the
// run rather than a Language (the session, the snapshot); else "".
func sharedReason(why []string) string {
	r := ""
	for _, w := range why {
		_, rest, _ := strings.Cut(w, ": ")
		switch {
		case r == "":
			r = rest
		case rest != r:
			return ""
		}
	}
	if strings.HasPrefix(r, "not sent") {
		return r
	}
	return ""
}

// unrecordedWhy ends the reason of a probe a snapshot neither sent nor
// says why.
const unrecordedWhy = ": not sent: the snapshot does not say why (it was taken before pilotage-lint recorded probe skips)"

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
		if r := sharedReason(v.Why); r != "" {
			r = strings.TrimPrefix(strings.TrimPrefix(r, "not sent"), ": ")
			head = v.Status + ": " + strings.TrimPrefix(r, ", ")
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
