package pilotserver

// calc/1 is the second Language of mode full: a catalog of arithmetic
// operations with paging, validation against the catalog, execution in
// both modes with session retention, and the trace fetch door. Together
// with toyflow/1 it answers every probe of lint/probe the way the spec
// states, unless Config.Fault breaks one requirement.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const calcLanguage = "calc/1"

// Faults are the faults Config.Fault may name, each breaking one
// requirement that one probe observes.
var Faults = []string{
	"guide-kind",           // unknown guide id answers kind invalid_request
	"topic-ignored",        // topic without topic_fetch is ignored
	"catalog-no-version",   // unknown catalog get omits catalog_version
	"cursor-repeat",        // the second catalog page repeats its cursor
	"changed-since",        // changed_since without the sub-feature answers
	"validate-iserror",     // an invalid program is reported with isError
	"trace-level-rpc",      // unknown trace_level draws a JSON-RPC error
	"store-ignored",        // store: true under retention none is ignored
	"mode-optional",        // a missing mode under execution both is accepted
	"test-run-ignored",     // test_run without the sub-feature is ignored
	"both-runnables",       // program and program_ref together are accepted
	"guard-iserror",        // execute of an invalid program answers isError
	"run-distinguishable",  // a refused run_id draws a different not_found
	"hang",                 // execute with no runnable never answers
	"context-ignored",      // context sent to a Language without context_schema is ignored
	"drift-late",           // a stale expected_catalog_version is checked after re-validation
	"unstored-kept",        // a test run with store: false is retained anyway
	"stored-dropped",       // a test run with store: true is not retained
	"fetch-none",           // trace_level none on the fetch door is accepted
	"fetch-level-ignored",  // a summary fetch returns the full record
	"replay-new-run",       // an idempotent replay runs the program again
	"conflict-ignored",     // a reused idempotency key with other input runs
	"trace-none-ignored",   // trace_level none still returns the inline trace
	"summary-input",        // a summary inline trace keeps the step inputs
	"validate-unstable",    // each validation numbers its diagnostics' messages
	"validate-flaky",       // a request validated again is answered from a cache that lost its diagnostics
	"token-churn",          // a repeated first catalog page draws a new catalog_version
	"replay-changed",       // an idempotent replay returns the first Run without its output
	"closed-set-code",      // validate answers a diagnostic code the closed-sets guide does not list
	"refused-run-stored",   // the fetch door returns a refused Run instead of not_found
	"output-null-refused",  // a refused Run carries "output": null
	"get-listed-not-found", // a get of a listed entry answers not_found
	"duplicate-entry",      // the last catalog page lists one entry twice
	"paging-ends-early",    // under a limit, the second page has no next_cursor while entries remain
	"paging-loops",         // under a limit, the last page's next_cursor points back to the first page
	"paging-skips",         // under a limit, the second page's next_cursor skips an entry
	"duplicate-guide",      // the guide index lists one guide twice
	"safe-destructive",     // a catalog entry labelled safe carries destructive: true
	"trace-calls-other",    // a trace entry invokes another entry than its plan step
	"plan-no-calls",        // a plan step that invokes an entry omits calls
	"trace-id-suffix",      // a trace entry outside any loop carries a #n suffix
	"invoked-no-schema",    // the entry a plan and trace invoke has no input_schema
	"plan-unlisted",        // plans and traces name entries by an id the one-page catalog never lists
	"plan-loop-missing",    // plan steps name an enclosing loop the plan has no step for
	"listing-drops",        // a second one-page listing omits an entry, without next_cursor
	"validate-stale-token", // validate answers a catalog_version other than the catalog's
	"plan-ids-unstable",    // a program validated again gets other plan step ids
	"resource-differs",     // the manifest resource holds another title than pilotage_manifest
}

func (p *server) faultIs(name string) bool { return p.Fault == name }

func (p *server) full() bool { return p.Mode == "full" }

