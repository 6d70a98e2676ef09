package snapshotter

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/lint/probe"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// DefaultProbeTimeout bounds one probe call, and the read of the manifest
// resource every snapshot makes.
const DefaultProbeTimeout = 5 * time.Second

// Probing asks Take to send the probe set of lint/probe after the usual
// snapshot and record every probe call in the snapshot's calls.
type Probing struct {
	// Run is a valid program to run (--probe-run): with test_run: true on
	// a Language that declares execute.test_run, and, only when Immediate
	// is set, for real without test_run on a Language that declares
	// execute but no test run.
	Run json.RawMessage
	// Input and Context go with Run: the run's input (--probe-input) and
	// the context of its validate and test runs (--probe-context); nil
	// when not given.
	Input, Context json.RawMessage
	// CallTimeout bounds each probe call, and the read of the manifest
	// resource (with the second pilotage_manifest call it may need); a
	// call that outlives it is recorded as unanswered and the probe goes
	// on. 0 means DefaultProbeTimeout.
	CallTimeout time.Duration
	// Immediate also runs Run, for real, on a Language that declares
	// execute but no execute.test_run, with execution "immediate" or
	// "both" (probe.Target.Immediate). A real Run may change the server:
	// only a caller that owns a throwaway server sets it (pilotagetest's
	// RunImmediate), never the CLI.
	Immediate bool
}

// probeRun sends the probe set and appends the recorded calls to doc's
// calls member, and the probes not sent, with why, as probe_skips.
func (s *session) probeRun(doc objectValue, manifest json.RawMessage, tools []*source.Node, p *Probing, res *Result) objectValue {
	per := s.per
	var calls, skips arrayValue
	add := func(c objectValue) { calls = append(calls, c) }
	skip := func(pr *probe.Probe, language string, why *probe.Skip) {
		sk := objectValue{{"name", rawValue(mustJSON(pr.Name))}}
		if language != "" {
			sk = append(sk, member{"language", rawValue(mustJSON(language))})
		}
		skips = append(skips, append(sk, member{"kind", rawValue(mustJSON(why.Kind))}, member{"reason", rawValue(mustJSON(why.Reason))}))
		if why.Kind == probe.Unsent && s.lost == "" {
			s.unsent++
		}
	}
	targets, warn := probeTargets(manifest, tools, p)
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	for _, t := range targets {
		for _, pr := range probe.Set {
			if why := s.over(); why != nil {
				skip(pr, t.Language.Name, why)
				continue
			}
			reqs, why := pr.Build(t)
			if why == nil {
				reqs, why = t.Fit(reqs)
			}
			if why != nil {
				skip(pr, t.Language.Name, why)
				continue
			}
			for _, req := range reqs {
				if pr.Pages > 0 {
					s.probePages(t, pr, req, per, add)
					continue
				}
				ans := s.probeCall(pr, t.Language.Name, req, per)
				rec := probeRecord(pr, t.Language.Name, req, ans)
				if why := notRun(pr, ans); why != "" {
					rec = tagWith(rec, "not_run", why)
					res.ProbeRunNotes = append(res.ProbeRunNotes, fmt.Sprintf("the --probe-run program never ran on %s: %s; %s", t.Language.Name, why, probe.NotRunAdvice))
				}
				add(rec)
				learn(t, pr, ans.ex)
			}
		}
	}
	if why := s.over(); why != nil {
		skip(probe.UnknownTool, "", why)
	} else {
		reqs, _ := probe.UnknownTool.Build(nil)
		for _, req := range reqs {
			add(probeRecord(probe.UnknownTool, "", req, s.probeCall(probe.UnknownTool, "", req, per)))
		}
	}
	res.Failures = append(res.Failures, s.failures...)
	res.FailedCalls += len(s.failures)
	res.Calls += len(calls)
	done := false
	for i, m := range doc {
		if m.key == "calls" {
			if prev, ok := m.val.(arrayValue); ok {
				doc[i].val = append(prev, calls...)
				done = true
			}
		}
	}
	if !done {
		doc = append(doc, member{"calls", calls})
	}
	if len(skips) > 0 {
		doc = append(doc, member{"probe_skips", skips})
	}
	return doc
}

