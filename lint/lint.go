package lint

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
)

// Input is one document source: a file's bytes and the name reports use.
// Run parses Data in place, without copying it, so Data must not be
// modified while the run or its Result is in use.
type Input struct {
	Name string
	Data []byte
	// Read, when Data is nil, supplies the text once a worker reaches the
	// input, so that a run over many files holds only the few it is
	// linting rather than all of them from the start; an error leaves the
	// input out of the Result's Files and in its Unread.
	Read func() ([]byte, error)
	// Explicit is true when the user named the file rather than a directory
	// containing it; an unrecognized explicit file is a finding, an
	// unrecognized file met in a directory walk is skipped quietly.
	Explicit bool
}

// Options configure a run.
type Options struct {
	// Rules are the enabled rules, with their effective severities.
	Rules []*Rule
	// From, when set, is the rule table Rules were selected from (the
	// first argument of Select), at default severities. Whether a specific
	// rule explains a Fallback rule's finding is then judged from every
	// rule From runs by default, selected or not, at its default
	// severity, and the selection applies to the findings afterwards: a
	// rule that is off or regraded still explains what it reports, so
	// --disable call-store-unsupported does not bring the same defect back
	// as probe-expectation's verdict, and one defect takes one switch.
	// Without it only the rules of Rules explain, at their severities.
	From []*Rule
	// InputKind forces the kind of every input; "" detects it.
	InputKind snapshot.Kind
	// Manifest, when set, supplies the manifest to inputs without one.
	Manifest *Input
	Parse    source.Options
	Ignores  []Ignore
	// Jobs bounds parallelism; 0 means GOMAXPROCS.
	Jobs int
	// Progress, when set, is told which file each worker starts on, so a
	// timeout can say where it struck.
	Progress func(name string)
	// Release sets each input's Data to nil once it is linted, so that a
	// run over many files holds only the text its findings still quote,
	// not every file's to its end (half the page faults of a 1,000-file
	// run above the decode floor, bench/RESULTS.md). A caller that sets it
	// must not read Data after Run.
	Release bool
}

// FileInfo says how an input was read.
type FileInfo struct {
	Path string        `json:"path"`
	Kind snapshot.Kind `json:"kind"`
	// NoPilotage is true when the input carries no Pilotage signal, so no
	// rule judged it; reports say so once, in the summary, not as a
	// finding that --fail-on could trip on.
	NoPilotage bool `json:"no_pilotage,omitempty"`
	// Server and ServerVersion are the serverInfo the input's handshake
	// recorded, for reports that name the server.
	Server        string `json:"-"`
	ServerVersion string `json:"-"`
	// IgnoreHits counts, per entry of Options.Ignores, the findings of
	// this input it suppressed, so that an entry that suppresses nothing
	// anywhere can be named.
	IgnoreHits []int `json:"-"`
	// Probes are the calls snapshot --probe recorded on purpose, in file
	// order, read from the same parse the rules judged; reports use them
	// for probe coverage and to name a finding's probe.
	Probes []ProbeCall `json:"-"`
	// ProbeSkips is the snapshot's probe_skips member as recorded: the
	// probes not sent, with why, for the coverage summary.
	ProbeSkips []byte `json:"-"`
	// Unjudged are the values a rule could not judge (Pass.SkipAt), in the
	// order reported: the coverage counts a probe call holding one as not
	// judged.
	Unjudged []Unjudged `json:"-"`
	// suppressed are the findings the config's ignore entries kept out,
	// moved to Result.Suppressed.
	suppressed []Finding
}

// ProbeCall is one recorded probe call: where it sits, its tag, and the
// request and answer as recorded (slices of the input's bytes).
type ProbeCall struct {
	Pointer, Name, Language, Tool string
	Arguments, Answer             []byte
	// AnswerKind is "result", "error", or "timeout" for a call that drew
	// no answer.
	AnswerKind string
	// Tag is the call's probe tag as recorded (why a call drew nothing,
	// why a listing stopped).
	Tag []byte
}