type op struct {
	ID, Name, Description string
	Arity                 int
}

var ops = []op{
	{"add", "Add", "Sum of two numbers.", 2},
	{"mul", "Multiply", "Product of two numbers.", 2},
	{"neg", "Negate", "The number with its sign flipped.", 1},
	{"max", "Maximum", "The larger of two numbers.", 2},
	{"min", "Minimum", "The smaller of two numbers.", 2},
}

const catalogVersion = "cv-1"

// staleCatalogVersion is the token of a catalog older than the one served,
// for the validate-stale-token fault.
const staleCatalogVersion = "cv-0"

const calcPage = 2

func (p *server) calcManifest() map[string]any {
	m := map[string]any{
		"name":    calcLanguage,
		"title":   "Calculator programs",
		"guides":  "pilotage_get_guide",
		"catalog": "pilotage_catalog",
		"loop":    map[string]any{"validate": "check_calc", "execute": "run_calc", "trace": "fetch_calc_trace"},
		"locator": "json-pointer",
		"capabilities": map[string]any{
			"guides": true, "catalog": true, "validate": true, "plan": true,
			"execute": map[string]any{"test_run": true, "idempotency": true}, "trace_fetch": true,
		},
		"execution": "both",
		"trace":     "full",
		"retention": "P1D",
	}
	if p.Context {
		m["context_schema"] = map[string]any{"type": "object", "properties": map[string]any{"unit": map[string]any{"type": "string"}}, "required": []string{"unit"}}
	}
	return m
}

const calcCore = "# calc/1\n\nA program is {\"steps\": [...]}; each step is {\"id\", \"op\", \"args\"}: op is a catalog entry id and args are numbers, one per operand. The run's output is the result of the last step. Execute takes mode \"immediate\" (evaluate now) or \"deploy\" (install for later); deploying is only allowed with test_run: true.\n"

const calcClosedSets = "# Closed sets of calc/1\n\nDiagnostic codes: constraint, input_binding, context_binding, unknown_op, bad_args.\nCatalog entry kinds: operation (callable).\nRisk levels: safe = {readOnly: true, destructive: false, openWorld: false}.\nRun statuses: success (ok true), validation_error, catalog_drift, promotion_drift, partial, error (ok false; partial may have side effects, the others none).\nStep statuses: success, error.\nSummary traces truncate nothing.\nOutput: the number computed by the last step.\nInput: inline programs take no input.\nStep identifiers are the program's own ids.\n"

var calcGuides = []guide{
	{"calc-core", "calc/1 in one page", "core", calcCore, []string{"syntax"}},
	{"calc-closed-sets", "Closed sets of calc/1", "reference", calcClosedSets, []string{"closed-sets"}},
}