// over says why no more probes can be sent, or nil: the session's
// --timeout ran out, or the connection to the server was lost.
func (s *session) over() *probe.Skip {
	switch {
	case s.lost != "":
		return &probe.Skip{Kind: probe.Unsent, Reason: "not sent: " + s.lost}
	case s.ctx.Err() != nil:
		return &probe.Skip{Kind: probe.Unsent, Reason: "not sent: the session ran out of its --timeout first"}
	}
	return nil
}

// probePages follows a catalog listing's next_cursor unchanged, one
// recorded call a page, and stops at the probe's page cap, at a cursor
// already followed, or at a page that lists an entry an earlier page
// listed; the last page's tag says which stopped it. A repeat is the
// rules' to judge, not a loop to follow.
func (s *session) probePages(t *probe.Target, pr *probe.Probe, first probe.Request, per time.Duration, add func(objectValue)) {
	cursors := map[string]int{}
	entries := map[string]int{}
	req := first
	for page := 1; s.over() == nil; page++ {
		ans := s.probeCall(pr, t.Language.Name, req, per)
		rec := probeRecord(pr, t.Language.Name, req, ans)
		ex := ans.ex
		learn(t, pr, ex)
		if ex == nil || ex.err != nil {
			add(rec)
			return
		}
		sc := source.ParseValue(ex.result).Get("structuredContent")
		repeat := ""
		for _, e := range sc.Get("items").Items() {
			id, ok := e.Str("id")
			if !ok {
				continue
			}
			if at, seen := entries[id]; seen && at < page && repeat == "" {
				repeat = fmt.Sprintf("entry %q of page %d was listed on page %d already; the listing was not followed further", id, page, at)
			}
			if _, seen := entries[id]; !seen {
				entries[id] = page
			}
		}
		next, _ := sc.Str("next_cursor")
		stop := ""
		switch {
		case next == "":
		case repeat != "":
			stop = repeat
		case cursors[next] > 0:
			stop = fmt.Sprintf("next_cursor %q was followed from page %d already; the listing was not followed further", next, cursors[next])
		case page == pr.Pages:
			stop = fmt.Sprintf("stopped at the cap of %d pages with next_cursor still set", pr.Pages)
		}
		if stop != "" {
			add(tagWith(rec, "stopped", stop))
			return
		}
		add(rec)
		if next == "" {
			return
		}
		cursors[next] = page
		args := map[string]any{}
		for k, v := range first.Args {
			args[k] = v
		}
		args["cursor"] = next
		req = probe.Request{Tool: first.Tool, Args: args}
	}
}

// answer is what one probe call drew: the exchange, or why none came.
type answer struct {
	ex *exchange
	// waited is the wait the call outlived, when no answer came in time.
	waited time.Duration
	// failure says why no answer came, for any other reason.
	failure string
	// cut is set when the session's --timeout ended the wait: the server
	// was never given the whole per-call wait, so its silence says
	// nothing.
	cut bool
}