func probeCalls(snap *snapshot.Snapshot) []ProbeCall {
	var out []ProbeCall
	for _, c := range snap.Calls {
		if c.Probe == nil || c.Probe.Name == "" {
			continue
		}
		f := snap.FileOf(c.Node)
		raw := func(n *source.Node) []byte {
			if n == nil || f == nil {
				return nil
			}
			return []byte(f.Data[n.Start:n.End])
		}
		// Copies, not slices of the input's text: a FileInfo outlives the
		// parse, and a slice would keep the whole text live (Release).
		pc := ProbeCall{Pointer: c.Node.Pointer(), Name: strings.Clone(c.Probe.Name), Language: strings.Clone(c.Probe.Language), Tool: strings.Clone(c.Name), Arguments: raw(c.Arguments), AnswerKind: "timeout", Tag: raw(c.Probe.Node)}
		switch {
		case c.Error != nil:
			pc.Answer, pc.AnswerKind = raw(c.Error), "error"
		case c.Result != nil:
			pc.Answer, pc.AnswerKind = raw(c.Result), "result"
		}
		out = append(out, pc)
	}
	return out
}

// Unjudged is a recorded value a rule could not judge (Pass.SkipAt).
type Unjudged struct {
	// Pointer is the value's RFC 6901 pointer; Rule the rule that could
	// not judge it; What says what was not judged, and why, as the
	// summary's checks not run say it.
	Pointer, Rule, What string
}

// Result is the outcome of a run.
type Result struct {
	Files    []FileInfo
	Findings []Finding
	// Skipped lists, per file, the cross-checks that could not run because
	// the input lacks a surface they compare. It is news for the summary,
	// not a defect, so it is no finding and never fails a run.
	Skipped []Skipped
	// Unread holds the errors of inputs whose Read failed: nothing judged
	// them, which a gate must report, not pass.
	Unread []error
	// Suppressed are the findings an ignore entry or a baseline kept out
	// of Findings: the probe coverage counts a probe call they sit on as
	// suppressed, never as passed.
	Suppressed []Finding
	// Manifest names the --manifest file, "" when none was given, so that
	// a report does not advise passing one.
	Manifest string
}

// Skipped names the cross-checks not run on one file.
type Skipped struct {
	File   string   `json:"file"`
	Checks []string `json:"checks"`
}

// Run lints every input, in parallel, and returns findings sorted by file,
// position and rule; the output does not depend on input order or CPU count.
func Run(ctx context.Context, inputs []Input, opt *Options) (*Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, stoppedError(err, inputs, make([]inputState, len(inputs)))
	}
	var manifest *source.File
	var manifestAlone []Finding
	var manifestHits []int
	if opt.Manifest != nil {
		manifest = source.Parse(opt.Manifest.Name, opt.Manifest.Data, opt.Parse)
		// A --manifest that holds no document (empty, cut short before its
		// first value closed, not UTF-8) joins no input, so no rule would
		// see it and the inputs would pass without their manifest: it is
		// judged on its own, as a file named on the command line.
		if len(manifest.Docs) == 0 {
			alone := *opt
			alone.Manifest = nil
			in := Input{Name: opt.Manifest.Name, Data: opt.Manifest.Data, Explicit: true}
			var info FileInfo
			info, manifestAlone = LintFile(&in, &alone)
			manifestHits = info.IgnoreHits
		}
	}
	jobs := opt.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	type out struct {
		info     FileInfo
		findings []Finding
		skipped  []string
		unread   error
	}
	outs := make([]out, len(inputs))
	next := make(chan int)
	var wg sync.WaitGroup
	// state records, per input, whether a worker finished it, or started
	// it and stopped because the context ended, so that a timeout can say
	// which inputs it left: a worker that receives an input after the end
	// leaves it unstarted, whatever order select picked.
	state := make([]inputState, len(inputs))
	for w := 0; w < jobs && w < len(inputs); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if ctx.Err() != nil {
					continue
				}
				if opt.Progress != nil {
					opt.Progress(inputs[i].Name)
				}
				if in := &inputs[i]; in.Data == nil && in.Read != nil {
					data, err := in.Read()
					if err != nil {
						outs[i], state[i] = out{unread: err}, inputDone
						continue
					}
					in.Data = data
				}
				info, fs, skips, ok := lintOne(ctx, &inputs[i], manifest, opt)
				if opt.Release {
					inputs[i].Data = nil
				}
				outs[i] = out{info: info, findings: fs, skipped: skips}
				state[i] = inputDone
				if !ok {
					state[i] = inputStopped
				}
			}
		}()
	}