func (p *server) addCalc(add func(*mcp.Tool, mcp.ToolHandler)) {
	object := map[string]any{"type": "object"}
	meta := mcp.Meta{extension: map[string]any{"argument": "program", "language": calcLanguage}}
	add(&mcp.Tool{
		Name:        "pilotage_catalog",
		Description: "Lookup stage of the Pilotage loop: the catalog of operations a calc/1 program may call, with list, get and paging.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"language":        map[string]any{"type": "string"},
				"verb":            map[string]any{"type": "string", "enum": []string{"list", "get", "changed_since"}},
				"kind":            map[string]any{"type": "string"},
				"tag":             map[string]any{"type": "string"},
				"q":               map[string]any{"type": "string"},
				"cursor":          map[string]any{"type": "string"},
				"limit":           map[string]any{"type": "integer", "minimum": 1},
				"id":              map[string]any{"type": "string"},
				"catalog_version": map[string]any{"type": "string"},
			},
			"required": []string{"language", "verb"},
		},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, p.catalogTool)
	add(&mcp.Tool{
		Name:         "check_calc",
		Description:  "Validate stage for calc/1 programs: checks a program against the catalog and returns diagnostics. Never runs anything.",
		InputSchema:  map[string]any{"type": "object", "properties": map[string]any{"program": map[string]any{}, "context": map[string]any{}}, "required": []string{"program"}},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		Meta:         meta,
	}, p.checkCalc)
	destructive, openWorld := false, false
	add(&mcp.Tool{
		Name:        "run_calc",
		Description: "Execute stage for calc/1 programs: evaluates a validated program (mode immediate) or test-runs its deployment, and returns the outcome with an inline trace.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"program":                  map[string]any{},
			"program_ref":              map[string]any{"type": "string"},
			"input":                    map[string]any{"type": "object"},
			"trace_level":              map[string]any{"type": "string"},
			"expected_catalog_version": map[string]any{"type": "string"},
			"mode":                     map[string]any{"type": "string"},
			"test_run":                 map[string]any{"type": "boolean"},
			"store":                    map[string]any{"type": "boolean"},
			"context":                  map[string]any{},
			"idempotency_key":          map[string]any{"type": "string"},
		}},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: &destructive, OpenWorldHint: &openWorld},
		Meta:         meta,
	}, p.runCalc)
	add(&mcp.Tool{
		Name:         "fetch_calc_trace",
		Description:  "Trace fetch stage for calc/1: returns the stored trace of an earlier Run by run_id.",
		InputSchema:  map[string]any{"type": "object", "properties": map[string]any{"run_id": map[string]any{"type": "string"}, "trace_level": map[string]any{"type": "string"}}, "required": []string{"run_id"}},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, p.fetchTrace)
}

func entry(o op) map[string]any {
	props := map[string]any{}
	for i := range o.Arity {
		props[fmt.Sprintf("x%d", i+1)] = map[string]any{"type": "number"}
	}
	return map[string]any{
		"id": o.ID, "kind": "operation", "name": o.Name, "description": o.Description,
		"input_schema": map[string]any{"type": "object", "properties": props},
		"risk":         "safe", "risk_hints": safe(),
	}
}

// invoked is the id plans and traces give the entry op: under
// plan-unlisted, an engine-internal name the catalog never lists.
func (p *server) invoked(op string) string {
	if p.faultIs("plan-unlisted") {
		return "calc." + op
	}
	return op
}

// entry is o's catalog entry as the server's fault presents it.
func (p *server) entry(o op) map[string]any {
	e := entry(o)
	switch {
	// The last entry is the one only the paging probe sees.
	case p.faultIs("safe-destructive") && o.ID == ops[len(ops)-1].ID:
		e["risk_hints"] = map[string]any{"readOnly": false, "destructive": true, "openWorld": false}
	// add is the operation RunProgram invokes.
	case p.faultIs("invoked-no-schema") && o.ID == "add":
		delete(e, "input_schema")
	}
	return e
}

func (p *server) catalogError(kind, msg string) *mcp.CallToolResult {
	sc := map[string]any{"error": map[string]any{"kind": kind, "message": msg}, "catalog_version": catalogVersion}
	if p.faultIs("catalog-no-version") && kind == "not_found" {
		delete(sc, "catalog_version")
	}
	return result(sc, true)
}

func (p *server) catalogTool(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	if a["language"] != calcLanguage {
		return p.catalogError("not_found", "unknown language"), nil
	}
	switch a["verb"] {
	case "list":
		return p.list(a), nil
	case "get":
		if p.faultIs("get-listed-not-found") {
			return p.catalogError("not_found", "unknown entry"), nil
		}
		for _, o := range ops {
			if o.ID == a["id"] {
				return result(map[string]any{"entry": p.entry(o), "catalog_version": catalogVersion}, false), nil
			}
		}
		return p.catalogError("not_found", "unknown entry"), nil
	case "changed_since":
		if p.faultIs("changed-since") {
			return result(map[string]any{"catalog_version": catalogVersion, "changes": []any{}}, false), nil
		}
		return p.catalogError("invalid_request", "changed_since is not declared for calc/1"), nil
	}
	return p.catalogError("invalid_request", "unknown verb"), nil
}