// probeCall makes one tools/call of probe pr to language bounded by per.
// A call that fails for a transport reason is named in the session's
// failures, and a lost connection ends the probe.
func (s *session) probeCall(pr *probe.Probe, language string, req probe.Request, per time.Duration) answer {
	ctx, cancel := context.WithTimeout(s.ctx, per)
	defer cancel()
	start := time.Now()
	m := s.rec.mark()
	if s.watch != nil {
		s.watch.resetOverflow()
	}
	_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: req.Tool, Arguments: req.Args})
	if ex := s.rec.last(m, "tools/call"); ex != nil {
		s.failedInARow = 0
		return answer{ex: ex}
	}
	switch {
	case s.ctx.Err() != nil:
		// The session's --timeout cut the call short: recorded with the
		// wait it had, and tagged so that no rule takes it for the
		// server's silence.
		waited := time.Since(start).Truncate(time.Millisecond)
		who := "probe " + pr.Label()
		if language != "" {
			who += " on " + language
		}
		s.cutShort(fmt.Sprintf("%s, %d ms into its wait", who, waited.Milliseconds()))
		return answer{waited: waited, cut: true}
	case ctx.Err() != nil:
		s.failedInARow = 0
		return answer{waited: per}
	}
	why, lost := s.transportFailure(err)
	s.failures = append(s.failures, fmt.Sprintf("tools/call %s: %s", req.Tool, why))
	// The SDK fails some connections for good without saying so (a JSON
	// body it could not read): a second failure in a row is taken as one.
	s.failedInARow++
	if (lost || s.failedInARow > 1) && s.lost == "" {
		s.lost = "the connection to the server was lost (" + why + ")"
	}
	return answer{failure: why}
}

// probeRecord is the recorded call: the usual name, arguments and result
// or error, plus the probe tag that tells the rules which request was
// deliberately wrong, and for a call that drew nothing, why.
func probeRecord(pr *probe.Probe, language string, req probe.Request, ans answer) objectValue {
	tag := objectValue{{"name", rawValue(mustJSON(pr.Name))}}
	if pr.Vector != "" {
		tag = append(tag, member{"vector", rawValue(mustJSON(pr.Vector))})
	}
	if pr.Defect != "" {
		tag = append(tag, member{"defect", rawValue(mustJSON(pr.Defect))})
	}
	if language != "" {
		tag = append(tag, member{"language", rawValue(mustJSON(language))})
	}
	ex := ans.ex
	switch {
	case ex != nil:
	case ans.failure != "":
		tag = append(tag, member{"failure", rawValue(mustJSON(ans.failure))})
	default:
		tag = append(tag, member{"timeout_ms", rawValue(mustJSON(ans.waited.Milliseconds()))})
		if ans.cut {
			tag = append(tag, member{"cut", rawValue(mustJSON("session"))})
		}
	}
	c := objectValue{{"name", rawValue(mustJSON(req.Tool))}, {"arguments", rawValue(mustJSON(req.Args))}}
	switch {
	case ex == nil:
	case ex.err != nil:
		c = append(c, member{"error", rawValue(mustJSON(ex.err))})
	default:
		c = append(c, member{"result", rawValue(ex.result)})
	}
	return append(c, member{"probe", tag})
}

// notRun is the server's reason why a test run of the user's program
// never started, or "".
func notRun(pr *probe.Probe, ans answer) string {
	if !pr.RunsProgram() {
		return ""
	}
	switch {
	case ans.failure != "":
		return "the call failed: " + ans.failure
	case ans.cut:
		return "the session's --timeout cut the call short"
	case ans.ex == nil:
		return probe.Refusal(nil, "timeout")
	case ans.ex.err != nil:
		return probe.Refusal(mustJSON(ans.ex.err), "error")
	}
	return probe.Refusal(ans.ex.result, "result")
}

// tagWith adds key: value to the call's probe tag: why the program never
// ran, why a listing stopped.
func tagWith(rec objectValue, key, value string) objectValue {
	for i, m := range rec {
		if tag, ok := m.val.(objectValue); ok && m.key == "probe" {
			rec[i].val = append(tag, member{key, rawValue(mustJSON(value))})
		}
	}
	return rec
}

