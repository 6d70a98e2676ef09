package pilotagetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/report"
	"github.com/pilotagekit/pilotagekit/lint/rules"
	"github.com/pilotagekit/pilotagekit/lint/snapshotter"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// surfaces names the case of findings outside the probe calls and the
// calls of Calls.
const surfaces = "surfaces"

// abandonAfter is how long past its Timeout a session may take to end
// before it is abandoned: closing a session waits for its handlers, and a
// handler that ignores its context never returns.
const abandonAfter = 500 * time.Millisecond

// recording is the part of a snapshot the cases are built from.
type recording struct {
	Manifest *struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	} `json:"manifest"`
	Calls []recordedCall `json:"calls"`
}

// recordedCall is one entry of the snapshot's calls.
type recordedCall struct {
	Tool      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result"`
	Error     json.RawMessage `json:"error"`
	Probe     *struct {
		Name      string `json:"name"`
		Language  string `json:"language"`
		TimeoutMS *int64 `json:"timeout_ms"`
		Failure   string `json:"failure"`
		Cut       string `json:"cut"`
		NotRun    string `json:"not_run"`
	} `json:"probe"`

	// pointer is the call's place, "/calls/N"; user is its 1-based index
	// in Calls, 0 for a probe call or the snapshot's own.
	pointer string
	user    int
}

// answer returns the recorded answer, its kind ("result", "error" or
// "none") and the member of the call that holds it.
func (c *recordedCall) answer() (json.RawMessage, string, string) {
	switch {
	case c.Error != nil:
		return c.Error, "error", "error"
	case c.Result != nil:
		return c.Result, "result", "result"
	}
	return nil, "none", ""
}

// noAnswer says why a call drew no answer, as its probe tag records it:
// the transport failure that ended it, or the wait it outlived.
func (c *recordedCall) noAnswer() string {
	switch {
	case c.Probe != nil && c.Probe.Failure != "":
		return "the call failed: " + c.Probe.Failure
	case c.Probe != nil && c.Probe.TimeoutMS != nil:
		return fmt.Sprintf("no answer within %d ms", *c.Probe.TimeoutMS)
	}
	return "no answer was recorded"
}

// testRun reports whether the call asked for a test run: its arguments
// carry test_run: true at the top level, whatever the program says.
func (c *recordedCall) testRun() bool {
	var args map[string]json.RawMessage
	return json.Unmarshal(c.Arguments, &args) == nil && string(args["test_run"]) == "true"
}

func (c *recordedCall) probeName() string {
	if c.Probe == nil {
		return ""
	}
	return c.Probe.Name
}