type calcStep struct {
	ID   string    `json:"id"`
	Op   string    `json:"op"`
	Args []float64 `json:"args"`
}

func checkProgram(raw any) ([]calcStep, []any) {
	b, _ := json.Marshal(raw)
	var p struct {
		Steps []calcStep `json:"steps"`
	}
	if err := json.Unmarshal(b, &p); err != nil || p.Steps == nil {
		return nil, []any{diag("constraint", "", "a program is an object with a steps array")}
	}
	var ds []any
	for i, s := range p.Steps {
		o := findOp(s.Op)
		switch {
		case o == nil:
			ds = append(ds, diag("unknown_op", fmt.Sprintf("/steps/%d/op", i), "no catalog operation has this id"))
		case len(s.Args) != o.Arity || s.ID == "":
			ds = append(ds, diag("bad_args", fmt.Sprintf("/steps/%d", i), fmt.Sprintf("%s takes %d numbers and the step needs an id", o.ID, o.Arity)))
		}
	}
	return p.Steps, ds
}

func findOp(id string) *op {
	for i := range ops {
		if ops[i].ID == id {
			return &ops[i]
		}
	}
	return nil
}

func (p *server) checkCalc(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	steps, ds := checkProgram(a["program"])
	ds = append(ds, p.calcContextDiags(a)...)
	if ds == nil {
		ds = []any{}
	}
	if p.faultIs("validate-unstable") {
		n := checks.Add(1)
		for _, d := range ds {
			d := d.(map[string]any)
			d["message"] = fmt.Sprintf("%s (check %d)", d["message"], n)
		}
	}
	again := false
	if p.faultIs("validate-flaky") || p.faultIs("plan-ids-unstable") {
		key, _ := json.Marshal([]any{a["program"], a["context"]})
		_, again = p.validated.LoadOrStore(string(key), true)
	}
	if again && p.faultIs("validate-flaky") {
		ds = []any{}
	}
	if p.faultIs("closed-set-code") {
		for _, d := range ds {
			if m := d.(map[string]any); m["code"] == "constraint" {
				m["code"] = "syntax_error"
			}
		}
	}
	resp := map[string]any{"valid": len(ds) == 0, "diagnostics": ds, "catalog_version": catalogVersion}
	if p.faultIs("validate-stale-token") {
		resp["catalog_version"] = staleCatalogVersion
	}
	if len(ds) == 0 {
		refs := []any{}
		ps := []any{}
		for _, s := range steps {
			refs = append(refs, s.Op)
			st := map[string]any{"id": s.ID, "calls": p.invoked(s.Op), "risk": "safe", "risk_hints": safe()}
			switch {
			case again && p.faultIs("plan-ids-unstable"):
				st["id"] = s.ID + "-again"
			case p.faultIs("plan-no-calls"):
				delete(st, "calls")
			case p.faultIs("plan-loop-missing"):
				st["loop"] = "main"
			}
			ps = append(ps, st)
		}
		resp["references"] = refs
		resp["plan"] = map[string]any{"steps": ps, "max_risk": "safe", "max_risk_hints": safe()}
	}
	return result(resp, p.faultIs("validate-iserror") && len(ds) > 0), nil
}

// runDir holds the stored Runs, one file each, so that the declared
// retention (P1D) survives a restart of the server; refused holds the
// outcomes of refused Runs, which are never stored (the refused-run-stored
// fault returns them from the fetch door). Both are shared by the
// servers of one process, as the servers a Streamable HTTP handler starts
// share one store; run_ids are random, so they never collide.
var (
	runDir  = filepath.Join(os.TempDir(), "pilotserver-runs")
	refused sync.Map
)

func nextRunID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "calc-run-" + hex.EncodeToString(b)
}

func storeRun(id string, rec map[string]any) {
	b, _ := json.Marshal(rec)
	if os.MkdirAll(runDir, 0o755) == nil {
		_ = os.WriteFile(filepath.Join(runDir, id+".json"), b, 0o644)
	}
}