feed:
	for i := range inputs {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if slices.ContainsFunc(state, func(st inputState) bool { return st != inputDone }) {
		return nil, stoppedError(ctx.Err(), inputs, state)
	}
	res := &Result{}
	var all []Finding
	for _, o := range outs {
		if o.unread != nil {
			res.Unread = append(res.Unread, o.unread)
			continue
		}
		res.Suppressed = append(res.Suppressed, o.info.suppressed...)
		o.info.suppressed = nil
		res.Files = append(res.Files, o.info)
		all = append(all, o.findings...)
		if len(o.skipped) > 0 {
			res.Skipped = append(res.Skipped, Skipped{o.info.Path, o.skipped})
		}
	}
	if manifest != nil {
		res.Manifest = manifest.Name
		res.Files = append(res.Files, FileInfo{Path: manifest.Name, Kind: snapshot.Detect(manifest), IgnoreHits: manifestHits})
		all = append(all, manifestAlone...)
	}
	res.Findings = Dedupe(all)
	sort.SliceStable(res.Files, func(i, j int) bool { return res.Files[i].Path < res.Files[j].Path })
	sort.SliceStable(res.Skipped, func(i, j int) bool { return res.Skipped[i].File < res.Skipped[j].File })
	return res, nil
}

// inputState is how far Run got with one input.
type inputState uint8

const (
	inputPending inputState = iota
	inputDone
	inputStopped // started, and left at a rule boundary when the context ended
)

// stoppedError names the inputs state says were left stopped or pending.
func stoppedError(err error, inputs []Input, state []inputState) *StoppedError {
	se := &StoppedError{Err: err}
	for i, st := range state {
		switch st {
		case inputStopped:
			se.Files = append(se.Files, inputs[i].Name)
		case inputPending:
			se.Pending = append(se.Pending, inputs[i].Name)
		}
	}
	sort.Strings(se.Files)
	return se
}

// StoppedError is Run's error when its context ended before every input
// was linted: Files names those being linted then, Pending those not yet
// started, in input order. Rules are not interrupted: each input stops at
// the next rule boundary.
type StoppedError struct {
	Err     error
	Files   []string
	Pending []string
}

func (e *StoppedError) Error() string {
	return fmt.Sprintf("%v%s", e.Err, e.Where())
}

// Where says what the stop left unlinted, for a message that begins with
// what stopped the run: " while linting a.json; 3 more inputs not
// started", or " before linting a.json" when nothing had started. A long
// list of pending inputs is counted rather than named.
func (e *StoppedError) Where() string {
	var b strings.Builder
	switch {
	case len(e.Files) > 0:
		b.WriteString(" while linting " + strings.Join(e.Files, ", "))
		if n := len(e.Pending); n > 0 {
			fmt.Fprintf(&b, "; %d more %s not started", n, Plural(n, "input"))
		}
	case len(e.Pending) > 0 && len(e.Pending) <= 3:
		b.WriteString(" before linting " + strings.Join(e.Pending, ", "))
	case len(e.Pending) > 3:
		fmt.Fprintf(&b, " before linting any of %d inputs", len(e.Pending))
	}
	return b.String()
}

// Plural is word, with an s unless n is 1, for counts in messages.
func Plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func (e *StoppedError) Unwrap() error { return e.Err }

// LintFile lints one input on its own, with no --manifest.
func LintFile(in *Input, opt *Options) (FileInfo, []Finding) {
	info, fs, _, _ := lintOne(context.Background(), in, nil, opt)
	return info, Dedupe(fs)
}

// lintOne lints one input and names the cross-checks it skipped; ok is
// false when ctx ended before every rule ran.
func lintOne(ctx context.Context, in *Input, manifest *source.File, opt *Options) (FileInfo, []Finding, []string, bool) {
	return contained(in, opt, func() (FileInfo, []Finding, []string, bool) { return judge(ctx, in, manifest, opt) })
}

// contained runs the engine's own reading of an input (parse, detection,
// the listing checks), which no rule's containment covers: a failure there
// must still fail this input with a finding, not end the whole run.
func contained(in *Input, opt *Options, read func() (FileInfo, []Finding, []string, bool)) (info FileInfo, out []Finding, skips []string, ok bool) {
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("PILOTAGE_LINT_DEBUG_PANIC") != "" {
				panic(r)
			}
			info, skips, ok = FileInfo{Path: in.Name, Kind: opt.InputKind}, nil, true
			out = []Finding{engineFinding(opt.Rules, InternalRule, &source.File{Name: in.Name}, fmt.Sprintf("pilotage-lint failed reading this input (%v), so no rule judged it; please report this as a pilotage-lint bug", r))}
		}
	}()
	return read()
}