// learn keeps what later probes need from an answer: the listed guides,
// the catalog ids, the run_id of the refused Run.
func learn(t *probe.Target, pr *probe.Probe, ex *exchange) {
	if ex == nil || ex.err != nil {
		return
	}
	sc := source.ParseValue(ex.result).Get("structuredContent")
	switch pr.Name {
	case "guide-index":
		for _, g := range sc.Get("guides").Items() {
			id, _ := g.Str("id")
			if id == "" {
				continue
			}
			var topics []string
			for _, tp := range g.Get("topics").Items() {
				if tp.IsString() {
					topics = append(topics, tp.Text())
				}
			}
			t.Guides = append(t.Guides, probe.Guide{ID: id, Topics: topics})
		}
	case "catalog-list":
		for _, e := range sc.Get("items").Items() {
			if id, _ := e.Str("id"); id != "" {
				t.Entries = append(t.Entries, id)
			}
		}
	case "execute-invalid-program":
		t.RefusedRun, _ = sc.Str("run_id")
	case "validate-program":
		t.CatalogVersion, _ = sc.Str("catalog_version")
	case "execute-test-run":
		if probe.Refusal(ex.result, "result") != "" {
			return
		}
		t.Ran = true
		if t.Language.Retention != "" && t.Language.Retention != "none" {
			t.UnstoredRun, _ = sc.Str("run_id")
		}
	case "execute-test-run-store":
		if probe.Refusal(ex.result, "result") == "" {
			t.StoredRun, _ = sc.Str("run_id")
		}
	}
}

// probeTargets reads the recorded manifest and tools into one target per
// Language.
func probeTargets(manifestResult json.RawMessage, tools []*source.Node, p *Probing) ([]*probe.Target, string) {
	var env struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
	}
	var m types.Manifest
	if err := json.Unmarshal(manifestResult, &env); err != nil || len(env.StructuredContent) == 0 {
		return nil, "the pilotage_manifest result has no structuredContent, so only the server-wide probes ran"
	}
	if err := json.Unmarshal(env.StructuredContent, &m); err != nil {
		return nil, fmt.Sprintf("the manifest does not decode (%v), so only the server-wide probes ran", err)
	}
	byName := map[string]*source.Node{}
	for _, t := range tools {
		if n, _ := t.Str("name"); n != "" {
			byName[n] = t
		}
	}
	schemas := map[string]*source.Node{}
	for name, t := range byName {
		if is := t.Get("inputSchema"); is != nil {
			schemas[name] = is
		}
	}
	var out []*probe.Target
	key := idempotencyKey()
	for i, l := range m.Languages {
		t := &probe.Target{Language: l, Caps: m.Effective(i), Program: p.Run, Input: p.Input, Context: p.Context, IdempotencyKey: key, InputSchemas: schemas}
		t.Immediate = p.Immediate && !t.Caps.SubFeature("execute", "test_run") && (l.Execution == "immediate" || l.Execution == "both")
		t.ValidateArg, t.ValidateType = programArg(byName[l.Loop.Validate], l.Name)
		t.ExecuteArg, t.ExecuteType = programArg(byName[l.Loop.Execute], l.Name)
		out = append(out, t)
	}
	return out, ""
}

// idempotencyKey is a key no earlier snapshot used: a replay must meet
// this snapshot's first request, not an old one's record.
func idempotencyKey() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "pilotage-probe-" + hex.EncodeToString(b)
}

// programArg returns the program-bearing argument a loop tool declares for
// language (Part III §5) and the JSON type its schema gives it.
func programArg(tool *source.Node, language string) (string, string) {
	if tool == nil {
		return "", ""
	}
	decl := tool.Get("_meta").Get(types.MetaKey)
	arg := ""
	if l, _ := decl.Str("language"); l == language {
		arg, _ = decl.Str("argument")
	}
	for _, e := range decl.Get("languages").Items() {
		if l, _ := e.Str("language"); l == language {
			arg, _ = e.Str("argument")
		}
	}
	if arg == "" {
		return "", ""
	}
	typ, _ := tool.Get("inputSchema").Get("properties").Get(arg).Str("type")
	return arg, typ
}