func loadRun(id string) map[string]any {
	// Run ids are hex after a fixed prefix; anything else names no file.
	if !strings.HasPrefix(id, "calc-run-") || strings.ContainsAny(id, "/\\.") {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(runDir, id+".json"))
	if err != nil {
		return nil
	}
	var rec map[string]any
	if json.Unmarshal(b, &rec) != nil {
		return nil
	}
	if fi, err := os.Stat(filepath.Join(runDir, id+".json")); err != nil || time.Since(fi.ModTime()) > 24*time.Hour {
		return nil
	}
	return rec
}

func (p *server) runCalc(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	_, hasProgram := a["program"]
	_, hasRef := a["program_ref"]
	switch {
	case hasProgram && hasRef && !p.faultIs("both-runnables"):
		return requestError("invalid_request", "give exactly one of program and program_ref"), nil
	case !hasProgram && !hasRef:
		if p.faultIs("hang") {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return requestError("invalid_request", "give exactly one of program and program_ref"), nil
	case hasRef && !hasProgram:
		return requestError("not_found", "unknown program reference"), nil
	}
	level := "full"
	if l, ok := a["trace_level"]; ok {
		switch l {
		case "none", "summary", "full":
			level = l.(string)
		default:
			if p.faultIs("trace-level-rpc") {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "trace_level must be none, summary or full"}
			}
			return requestError("invalid_request", "trace_level must be none, summary or full"), nil
		}
	}
	m, hasMode := a["mode"]
	if !hasMode && !p.faultIs("mode-optional") {
		return requestError("invalid_request", "calc/1 has execution both: give mode immediate or deploy"), nil
	}
	if hasMode && m != "immediate" && m != "deploy" {
		return requestError("invalid_request", "mode must be immediate or deploy"), nil
	}
	testRun, _ := a["test_run"].(bool)
	if m == "deploy" && !testRun {
		return requestError("invalid_request", "calc/1 deploys only as a test run"), nil
	}
	key, _ := a["idempotency_key"].(string)
	same := idempotencyBody(a)
	if key != "" {
		if v, ok := replays.Load(key); ok {
			rec := v.(replay)
			switch {
			case rec.body == same && p.faultIs("replay-changed"):
				sc := map[string]any{}
				for k, v := range rec.res.StructuredContent.(map[string]any) {
					if k != "output" {
						sc[k] = v
					}
				}
				return result(sc, false), nil
			case rec.body == same && !p.faultIs("replay-new-run"):
				return rec.res, nil
			case rec.body != same && !p.faultIs("conflict-ignored"):
				return requestError("idempotency_conflict", "this idempotency_key was used with another program or input"), nil
			}
		}
	}
	runID := nextRunID()
	drift := func() *mcp.CallToolResult {
		if v, ok := a["expected_catalog_version"]; ok && v != catalogVersion {
			outcome := map[string]any{"ok": false, "status": "catalog_drift", "error": "catalog version mismatch"}
			refused.Store(runID, outcome)
			return result(map[string]any{"run_id": runID, "outcome": outcome}, false)
		}
		return nil
	}
	if r := drift(); r != nil && !p.faultIs("drift-late") {
		return r, nil
	}
	steps, ds := checkProgram(a["program"])
	ds = append(ds, p.calcContextDiags(a)...)
	if len(ds) > 0 {
		outcome := map[string]any{"ok": false, "status": "validation_error", "error": "the program is invalid"}
		refused.Store(runID, outcome)
		resp := map[string]any{"run_id": runID, "outcome": outcome, "diagnostics": ds}
		if p.faultIs("output-null-refused") {
			resp["output"] = nil
		}
		return result(resp, p.faultIs("guard-iserror")), nil
	}
	if r := drift(); r != nil {
		return r, nil
	}
	var trace []any
	var last float64
	for _, s := range steps {
		last = apply(s)
		// Steps are recorded at full level; levelSteps cuts the inline copy.
		e := map[string]any{"id": s.ID, "calls": p.invoked(s.Op), "outcome": map[string]any{"ok": true, "status": "success", "error": nil}, "output": last, "input": map[string]any{"args": s.Args}}
		switch {
		case p.faultIs("trace-calls-other") && s.Op == "add":
			e["calls"] = "mul"
		case p.faultIs("trace-calls-other"):
			e["calls"] = "add"
		case p.faultIs("trace-id-suffix"):
			e["id"] = s.ID + "#1"
		}
		trace = append(trace, e)
	}
	if trace == nil {
		trace = []any{}
	}
	outcome := map[string]any{"ok": true, "status": "success", "error": nil}
	resp := map[string]any{"run_id": runID, "outcome": outcome, "output": last}
	// The stored record is at the Language's full level whatever the
	// inline level (Part II §6.5 store).
	stored := map[string]any{"run_id": runID, "outcome": outcome, "output": last, "trace": map[string]any{"run_id": runID, "level": "full", "steps": trace}}
	switch {
	case level == "none" && p.faultIs("trace-none-ignored"):
		resp["trace"] = map[string]any{"run_id": runID, "level": "full", "steps": trace}
	case level == "summary" && p.faultIs("summary-input"):
		resp["trace"] = map[string]any{"run_id": runID, "level": level, "steps": trace}
	case level != "none":
		resp["trace"] = map[string]any{"run_id": runID, "level": level, "steps": levelSteps(trace, level)}
	}
	store, ok := a["store"].(bool)
	switch {
	case p.faultIs("unstored-kept"), !ok, store && !p.faultIs("stored-dropped"):
		storeRun(runID, stored)
	}
	res := result(resp, false)
	if key != "" {
		replays.Store(key, replay{same, res})
	}
	return res, nil
}