// judge is lintOne's work: parse, detection, the engine's own checks and
// every selected rule.
func judge(ctx context.Context, in *Input, manifest *source.File, opt *Options) (info FileInfo, _ []Finding, skips []string, ok bool) {
	po := opt.Parse
	po.NoCopy = true // the run owns Input.Data; see Input
	f := source.Parse(in.Name, in.Data, po)
	var mf *source.File
	if manifest != nil {
		// Each input gets its own parse of the shared --manifest: a File
		// indexes its lines lazily on the first Position, which workers
		// linting other inputs would race on.
		mf = source.Parse(manifest.Name, []byte(manifest.Data), opt.Parse)
	}
	snap, err := snapshot.BuildWith(f, snapshot.Options{Kind: opt.InputKind, Manifest: mf})
	var findings []located
	// ignored[i] says an ignore entry covers findings[i].
	var ignored []bool
	var hits []int
	if len(opt.Ignores) > 0 {
		hits = make([]int, len(opt.Ignores))
	}
	defer func() { info.IgnoreHits = hits }()
	report := func(fd located) {
		fd.Key = findingKey(f, snap, fd)
		if fd.Rule != "" {
			findings = append(findings, fd)
			ignored = append(ignored, len(opt.Ignores) > 0 && Suppress(opt.Ignores, &fd.Finding, hits, logicalPointers(f, snap, fd)...))
		}
	}
	var merr *snapshot.ManifestError
	if errors.As(err, &merr) {
		report(located{engineFinding(opt.Rules, InputKindRule, merr.File, err.Error()), -1})
		err = nil
	}
	if err != nil {
		report(located{engineFinding(opt.Rules, InputKindRule, f, err.Error()), -1})
		if snap == nil {
			return FileInfo{Path: in.Name, Kind: opt.InputKind}, dropCovered(findings, ignored, nil, opt), nil, true
		}
	}
	// A document read as a kind it does not fit would draw findings about a
	// reading the user did not mean; only the text rules apply to it.
	unknown := snap.Kind == snapshot.KindUnknown || err != nil
	// A gate fails closed: text that does not parse is judged by the text
	// rules, Pilotage signal or not, when the user named the file, forced
	// its kind, or the walk met it under a name no config file has; a
	// truncated snapshot must not pass because the break came before its
	// first Pilotage word.
	judgeText := unparsed(f) && (in.Explicit || opt.InputKind != "" || !SkippedByName(in.Name))
	if snap.Kind == snapshot.KindUnknown && err == nil && !in.Explicit && !judgeText && len(f.Docs) == 0 && !mentionsMCP(f.Data) {
		return FileInfo{Path: in.Name, Kind: snap.Kind}, nil, nil, true
	}
	if snap.Kind == snapshot.KindUnknown && err == nil && len(f.Docs) > 0 {
		if !in.Explicit && !judgeText {
			return FileInfo{Path: in.Name, Kind: snap.Kind}, nil, nil, true
		}
		if in.Explicit {
			report(located{engineFinding(opt.Rules, InputKindRule, f, "this JSON is none of the inputs pilotage-lint understands (manifest, tools/list, initialize or discover result, JSON-RPC capture, snapshot); pass --input-kind to say what it is"), -1})
		}
	}
	// A listing the server refused leaves nothing to judge; that is said
	// whatever the signal, or the gate would pass a broken server.
	if r := selected(opt.Rules, ListFailedRule); r != nil && snap.Kind == snapshot.KindSnapshot {
		for _, d := range f.Docs {
			for _, list := range []string{"tools", "resources"} {
				if e := d.Root.Path(list, "error"); e.IsObject() {
					msg, _ := e.Str("message")
					// A hand-edited or truncated snapshot may hold an error
					// without a numeric code; it is still a refused listing.
					answer := "JSON-RPC error"
					if c := e.Get("code"); c != nil && c.Kind == source.Number {
						answer += " " + c.Text()
					}
					if msg != "" {
						answer += " " + strconv.Quote(msg)
					}
					p := &Pass{Snap: snap, Rule: r, report: report, skip: func(string) {}}
					p.ReportMissing(e, "the server answered %s/list with %s, so the snapshot holds no %s and nothing about them was checked; fix the server and take the snapshot again", list, answer, list)
				}
			}
		}
	}
	// Pilotage binds only Servers that implement it: without a signal no
	// rule runs, not even the text rules, unless the input is blank or
	// does not parse (judgeText), when only the text rules run.
	silent := !snap.Pilotage() && !snap.Blank() && !judgeText
	if judgeText && !snap.Pilotage() {
		unknown = true
	}
	skipped := map[string]bool{}
	runs := func(r *Rule) bool { return r.Check != nil && (!unknown || r.Syntax) && !silent }
	var unjudged []Unjudged
	for _, r := range opt.Rules {
		if ctx.Err() != nil {
			return FileInfo{Path: in.Name, Kind: snap.Kind}, nil, nil, false
		}
		if !runs(r) {
			continue
		}
		p := &Pass{Snap: snap, Rule: r, report: report, skip: func(what string) {
			if !skipped[what] {
				skipped[what] = true
				skips = append(skips, what)
			}
		}, skipAt: func(n *source.Node, what string) {
			// Only this input's values: a pointer into the --manifest
			// would name a value of another file.
			if snap.FileOf(n) == f {
				unjudged = append(unjudged, Unjudged{Pointer: n.Pointer(), Rule: r.ID, What: what})
			}
		}}
		runRule(p, f, opt.Rules)
	}
	// The rules the selection left out run only to explain a fallback's
	// finding, and only when there is one to explain: their own findings,
	// skips and failures are not the run's.
	var explained []located
	if needsExplaining(findings, ignored, opt.Rules) {
		for _, r := range unselected(opt) {
			if ctx.Err() != nil {
				return FileInfo{Path: in.Name, Kind: snap.Kind}, nil, nil, false
			}
			if !runs(r) {
				continue
			}
			p := &Pass{Snap: snap, Rule: r, skip: func(string) {}, report: func(fd located) {
				if fd.Rule == r.ID {
					explained = append(explained, fd)
				}
			}}
			runRule(p, f, opt.Rules)
		}
	}
	sort.Strings(skips)
	var suppressed []Finding
	for i, fd := range findings {
		if ignored[i] {
			suppressed = append(suppressed, fd.Finding)
		}
	}
	info = FileInfo{Path: in.Name, Kind: snap.Kind, NoPilotage: silent, Probes: probeCalls(snap), Unjudged: unjudged, suppressed: suppressed}
	if snap.Kind == snapshot.KindSnapshot {
		for _, d := range f.Docs {
			if sk := d.Root.Get("probe_skips"); sk.IsArray() {
				info.ProbeSkips = []byte(f.Data[sk.Start:sk.End])
			}
		}
	}
	// A server/discover result of the stateless revision carries it in
	// _meta, under io.modelcontextprotocol/serverInfo, as the Go SDK
	// writes it.
	for _, si := range []*source.Node{snap.Initialize.Get("serverInfo"), snap.Discover.Get("serverInfo"), snap.Discover.Path("_meta", "io.modelcontextprotocol/serverInfo")} {
		if si.IsObject() && info.Server == "" {
			name, _ := si.Str("name")
			version, _ := si.Str("version")
			info.Server, info.ServerVersion = strings.Clone(name), strings.Clone(version)
		}
	}
	return info, dropCovered(findings, ignored, explained, opt), skips, true
}

