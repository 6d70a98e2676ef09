package calls

import (
	"strings"

	"github.com/pilotagekit/pilotagekit/lint"
	"github.com/pilotagekit/pilotagekit/lint/rules/rulekit"
	"github.com/pilotagekit/pilotagekit/lint/snapshot"
	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

func callPlanRules() []*lint.Rule {
	return []*lint.Rule{
		{
			ID: "call-plan-step-id-reserved", Severity: lint.Error, Spec: "Part II §3.4",
			Quote:   "A Server MUST reject a program containing either reserved character in a program step identifier and MUST report the violation through a diagnostic.",
			Keyword: "MUST",
			Summary: "A validate call answered valid: true with a plan whose step identifier contains / or #.",
			Doc:     "Trace identifiers append #n for loop iterations and use / for expanded sub-programs (Part II §5.8.2), so a program step identifier containing either character makes base-identifier recovery ambiguous; the Server must refuse such a program with a diagnostic (Part II §3.4). A plan carrying one shows the program was accepted.",
			Bad:     `{"valid": true, "diagnostics": [], "plan": {"steps": [{"id": "lights/on", "risk": "write", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}, "calls": "light.lobby"}]}}`,
			Good:    `{"valid": true, "diagnostics": [], "plan": {"steps": [{"id": "lights_on", "risk": "write", "risk_hints": {"readOnly": false, "destructive": false, "openWorld": false}, "calls": "light.lobby"}]}}`,
			Check:   checkCallPlanStepIDReserved,
		},
		{
			ID: "call-calls-without-catalog", Severity: lint.Error, Spec: "Part II §3.2, §4.3",
			Quote:   "A Language with environment-bound names MUST declare `catalog`.",
			Keyword: "MUST",
			Summary: "A recorded plan or trace of a Language that does not declare catalog has a step naming a catalog entry in calls.",
			Doc:     "calls names the catalog entry or promoted program a step invokes (Part II §5.6, §5.8): a Language whose programs invoke such names has environment-bound names, and must declare catalog so that Clients can look them up and validation can check them (Part II §3.2, §4.3). A step with calls in a Language without catalog shows names the Client had no way to discover.",
			Bad:     `{"manifest": {"languages": [{"name": "flow/1", "capabilities": {"guides": true, "validate": true, "plan": true}}]}, "plan": {"steps": [{"id": "on", "calls": "light.lobby"}]}}`,
			Good:    `{"manifest": {"languages": [{"name": "flow/1", "capabilities": {"guides": true, "catalog": true, "validate": true, "plan": true}}]}, "plan": {"steps": [{"id": "on", "calls": "light.lobby"}]}}`,
			Check:   checkCallCallsWithoutCatalog,
		},
		{
			ID: "call-drifted-ref-ran", Severity: lint.Error, Spec: "Part II §5.4, §6.5.2",
			Quote:   "A mismatch is terminal for that reference. The program MUST be promoted again, producing a new reference and a new baseline.",
			Keyword: "MUST",
			Summary: "A program_ref refused with promotion_drift was later run under the same reference.",
			Doc:     "A promoted program records a baseline of the catalog fields it depends on; once execute finds a difference and refuses with promotion_drift, the reference is dead, and only a new promotion, with a new reference, may run the program again (Part II §5.4). A later Run under the old reference executes a program whose assumptions the Server itself declared broken.",
			Bad:     `[{"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_2", "outcome": {"ok": true, "status": "success", "error": null}}}}]`,
			Good:    `[{"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_1", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}, {"name": "run_flow", "arguments": {"program_ref": "auto_001"}, "result": {"structuredContent": {"run_id": "run_2", "outcome": {"ok": false, "status": "promotion_drift", "error": "lock.dock_door changed"}}}}]`,
			Check:   checkCallDriftedRefRan,
		},
		{
			ID: "call-trace-calls-missing", Severity: lint.Error, Spec: "Part II §5.8.4",
			Quote:   "Every trace entry that invokes a catalog entry MUST identify it in `calls`.",
			Keyword: "MUST",
			Summary: "A trace entry lacks calls although the recorded plan of the same program says its step invokes a catalog entry.",
			Doc:     "The Host approved the catalog entries the plan's calls named, and mission verification checks that the trace invoked those and only those (Part II §5.8.4, §7.3). A trace entry that ran an invoking step without naming the entry hides what was actually touched. The rule reads the plan of the nearest earlier valid validate call of the same program and context, judges only immediate Runs and test runs (a deploy Run's trace is an installation trace), and skips entries whose step failed, which may not have reached the call.",
			Bad:     `{"plan": {"steps": [{"id": "unlock_dock", "calls": "lock.dock_door"}]}, "trace": {"level": "full", "steps": [{"id": "unlock_dock", "input": {"action": "unlock"}, "output": {"locked": false}, "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Good:    `{"plan": {"steps": [{"id": "unlock_dock", "calls": "lock.dock_door"}]}, "trace": {"level": "full", "steps": [{"id": "unlock_dock", "calls": "lock.dock_door", "input": {"action": "unlock"}, "output": {"locked": false}, "outcome": {"ok": true, "status": "success", "error": null}}]}}`,
			Check:   checkCallTraceCallsMissing,
		},
		{
			ID: "call-catalog-token-changed-needlessly", Severity: lint.Warning, Spec: "Part II §5.4",
			Quote:   "The token SHOULD NOT change for any other reason.",
			Keyword: "SHOULD NOT",
			Summary: "Two consecutive complete catalog listings, or two identical first pages with only reads between them, show the same entries under different catalog_version tokens.",
			Doc:     "A Client that validated against one token is refused with catalog_drift when the token moves; when nothing visible changed, that refusal, the re-validation and the new approval it forces are all for nothing (Part II §5.4). The rule compares two complete listings (no filter, no cursor, no next_cursor) of the same Language with no other catalog_version recorded between them; and, so that a paged catalog is judged too, two first pages (no cursor) sent with the same arguments with only reads between them (guide, catalog, validate and trace-fetch calls; the later pages of the first listing among them), as the probe catalog-list-again sends. A change made meanwhile by someone else to an entry beyond the first page cannot be seen there, which is one reason this stays a warning.",
			Bad:     `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_2"}}}]`,
			Good:    `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}]`,
			Check:   checkCallTokenChangedNeedlessly,
		},
		{
			ID: "call-listing-incomplete", Severity: lint.Error, Spec: "Part II §6.3",
			Quote:   "When additional results remain, the response MUST include `next_cursor`.",
			Keyword: "MUST",
			Summary: "A complete catalog listing (no filter, no next_cursor) lacks an entry that a get, or another complete listing, under the same catalog_version returned.",
			Doc:     "Absence of next_cursor tells the Client the listing is complete (Part II §6.3): an agent that authors against the listing never learns of an entry left out of it. When a get of the same Language under the same catalog_version returns an entry that the unfiltered, final listing did not include, results remained and next_cursor was owed; so it was when another listing that also ends without next_cursor (say one without the limit this one sent) shows an entry this one lacks. Entries whose languages exclude the Language asked for are not judged.",
			Bad:     `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock"}, "catalog_version": "cv_1"}}}]`,
			Good:    `[{"arguments": {"language": "flow/1", "verb": "list"}, "result": {"structuredContent": {"items": [{"id": "light.lobby"}], "next_cursor": "p2", "catalog_version": "cv_1"}}}, {"arguments": {"language": "flow/1", "verb": "get", "id": "lock.dock"}, "result": {"structuredContent": {"entry": {"id": "lock.dock"}, "catalog_version": "cv_1"}}}]`,
			Check:   checkCallListingIncomplete,
		},
	}
}

func checkCallPlanStepIDReserved(p *lint.Pass) {
	for _, c := range p.Snap.CallsOf(snapshot.OpValidate) {
		if !rulekit.Accepted(c) {
			continue
		}
		for _, s := range c.StructuredContent.Path("plan", "steps").Objects() {
			if id := s.Get("id"); id.IsString() && strings.ContainsAny(id.Text(), "/#") {
				p.Report(id, "%s accepted a program whose step identifier %q contains / or #, which trace identifiers reserve: reject it with a diagnostic", c.Name, id.Text())
			}
		}
	}
}

func checkCallCallsWithoutCatalog(p *lint.Pass) {
	for _, c := range p.Snap.Calls {
		l := c.Lang
		if l == nil || !l.Caps.Exists() || l.Caps.Declared(string(types.CapCatalog)) || !c.Succeeded() {
			continue
		}
		var steps []*source.Node
		switch c.Op {
		case snapshot.OpValidate:
			steps = c.StructuredContent.Path("plan", "steps").Objects()
		case snapshot.OpExecute, snapshot.OpTraceFetch:
			steps = c.StructuredContent.Path("trace", "steps").Objects()
		}
		for _, s := range steps {
			if calls := s.Get("calls"); calls.IsString() {
				p.Report(calls, "step %s invokes %q although %s does not declare catalog: a Language whose programs invoke environment-bound names declares catalog", callStepLabel(s), calls.Text(), l.Label())
				break
			}
		}
	}
}

func callStepLabel(s *source.Node) string {
	if id, ok := s.Str("id"); ok {
		return "\"" + id + "\""
	}
	return "without id"
}

func checkCallDriftedRefRan(p *lint.Pass) {
	drifted := map[string]bool{}
	for _, c := range p.Snap.CallsOf(snapshot.OpExecute) {
		ref := rulekit.Present(c, types.ArgProgramRef)
		if !ref.IsString() || c.Program != nil || !c.Succeeded() {
			continue
		}
		key := c.Name + "\x00" + ref.Text()
		status, _ := c.StructuredContent.Path("outcome", "status").Value().(string)
		switch {
		case status == string(types.StatusPromotionDrift):
			drifted[key] = true
		case drifted[key] && rulekit.Started(c):
			p.Report(ref, "%s ran %s after refusing it with promotion_drift: a drifted reference stays refused until the program is promoted again under a new reference", c.Name, ref.Text())
		}
	}
}

// callBaseID recovers the program step identifier of a trace entry (Part
// II §5.8.2): the segment after the final /, without # suffixes.
func callBaseID(id string) string {
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	if i := strings.IndexByte(id, '#'); i >= 0 {
		id = id[:i]
	}
	return id
}

// callOwnTrace reports whether an execute call's trace describes the
// program's own execution: an immediate Run or a test run, not a deploy
// Run's installation trace.
func callOwnTrace(c *snapshot.Call) bool {
	if rulekit.True(c.Arg(types.ArgTestRun)) {
		return true
	}
	exec, _ := c.Lang.Node.Str("execution")
	mode, _ := c.Arguments.Str(types.ArgMode)
	return exec == string(types.ExecutionImmediate) || exec == string(types.ExecutionBoth) && mode == string(types.RunImmediate)
}

// callPlanFor returns the plan of the nearest earlier valid validate call
// of the same program and context as execute call i, or nil.
func callPlanFor(calls []*snapshot.Call, i int) *source.Node {
	x := calls[i]
	for j := i - 1; j >= 0; j-- {
		v := calls[j]
		if v.Op != snapshot.OpValidate || v.Lang != x.Lang || v.ProgramArg != x.ProgramArg || !source.Equal(v.Program, x.Program) ||
			!source.Equal(rulekit.Present(v, types.ArgContext), rulekit.Present(x, types.ArgContext)) {
			continue
		}
		if !rulekit.Accepted(v) {
			return nil
		}
		return v.StructuredContent.Get("plan")
	}
	return nil
}

func checkCallTraceCallsMissing(p *lint.Pass) {
	calls := p.Snap.Calls
	for i, c := range calls {
		if c.Op != snapshot.OpExecute || c.Program == nil || c.Lang == nil || !rulekit.Started(c) || !callOwnTrace(c) {
			continue
		}
		plan := callPlanFor(calls, i)
		invokes := map[string]string{}
		for _, s := range plan.Get("steps").Objects() {
			id, ok1 := s.Str("id")
			target, ok2 := s.Str("calls")
			if ok1 && ok2 {
				invokes[id] = target
			}
		}
		if len(invokes) == 0 {
			continue
		}
		for _, s := range c.StructuredContent.Path("trace", "steps").Objects() {
			id, ok := s.Str("id")
			target := invokes[callBaseID(id)]
			if !ok || target == "" || s.Has("calls") || !rulekit.True(s.Path("outcome", "ok")) {
				continue
			}
			p.ReportMissing(s, "trace entry %q ran a step that invokes %q (per the recorded plan) but carries no calls: name the invoked entry in calls", id, target)
		}
	}
}

// callSameItems compares two listings as sets of entries keyed by id.
func callSameItems(a, b *source.Node) bool {
	ia, ib := a.Objects(), b.Objects()
	if len(ia) != len(ib) || len(ia) != len(a.Kids()) || len(ib) != len(b.Kids()) {
		return false
	}
	byID := map[string]*source.Node{}
	for _, e := range ia {
		id, ok := e.Str("id")
		if !ok || byID[id] != nil {
			return false
		}
		byID[id] = e
	}
	for _, e := range ib {
		id, _ := e.Str("id")
		if !source.Equal(byID[id], e) {
			return false
		}
	}
	return true
}

func checkCallTokenChangedNeedlessly(p *lint.Pass) {
	last := map[*snapshot.Language]*snapshot.Call{}
	for j, c := range p.Snap.Calls {
		if _, ok := rulekit.CatalogVersion(c); !ok || c.Lang == nil {
			continue
		}
		prev := last[c.Lang]
		last[c.Lang] = c
		what := "two complete listings"
		if prev == nil || !rulekit.CompleteListing(prev) || !rulekit.CompleteListing(c) {
			if prev = callEarlierFirstPage(p.Snap.Calls, j); prev == nil {
				continue
			}
			what = "two first pages of the same list request (only reads between them)"
		}
		a, _ := prev.StructuredContent.Str("catalog_version")
		b, _ := c.StructuredContent.Str("catalog_version")
		if a != b && callSameItems(prev.StructuredContent.Get("items"), c.StructuredContent.Get("items")) {
			p.Report(c.StructuredContent.Get("catalog_version"), "catalog_version changed from %q to %q between %s with the same entries: change the token only when a visible entry is added, removed or changed", a, b, what)
		}
	}
}

// callEarlierFirstPage returns the nearest earlier first page (a list
// without cursor) of the same Language when it was sent with the same
// arguments as calls[j], itself such a page, and only reads lie between them (the later pages
// of its own listing among them), so that only a change made by someone
// else could have moved the catalog; or nil.
func callEarlierFirstPage(calls []*snapshot.Call, j int) *snapshot.Call {
	c := calls[j]
	if !callFirstPage(c) {
		return nil
	}
	for i := j - 1; i >= 0; i-- {
		d := calls[i]
		if !rulekit.Read(d) {
			return nil
		}
		if callFirstPage(d) && d.Lang == c.Lang {
			if source.Equal(d.Arguments, c.Arguments) {
				return d
			}
			return nil
		}
	}
	return nil
}

func callFirstPage(c *snapshot.Call) bool {
	return c.Op == snapshot.OpCatalog && c.Verb == string(types.VerbList) && c.Succeeded() && c.Lang != nil &&
		c.Arg("cursor") == nil && c.StructuredContent.Get("items").IsArray()
}

// callUsableBy reports whether an entry may be referenced by Language l:
// an entry without languages serves every Language (Part II §5.4).
func callUsableBy(e *source.Node, l *snapshot.Language) bool {
	ls := e.Get("languages")
	if !ls.IsArray() {
		return true
	}
	for _, n := range ls.Kids() {
		if n.IsString() && n.Text() == l.Name {
			return true
		}
	}
	return false
}

func checkCallListingIncomplete(p *lint.Pass) {
	type key struct {
		lang *snapshot.Language
		cv   string
	}
	listed := map[key]map[string]bool{}
	var gets, completes []*snapshot.Call
	for _, c := range p.Snap.CallsOf(snapshot.OpCatalog) {
		if c.Lang == nil || !c.Succeeded() {
			continue
		}
		cv, ok := c.StructuredContent.Str("catalog_version")
		if !ok {
			continue
		}
		switch {
		case rulekit.CompleteListing(c):
			ids := map[string]bool{}
			for _, e := range c.StructuredContent.Get("items").Objects() {
				if id, ok := e.Str("id"); ok {
					ids[id] = true
				}
			}
			listed[key{c.Lang, cv}] = ids
			completes = append(completes, c)
		case c.Verb == string(types.VerbGet) && c.StructuredContent.Get("entry").IsObject():
			gets = append(gets, c)
		}
	}
	for _, c := range gets {
		cv, _ := c.StructuredContent.Str("catalog_version")
		ids := listed[key{c.Lang, cv}]
		e := c.StructuredContent.Get("entry")
		id, ok := e.Str("id")
		if ids == nil || !ok || ids[id] || !callUsableBy(e, c.Lang) {
			continue
		}
		p.Report(e.Get("id"), "entry %q exists under catalog_version %q but the complete listing of %s under that version omits it: include every entry, or return next_cursor while results remain", id, cv, c.Lang.Label())
	}
	// Two listings that both claim to be complete (a limit is no filter)
	// must hold the same entries: one that lacks an entry the other
	// shows stopped early without next_cursor.
	for _, a := range completes {
		cv, _ := a.StructuredContent.Str("catalog_version")
		have := map[string]bool{}
		for _, e := range a.StructuredContent.Get("items").Objects() {
			if id, ok := e.Str("id"); ok {
				have[id] = true
			}
		}
	other:
		for _, b := range completes {
			bcv, _ := b.StructuredContent.Str("catalog_version")
			if b == a || b.Lang != a.Lang || bcv != cv {
				continue
			}
			for _, e := range b.StructuredContent.Get("items").Objects() {
				if id, ok := e.Str("id"); ok && !have[id] && callUsableBy(e, a.Lang) {
					p.With(lint.Also{Node: e.Get("id"), Note: "the entry, in another complete listing of the same catalog_version"}).ReportMissing(a.StructuredContent, "this listing of %s ends without next_cursor but lacks entry %q, which another complete listing under catalog_version %q shows: return next_cursor while results remain (a limit below the number of entries leaves results)", a.Lang.Label(), id, cv)
					break other
				}
			}
		}
	}
}