// replay is the recorded first answer to an idempotency key and the
// runnable and input it was given with (Part II §6.5.6); only started Runs
// are recorded.
type replay struct {
	body string
	res  *mcp.CallToolResult
}

var replays sync.Map

// list answers a catalog list: calcPage entries a page, or fewer when
// the request sets a smaller limit, with cursors that name the offset
// of the next page.
func (p *server) list(a map[string]any) *mcp.CallToolResult {
	size, limited := calcPage, false
	if l, ok := a["limit"].(float64); ok && l >= 1 {
		size, limited = min(int(l), calcPage), true
	}
	start := 0
	if c, ok := a["cursor"].(string); ok {
		if _, err := fmt.Sscanf(c, "at-%d", &start); err != nil || start < 0 || start >= len(ops) {
			return p.catalogError("invalid_request", "unknown cursor")
		}
	}
	end := min(start+size, len(ops))
	// A one-page listing is complete, which call-plan-calls-unlisted
	// and call-listing-incomplete need to judge against it.
	if !limited && (p.faultIs("plan-unlisted") || p.faultIs("listing-drops")) {
		end = len(ops)
	}
	shown := ops[start:end]
	// The second complete listing comes back one entry short, still
	// without next_cursor.
	if !limited && p.faultIs("listing-drops") && p.lists.Add(1) == 2 {
		shown = shown[:len(shown)-1]
	}
	var items []any
	for _, o := range shown {
		items = append(items, p.entry(o))
	}
	if p.faultIs("duplicate-entry") && end == len(ops) {
		items = append(items, p.entry(ops[end-1]))
	}
	resp := map[string]any{"items": items, "catalog_version": catalogVersion}
	if _, paged := a["cursor"]; !paged && !limited && p.faultIs("token-churn") && firstPages.Add(1) > 1 {
		resp["catalog_version"] = fmt.Sprintf("%s-%d", catalogVersion, firstPages.Load())
	}
	next := end
	// The paging faults show on a listing with a limit, so that the
	// listing without one still shows every entry.
	switch {
	case limited && p.faultIs("paging-skips") && start == size:
		next = end + 1
	case limited && p.faultIs("paging-ends-early") && start == size:
		next = len(ops)
	case limited && p.faultIs("paging-loops") && end == len(ops):
		resp["next_cursor"] = "at-0"
	}
	if next < len(ops) {
		resp["next_cursor"] = fmt.Sprintf("at-%d", next)
		if p.faultIs("cursor-repeat") && start > 0 {
			resp["next_cursor"] = fmt.Sprintf("at-%d", start)
		}
	}
	return result(resp, false)
}