// needsExplaining reports whether a fallback rule's finding survives the
// ignore entries, so that the rules the selection left out must run to
// say whether they explain it.
func needsExplaining(fs []located, ignored []bool, rules []*Rule) bool {
	fallback := map[string]bool{}
	for _, r := range rules {
		if r.Fallback {
			fallback[r.ID] = true
		}
	}
	for i, f := range fs {
		if !ignored[i] && fallback[f.Rule] {
			return true
		}
	}
	return false
}

// unselected are the rules of opt.From that run by default and that the
// selection left out, as From has them. A fallback rule explains nothing,
// so none is among them.
func unselected(opt *Options) []*Rule {
	var out []*Rule
	for _, r := range opt.From {
		if r.Fallback || r.Deprecated && !r.Locked || selected(opt.Rules, r) != nil {
			continue
		}
		out = append(out, r)
	}
	return out
}

// dropCovered removes a fallback rule's findings at values where, or inside
// which, a specific rule already reported in the same document: the shape
// check's complaint about an object is the specific rule's defect seen from
// further out. A specific finding an ignore entry covers still covers its
// fallback: ignoring manifest-retention-format must not bring the same
// defect back as shape-manifest; so does one of a rule the selection left
// out (explained, see Options.From), and with From every finding weighs
// its rule's default severity. It returns the rest, less the ignored.
func dropCovered(fs []located, ignored []bool, explained []located, opt *Options) []Finding {
	fallback := map[string]bool{}
	scope := map[string]func(string) string{}
	for _, r := range opt.Rules {
		if r.Fallback {
			fallback[r.ID] = true
			if r.FallbackScope != nil {
				scope[r.ID] = r.FallbackScope
			}
		}
	}
	// weight is a finding's severity for the comparison: its rule's
	// default when the selection's table is known, so that regrading a
	// rule changes its findings, not what explains what.
	base := map[string]Severity{}
	for _, r := range opt.From {
		base[r.ID] = r.Severity
	}
	weight := func(f *located) Severity {
		if s, ok := base[f.Rule]; ok {
			return s
		}
		return f.Severity
	}
	type at struct {
		file, pointer string
		doc           int32
	}
	// covered holds, for every pointer at or above a specific finding, the
	// highest severity found there. A specific finding at the fallback's
	// own value explains it whatever its grade (shape-manifest's error on
	// an unknown closed-set value yields to the rule that grades it info);
	// one elsewhere in a FallbackScope must weigh as much to replace it.
	covered := map[at]Severity{}
	for _, f := range slices.Concat(fs, explained) {
		if fallback[f.Rule] || f.doc < 0 {
			continue
		}
		w := weight(&f)
		ptr := f.Pointer
		for {
			key := at{f.File, ptr, f.doc}
			if covered[key] >= w {
				break
			}
			covered[key] = w
			i := strings.LastIndexByte(ptr, '/')
			if i < 0 {
				break
			}
			ptr = ptr[:i]
		}
	}
	out := make([]Finding, 0, len(fs))
	for i, f := range fs {
		if ignored[i] {
			continue
		}
		if fallback[f.Rule] {
			if covered[at{f.File, f.Pointer, f.doc}] > 0 {
				continue
			}
			if sc := scope[f.Rule]; sc != nil && covered[at{f.File, sc(f.Pointer), f.doc}] >= weight(&fs[i]) {
				continue
			}
		}
		out = append(out, f.Finding)
	}
	return out
}