func check(ctx context.Context, so snapshotter.Options, opts []Option) (*Report, error) {
	c := config{failOn: Error}
	for _, o := range opts {
		o(&c)
	}
	// The selection is the CLI's, and so is what it means: a rule that
	// is off or regraded still explains the probe it reports on, so that
	// probe-expectation does not stand in for it (lint.Options.From).
	table := rules.Lint()
	ruleSet, err := lint.Select(table, c.sel)
	if err != nil {
		return nil, err
	}
	if c.immediate && c.program == nil {
		return nil, errors.New("RunImmediate runs the program of ProbeRun; give ProbeRun too")
	}
	for i, call := range c.calls {
		args := strings.TrimSpace(string(call.Arguments))
		switch {
		case call.Name == "":
			return nil, fmt.Errorf("Calls: call %d has no name", i+1)
		case args != "" && args != "null" && !strings.HasPrefix(args, "{"):
			return nil, fmt.Errorf("Calls: the arguments of call %d (%s) are not a JSON object", i+1, call.Name)
		}
	}
	timeout := c.timeout
	if timeout <= 0 {
		timeout = snapshotter.DefaultTimeout
	}
	so.Probe = &snapshotter.Probing{Run: c.program, Immediate: c.immediate, CallTimeout: c.callTimeout}
	so.Calls = c.calls
	so.Timeout = timeout
	so.ClientVersion = "pilotagetest"
	var watch *watcher
	if so.Transport != nil {
		watch = &watcher{Transport: so.Transport}
		so.Transport = watch
	}
	// The session's own deadline, seen from here: when it passes, the
	// probes after that point were never sent, and a pass would vouch for
	// what was not checked.
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type taken struct {
		res *snapshotter.Result
		err error
	}
	done := make(chan taken, 1)
	go func() {
		res, err := snapshotter.Take(sctx, so)
		done <- taken{res, err}
	}()
	var tk taken
	select {
	case tk = <-done:
	case <-time.After(timeout + abandonAfter):
		// Take ends on its deadline unless closing the session hangs on
		// something that ignores cancellation: abandon it.
		return &Report{Failures: []string{fmt.Sprintf("the session did not end within its %s and was abandoned%s; nothing was linted", timeout, watch.waiting())}}, nil
	}
	if tk.err != nil {
		return nil, fmt.Errorf("recording the server failed: %w", tk.err)
	}
	res := tk.res
	sessionOver := sctx.Err() != nil
	name := "pilotage.snapshot.json"
	if c.snapshot != "" {
		name = c.snapshot
		if err := os.MkdirAll(filepath.Dir(c.snapshot), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(c.snapshot, res.JSON, 0o644); err != nil {
			return nil, err
		}
	}
	lr, err := lint.Run(ctx, []lint.Input{{Name: name, Data: res.JSON, Explicit: true}}, &lint.Options{Rules: ruleSet, From: table})
	if err != nil {
		return nil, err
	}
	var rec recording
	if err := json.Unmarshal(res.JSON, &rec); err != nil {
		return nil, fmt.Errorf("reading the recording: %w", err)
	}
	markUserCalls(&rec, len(c.calls))

	rep := &Report{}
	for _, w := range res.Warnings {
		rep.Notes = append(rep.Notes, "snapshot: "+w)
	}
	// A probe call that failed for a transport reason (a server that
	// exited, an answer over the size bound, a dropped connection) fails
	// the server whatever the rule selection, as it fails snapshot: the
	// call was not answered and the probes after a lost connection were
	// never sent, so no rule selection can make that a pass.
	for _, f := range res.Failures {
		rep.Failures = append(rep.Failures, "a probe call failed for a transport reason, so the probe is incomplete: "+f)
	}
	if sessionOver {
		rep.Failures = append(rep.Failures, ranOut(timeout, rec.Calls))
	}
	byID := map[string]*lint.Rule{}
	for _, r := range ruleSet {
		byID[r.ID] = r
	}
	for _, fi := range lr.Files {
		if fi.NoPilotage {
			// Fail closed: a Pilotage test of a server that shows no
			// Pilotage at all must not pass in silence.
			rep.Failures = append(rep.Failures, "the server shows no Pilotage signal, so no rule judged it")
		}
	}

	// The figures are those of pilotage-lint's reports, from the same
	// function, over the findings the selection keeps.
	rep.Coverage = report.Coverage(lr, report.ProbesOf(lr), c.failOn)
	cases := map[string]*Case{surfaces: {Name: surfaces}}
	rep.Cases = append(rep.Cases, cases[surfaces])
	for _, p := range append(slices.Clone(probe.Set), probe.UnknownTool) {
		pc := &Case{Name: p.Name, Vector: p.Vector, Probe: p.Name, Skipped: "not applicable: no Language of the server declares what this probe needs"}
		if p.Uses != probe.NoProgram {
			pc.Skipped = "not applicable: it judges a run of the program of ProbeRun, and none ran (success-path says why)"
		}
		// The recording says why, per Language, when it does.
		if rep.Coverage != nil {
			if why := rep.Coverage.NotSentWhy(p.Name); why != "" {
				pc.Skipped = "not sent: " + why
			}
		}
		if p.Vector != "" {
			pc.Name = p.Vector + "/" + p.Name
		}
		rep.Cases = append(rep.Cases, pc)
		cases[p.Name] = pc
	}
	// caseOf is the case of each recorded call, by its pointer.
	caseOf := map[string]*Case{}
	for i := range rec.Calls {
		rc := &rec.Calls[i]
		switch {
		case rc.probeName() != "" && cases[rc.probeName()] != nil:
			cases[rc.probeName()].Skipped = ""
			caseOf[rc.pointer] = cases[rc.probeName()]
		case rc.user > 0:
			uc := &Case{Name: fmt.Sprintf("calls/%d-%s", rc.user, rc.Tool), Call: rc.user}
			rep.Cases = append(rep.Cases, uc)
			caseOf[rc.pointer] = uc
		}
	}
	rep.Cases = append(rep.Cases, successPaths(&c, &rec)...)
	// No rule judges a probe call the session's deadline cut short (the
	// server was not given its wait), but its case is no pass.
	for _, rc := range rec.Calls {
		if rc.Probe != nil && rc.Probe.Cut == "session" && caseOf[rc.pointer] != nil {
			caseOf[rc.pointer].Failures = append(caseOf[rc.pointer].Failures, fmt.Sprintf("got no answer before the session ran out of its %s (tools/call %s)", timeout, rc.Tool))
		}
	}
	for _, pc := range panicked(rec.Calls) {
		if cs := caseOf[pc.call.pointer]; cs != nil {
			cs.Failures = append(cs.Failures, pc.msg)
		} else {
			cases[surfaces].Failures = append(cases[surfaces].Failures, pc.msg)
		}
	}

	for _, f := range lr.Findings {
		call := callAt(rec.Calls, f.Pointer)
		pc := cases[surfaces]
		if call != nil && caseOf[call.pointer] != nil {
			pc = caseOf[call.pointer]
		}
		msg := describe(f, byID[f.Rule], call)
		if c.snapshot == "" {
			msg += " (in memory; WriteSnapshot keeps the recording)"
		}
		if f.Severity >= c.failOn {
			pc.Failures = append(pc.Failures, msg)
		} else {
			pc.Logs = append(pc.Logs, msg)
		}
	}
	// A probe call no rule could judge (its tool's schema cannot be read
	// offline, say) is no pass: its case is skipped with the reason, as
	// the coverage counts its vector partly probed.
	for _, fi := range lr.Files {
		for _, u := range fi.Unjudged {
			call := callAt(rec.Calls, u.Pointer)
			if call == nil || caseOf[call.pointer] == nil {
				continue
			}
			if cs := caseOf[call.pointer]; len(cs.Failures) == 0 && cs.Skipped == "" {
				cs.Skipped = "not judged: " + u.What
			}
		}
	}
	return rep, nil
}

// markUserCalls gives each recorded call its pointer, and the calls of
// Calls their index. They are recorded in order after the snapshot's own
// (a failed pilotage_manifest) and before the probes; one that drew no
// answer is missing, which the snapshot's warnings say.
func markUserCalls(rec *recording, n int) {
	var plain []int
	for i := range rec.Calls {
		rec.Calls[i].pointer = "/calls/" + strconv.Itoa(i)
		if rec.Calls[i].Probe == nil {
			plain = append(plain, i)
		}
	}
	// The snapshot's own call comes first when the manifest is missing.
	if len(plain) > n && rec.Manifest == nil && rec.Calls[plain[0]].Tool == types.ToolManifest {
		plain = plain[1:]
	}
	for k, i := range plain {
		if k < n {
			rec.Calls[i].user = k + 1
		}
	}
}

// callAt returns the recorded call that holds pointer, or nil.
func callAt(calls []recordedCall, pointer string) *recordedCall {
	at := probe.CallOf(pointer)
	for i := range calls {
		if at != "" && calls[i].pointer == at {
			return &calls[i]
		}
	}
	return nil
}

// ranOut says that the session ran out, and names the probe that was
// still waiting for its answer when it did.
func ranOut(timeout time.Duration, calls []recordedCall) string {
	msg := fmt.Sprintf("the session ran out of its %s before the probe finished, so the probes after that point were not sent", timeout)
	for i := len(calls) - 1; i >= 0; i-- {
		c := calls[i]
		if c.Probe == nil || c.Probe.TimeoutMS == nil {
			continue
		}
		who := "probe " + c.Probe.Name
		if p := probe.ByName(c.Probe.Name); p != nil {
			who = "probe " + p.Label()
		}
		if c.Probe.Language != "" {
			who += " on " + c.Probe.Language
		}
		return fmt.Sprintf("the session ran out of its %s while %s was waiting for its answer (tools/call %s); a handler that blocks and ignores its context holds the session, so the probes after it were not sent and the session was abandoned: make the handler return when its context is done, or raise Timeout", timeout, who, c.Tool)
	}
	return msg + "; raise it with Timeout, or find the call that hung"
}

// successPaths are the success-path cases: per Language that declares
// execute, what judged a successful Run, or why nothing did.
func successPaths(c *config, rec *recording) []*Case {
	if rec.Manifest == nil {
		return nil
	}
	var m types.Manifest
	if json.Unmarshal(rec.Manifest.StructuredContent, &m) != nil {
		return nil
	}
	var out []*Case
	for i, l := range m.Languages {
		caps := m.Effective(i)
		if !caps.Declared(string(types.CapExecute)) || l.Name == "" {
			continue
		}
		sc := &Case{Name: "success-path/" + l.Name}
		out = append(out, sc)
		var judged []string
		sent, refused := false, ""
		for _, rc := range rec.Calls {
			if rc.user > 0 && rc.Tool == l.Loop.Execute && rc.Result != nil {
				judged = append(judged, fmt.Sprintf("call %d of Calls", rc.user))
			}
			if rc.probeName() != "execute-test-run" || rc.Probe.Language != l.Name {
				continue
			}
			sent = true
			if rc.Probe.NotRun != "" {
				refused = rc.Probe.NotRun
				continue
			}
			how := "test run"
			if !rc.testRun() {
				how = "real run (RunImmediate)"
			}
			judged = append(judged, fmt.Sprintf("the %s of the program of ProbeRun and the run probes after it", how))
		}
		testRun := caps.SubFeature(string(types.CapExecute), types.SubTestRun)
		switch {
		case len(judged) > 0:
			sc.Logs = append(sc.Logs, "the success path of "+l.Name+" was judged through "+strings.Join(judged, " and "))
		case refused != "":
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: the program of ProbeRun never ran there: %s; give a program of this Language (with its input and context), or Calls", l.Name, refused)
		case sent:
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: the program of ProbeRun drew no answer", l.Name)
		case c.program == nil:
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: give ProbeRun(program), which is test-run where execute.test_run is declared", l.Name)
			if !testRun {
				sc.Skipped += fmt.Sprintf(" (%s declares none, so add RunImmediate() to run it for real on this test instance)", l.Name)
			}
			sc.Skipped += ", or Calls(...) with runs of your own"
		case !testRun && l.Execution == types.ExecutionDeploy:
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: it has execution deploy and no execute.test_run, so there is no run to make; record one with Calls(...)", l.Name)
		case !testRun && !c.immediate:
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: it declares no execute.test_run, so the program of ProbeRun is not run there; RunImmediate() runs it for real on this test instance, or Calls(...) records runs of your own", l.Name)
		default:
			sc.Skipped = fmt.Sprintf("no successful Run of %s was judged: no probe could send the program (the execute tool %q or its program argument is missing from the listing)", l.Name, l.Loop.Execute)
		}
	}
	return out
}
