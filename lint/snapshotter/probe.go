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

// DefaultProbeTimeout bounds one probe call.
const DefaultProbeTimeout = 5 * time.Second

// Probing asks Take to send the probe set of lint/probe after the usual
// snapshot and record every probe call in the snapshot's calls.
type Probing struct {
	// Run is a valid program to test-run (--probe-run); it is sent only to
	// a Language that declares execute.test_run, with test_run: true.
	Run json.RawMessage
	// Input and Context go with Run: the run's input (--probe-input) and
	// the context of its validate and test runs (--probe-context); nil
	// when not given.
	Input, Context json.RawMessage
	// CallTimeout bounds each probe call; a call that outlives it is
	// recorded as unanswered and the probe goes on. 0 means
	// DefaultProbeTimeout.
	CallTimeout time.Duration
	// Immediate also runs Run, for real, on a Language that declares
	// execute but no execute.test_run, with execution "immediate" or
	// "both" (probe.Target.Immediate). A real Run may change the server:
	// only a caller that owns a throwaway server sets it (pilotagetest's
	// RunImmediate), never the CLI.
	Immediate bool
}

// probeRun sends the probe set and appends the recorded calls to doc's
// calls member.
func (s *session) probeRun(doc objectValue, manifest json.RawMessage, tools []*source.Node, p *Probing, res *Result) objectValue {
	per := p.CallTimeout
	if per <= 0 {
		per = DefaultProbeTimeout
	}
	var calls arrayValue
	add := func(c objectValue) { calls = append(calls, c) }
	targets, warn := probeTargets(manifest, tools, p)
	if warn != "" {
		res.Warnings = append(res.Warnings, warn)
	}
	for _, t := range targets {
		for _, pr := range probe.Set {
			if s.ctx.Err() != nil {
				break
			}
			for _, req := range pr.Build(t) {
				if pr.Pages {
					s.probePages(t, pr, req, per, add)
					continue
				}
				ex, ms := s.probeCall(req, per)
				rec := probeRecord(pr, t.Language.Name, req, ex, ms)
				if why := notRun(pr, ex); why != "" {
					rec = notRunTag(rec, why)
					res.ProbeRunNotes = append(res.ProbeRunNotes, fmt.Sprintf("the --probe-run program never ran on %s: %s; %s", t.Language.Name, why, probe.NotRunAdvice))
				}
				add(rec)
				learn(t, pr, ex)
			}
		}
	}
	if s.ctx.Err() == nil {
		for _, req := range probe.UnknownTool.Build(nil) {
			ex, ms := s.probeCall(req, per)
			add(probeRecord(probe.UnknownTool, "", req, ex, ms))
		}
	} else {
		res.Warnings = append(res.Warnings, "the session timed out before the probe finished; raise --timeout")
	}
	for i, m := range doc {
		if m.key == "calls" {
			if prev, ok := m.val.(arrayValue); ok {
				doc[i].val = append(prev, calls...)
				res.Calls += len(calls)
				return doc
			}
		}
	}
	res.Calls += len(calls)
	return append(doc, member{"calls", calls})
}

// probePages follows a catalog listing's next_cursor, one recorded call a
// page, and stops at a repeated cursor (a finding for the rule, not a
// loop) or at probe.MaxPages.
func (s *session) probePages(t *probe.Target, pr *probe.Probe, first probe.Request, per time.Duration, add func(objectValue)) {
	seen := map[string]bool{}
	req := first
	for page := 0; page < probe.MaxPages && s.ctx.Err() == nil; page++ {
		ex, ms := s.probeCall(req, per)
		add(probeRecord(pr, t.Language.Name, req, ex, ms))
		learn(t, pr, ex)
		if ex == nil || ex.err != nil {
			return
		}
		next, _ := parseRaw(ex.result).Get("structuredContent").Str("next_cursor")
		if next == "" || seen[next] {
			return
		}
		seen[next] = true
		args := map[string]any{}
		for k, v := range first.Args {
			args[k] = v
		}
		args["cursor"] = next
		req = probe.Request{Tool: first.Tool, Args: args}
	}
}

// probeCall makes one tools/call bounded by per. A nil exchange means no
// answer came in time; ms is then the time waited.
func (s *session) probeCall(req probe.Request, per time.Duration) (*exchange, int64) {
	ctx, cancel := context.WithTimeout(s.ctx, per)
	defer cancel()
	m := s.rec.mark()
	_, _ = s.cs.CallTool(ctx, &mcp.CallToolParams{Name: req.Tool, Arguments: req.Args})
	if ex := s.rec.last(m, "tools/call"); ex != nil {
		return ex, 0
	}
	return nil, per.Milliseconds()
}

// probeRecord is the recorded call: the usual name, arguments and result
// or error, plus the probe tag that tells the rules which request was
// deliberately wrong.
func probeRecord(pr *probe.Probe, language string, req probe.Request, ex *exchange, timeoutMS int64) objectValue {
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
	if ex == nil {
		tag = append(tag, member{"timeout_ms", rawValue(mustJSON(timeoutMS))})
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
func notRun(pr *probe.Probe, ex *exchange) string {
	if !pr.RunsProgram() {
		return ""
	}
	switch {
	case ex == nil:
		return probe.Refusal(nil, "timeout")
	case ex.err != nil:
		return probe.Refusal(mustJSON(ex.err), "error")
	}
	return probe.Refusal(ex.result, "result")
}

// notRunTag records the reason in the call's probe tag, so that the
// report can say why the run-based checks judged nothing.
func notRunTag(rec objectValue, why string) objectValue {
	for i, m := range rec {
		if tag, ok := m.val.(objectValue); ok && m.key == "probe" {
			rec[i].val = append(tag, member{"not_run", rawValue(mustJSON(why))})
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
	sc := parseRaw(ex.result).Get("structuredContent")
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
	var out []*probe.Target
	key := idempotencyKey()
	for i, l := range m.Languages {
		t := &probe.Target{Language: l, Caps: m.Effective(i), Program: p.Run, Input: p.Input, Context: p.Context, IdempotencyKey: key}
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