// runRule contains a rule that panics: the finding says which rule broke on
// which file, and the other rules still run.
func runRule(p *Pass, f *source.File, rules []*Rule) {
	defer func() {
		if r := recover(); r != nil {
			if os.Getenv("PILOTAGE_LINT_DEBUG_PANIC") != "" {
				panic(r) // a developer asked for the stack
			}
			p.report(located{engineFinding(rules, InternalRule, f, fmt.Sprintf("rule %s failed on this input (%v); the other rules still ran; please report this as a pilotage-lint bug", p.Rule.ID, r)), -1})
		}
	}()
	p.Rule.Check(p)
}

// selected returns the copy of engine rule r in the selection, which
// carries its effective severity, or nil when the user turned it off.
func selected(rules []*Rule, r *Rule) *Rule {
	for _, s := range rules {
		if s.ID == r.ID {
			return s
		}
	}
	return nil
}

// engineFinding is a finding of engine rule r at the start of f, graded as
// the selection says; the zero Finding (no Rule) when r is off, which
// report callers drop.
func engineFinding(rules []*Rule, r *Rule, f *source.File, msg string) Finding {
	if r = selected(rules, r); r == nil {
		return Finding{}
	}
	return Finding{Rule: r.ID, Severity: r.Severity, File: f.Name, Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Message: msg, Spec: r.Spec}
}

// Dedupe sorts findings and drops exact repeats, which arise when a
// --manifest file is combined with several inputs.
func Dedupe(fs []Finding) []Finding {
	Sort(fs)
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f.Same(&fs[i-1]) {
			continue
		}
		out = append(out, f)
	}
	return out
}

// Sort orders findings by file, position, rule, pointer and message.
func Sort(fs []Finding) {
	sort.Slice(fs, func(i, j int) bool {
		a, b := &fs[i], &fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		if a.EndLine != b.EndLine {
			return a.EndLine < b.EndLine
		}
		if a.EndColumn != b.EndColumn {
			return a.EndColumn < b.EndColumn
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		if a.Pointer != b.Pointer {
			return a.Pointer < b.Pointer
		}
		return a.Message < b.Message
	})
}