// firstPages counts catalog lists without a cursor and checks counts
// validations, for the faults that make repeated answers differ.
var firstPages, checks atomic.Int64

func idempotencyBody(a map[string]any) string {
	b, _ := json.Marshal([]any{a["program"], a["program_ref"], a["input"]})
	return string(b)
}

// calcContextDiags binds calc/1's context: with -context, an object with
// a string unit is required; without, none is taken (Part II §6.4).
func (p *server) calcContextDiags(a map[string]any) []any {
	if !p.Context {
		return p.contextDiags(a)
	}
	c, _ := a["context"].(map[string]any)
	if _, ok := c["unit"].(string); ok || p.faultIs("context-ignored") {
		return nil
	}
	return []any{diag("context_binding", "", "calc/1 needs a context object with a string unit")}
}

// contextDiags rejects supplied context for a Language without
// context_schema (Part II §6.4). null and {} say "no context".
func (p *server) contextDiags(a map[string]any) []any {
	c, ok := a["context"]
	if m, isObj := c.(map[string]any); !ok || c == nil || (isObj && len(m) == 0) || p.faultIs("context-ignored") {
		return nil
	}
	return []any{diag("context_binding", "", "this Language declares no context_schema and takes no context")}
}

func levelSteps(steps []any, level string) []any {
	if level == "full" {
		return steps
	}
	out := make([]any, 0, len(steps))
	for _, s := range steps {
		c := map[string]any{}
		for k, v := range s.(map[string]any) {
			if k != "input" {
				c[k] = v
			}
		}
		out = append(out, c)
	}
	return out
}

func apply(s calcStep) float64 {
	x := s.Args
	switch s.Op {
	case "add":
		return x[0] + x[1]
	case "mul":
		return x[0] * x[1]
	case "neg":
		return -x[0]
	case "max":
		return max(x[0], x[1])
	}
	return min(x[0], x[1])
}

const unknownRun = "unknown run: it may have expired"

func (p *server) fetchTrace(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	id, _ := a["run_id"].(string)
	level, hasLevel := a["trace_level"].(string)
	if hasLevel && level != "summary" && level != "full" && !(level == "none" && p.faultIs("fetch-none")) {
		return requestError("invalid_request", "trace_level on the fetch door is summary or full"), nil
	}
	rec := loadRun(id)
	if rec == nil {
		outcome, ok := refused.Load(id)
		switch {
		case ok && p.faultIs("run-distinguishable"):
			return requestError("not_found", "run "+id+" was refused, so it was not stored"), nil
		case ok && p.faultIs("refused-run-stored"):
			return result(map[string]any{"run_id": id, "outcome": outcome}, false), nil
		}
		return requestError("not_found", unknownRun), nil
	}
	out := map[string]any{}
	for k, v := range rec {
		out[k] = v
	}
	if level == "summary" && !p.faultIs("fetch-level-ignored") {
		tr := rec["trace"].(map[string]any)
		out["trace"] = map[string]any{"run_id": id, "level": "summary", "steps": levelSteps(tr["steps"].([]any), "summary")}
	}
	return result(out, false), nil
}

// ValidFault reports whether name is a known fault ("" is none).
func ValidFault(name string) bool {
	if name == "" {
		return true
	}
	for _, f := range Faults {
		if f == name {
			return true
		}
	}
	return false
}
