package rawserver

import (
	"fmt"
	"io"
	"log"
	"sort"
	"strings"
	"sync"
)

// Options configure a Server.
type Options struct {
	// Fault names one deliberate spec violation (see Faults); "" is the
	// conformant server.
	Fault string
	// SSE selects how Streamable HTTP answers a POST: "tools" (default)
	// streams tools/call answers as text/event-stream and answers every
	// other request with application/json; "always" and "never" do one for
	// all.
	SSE string
	// Log receives one line per transport event; nil discards.
	Log *log.Logger
}

// Server is one lumen/1 Pilotage server: the house, the catalog, the
// idempotency records and, per Session, the stored Runs.
type Server struct {
	fault string
	sse   string
	log   *log.Logger

	mu          sync.Mutex
	entries     []map[string]any
	index       map[string]map[string]any
	house       *house
	automations []any
	idem        map[string]*idemRecord
	runSeq      int
	genSeq      int
	sessions    map[string]*session
}

// session is the Part II Session: the process for stdio, one Mcp-Session-Id
// for Streamable HTTP (Part III §8.1). Stored Runs live here, so "session"
// retention ends with it.
type session struct {
	id       string
	protocol string
	runs     map[string]map[string]any
}

func newSession(id string) *session { return &session{id: id, runs: map[string]map[string]any{}} }

type idemRecord struct {
	runnable, input string
	result          map[string]any
}

// New returns a Server, or an error for an unknown fault or SSE mode.
func New(o Options) (*Server, error) {
	if o.Fault != "" {
		if _, ok := faultDocs[o.Fault]; !ok {
			return nil, fmt.Errorf("unknown fault %q; the faults are: %s", o.Fault, strings.Join(FaultNames(), ", "))
		}
	}
	switch o.SSE {
	case "":
		o.SSE = "tools"
	case "tools", "always", "never":
	default:
		return nil, fmt.Errorf("unknown -sse mode %q: use tools, always or never", o.SSE)
	}
	if o.Log == nil {
		o.Log = log.New(io.Discard, "", 0)
	}
	es := catalogEntries()
	return &Server{fault: o.Fault, sse: o.SSE, log: o.Log, entries: es, index: indexEntries(es), house: newHouse(),
		idem: map[string]*idemRecord{}, sessions: map[string]*session{}}, nil
}

func (s *Server) has(fault string) bool { return s.fault == fault }

func manifest() map[string]any {
	return obj("pilotage", "1.1", "languages", []any{obj(
		"name", languageName,
		"title", "Lumen lighting scenes",
		"guides", toolGuide,
		"catalog", toolCatalog,
		"loop", obj("validate", toolValidate, "execute", toolExecute, "trace", toolTrace),
		"capabilities", obj(
			"guides", true,
			"catalog", obj("search", true),
			"validate", true,
			"plan", true,
			"execute", obj("test_run", true, "idempotency", true),
			"trace_fetch", true,
		),
		"locator", "json-pointer",
		"execution", "both",
		"trace", "full",
		"retention", "session",
	)})
}

// resourceManifest is what resources/read serves for pilotage://manifest:
// the tool's result, unless the resource-differs fault serves a stale copy.
func (s *Server) resourceManifest() map[string]any {
	m := manifest()
	if s.has("resource-differs") {
		// Fault resource-differs: Part III §8.3 "When resources are exposed:
		// 1. their content MUST equal the corresponding tool response";
		// a copy cached before retention moved to "session".
		m["languages"].([]any)[0].(map[string]any)["retention"] = "PT1H"
	}
	return m
}

const welcome = "This server speaks Pilotage (" + extensionID + ") for lumen/1, a lighting-scene language. " +
	"Call pilotage_manifest first: it names the guides, the catalog and the loop tools " +
	"(lumen_validate, lumen_run, lumen_trace)."

// toolOutcome is one tools/call answer: a CallToolResult, or a JSON-RPC
// error for a carrier-level fault.
type toolOutcome struct {
	sc      map[string]any
	text    string
	isError bool
	rpc     *rpcError
}

func ok(sc map[string]any, text string) toolOutcome { return toolOutcome{sc: sc, text: text} }

func reqErr(kind, msg string, siblings ...any) toolOutcome {
	sc := obj("error", obj("kind", kind, "message", msg))
	for i := 0; i+1 < len(siblings); i += 2 {
		sc[siblings[i].(string)] = siblings[i+1]
	}
	return toolOutcome{sc: sc, text: kind + ": " + msg, isError: true}
}

func carrier(code int, msg string) toolOutcome {
	return toolOutcome{rpc: &rpcError{Code: code, Message: msg}}
}

// callTool checks the arguments' structure against the tool's inputSchema
// (structural faults are carrier-level, Part III §7.1) and runs the tool.
func (s *Server) callTool(sess *session, name string, args map[string]any) toolOutcome {
	schema, known := inputSchemas()[name]
	if !known {
		return carrier(-32602, "Unknown tool: "+name)
	}
	if msg := structuralFault(schema, args); msg != "" {
		return carrier(-32602, "Invalid arguments for tool "+name+": "+msg)
	}
	// Optional members sent as null mean absent, as they do to a Pydantic
	// model with default None.
	clean := make(map[string]any, len(args))
	for k, v := range args {
		if v != nil || k == programArg && name == toolValidate {
			clean[k] = v
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	switch name {
	case toolManifest:
		return ok(manifest(), "Pilotage manifest: lumen/1")
	case toolGuide:
		return s.guide(clean)
	case toolCatalog:
		return s.catalog(clean)
	case toolValidate:
		return s.validate(clean)
	case toolExecute:
		return s.execute(sess, clean)
	case toolTrace:
		return s.fetch(sess, clean)
	case toolStatus:
		return ok(s.status(), "house status")
	}
	return carrier(-32602, "Unknown tool: "+name)
}

// structuralFault reports a missing required member or a member of the wrong
// JSON type, reading the subset of JSON Schema this package's own input
// schemas use (type, anyOf, $ref to an enum, minimum); it is no general
// validator.
func structuralFault(schema, args map[string]any) string {
	props, _ := schema["properties"].(map[string]any)
	defs, _ := schema["$defs"].(map[string]any)
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			if _, present := args[r.(string)]; !present {
				return fmt.Sprintf("missing required member %q", r)
			}
		}
	}
	for _, k := range sortedKeys(args) {
		ps, ok := props[k].(map[string]any)
		if !ok {
			continue // unknown members reach the handler (Part III §4.6)
		}
		if !accepts(ps, args[k], defs) {
			return fmt.Sprintf("member %q has the wrong type or value (%s)", k, jsonType(args[k]))
		}
	}
	return ""
}

func accepts(ps map[string]any, v any, defs map[string]any) bool {
	if r, ok := ps["$ref"].(string); ok {
		d, _ := defs[strings.TrimPrefix(r, "#/$defs/")].(map[string]any)
		return accepts(d, v, defs)
	}
	if alts, ok := ps["anyOf"].([]any); ok {
		for _, a := range alts {
			if accepts(a.(map[string]any), v, defs) {
				return true
			}
		}
		return false
	}
	t, hasType := ps["type"].(string)
	if hasType {
		switch t {
		case "integer":
			f, ok := v.(float64)
			if !ok || f != float64(int64(f)) {
				return false
			}
		case "number":
			if jsonType(v) != "number" {
				return false
			}
		default:
			if jsonType(v) != t {
				return false
			}
		}
	}
	if en, ok := ps["enum"].([]any); ok {
		s, _ := v.(string)
		if !containsAny(en, s) {
			return false
		}
	}
	if mn, ok := ps["minimum"].(int); ok {
		if f, isNum := v.(float64); isNum && f < float64(mn) {
			return false
		}
	}
	return true
}

// unknownMember names the first member outside allowed, or "".
func unknownMember(args map[string]any, allowed ...string) string {
	for _, k := range sortedKeys(args) {
		if !contains(allowed, k) {
			return k
		}
	}
	return ""
}

func (s *Server) guide(args map[string]any) toolOutcome {
	if lang := args["language"].(string); lang != languageName {
		return reqErr("not_found", fmt.Sprintf("unknown language %q; this server serves %s", lang, languageName))
	}
	if k := unknownMember(args, "language", "id", "topic"); k != "" {
		return reqErr("invalid_request", fmt.Sprintf("pilotage_get_guide takes language, id and topic, not %q", k))
	}
	if _, has := args["topic"]; has {
		return reqErr("invalid_request", "lumen/1 does not declare guides.topic_fetch: fetch the whole guide by id, without topic")
	}
	id, has := args["id"].(string)
	if !has {
		idx := make([]any, len(guides))
		for i, g := range guides {
			idx[i] = g.meta()
		}
		return ok(obj("guides", idx), fmt.Sprintf("%d guides for lumen/1", len(guides)))
	}
	names := make([]string, len(guides))
	for i, g := range guides {
		names[i] = g.id
		if g.id == id {
			m := g.meta()
			m["body"] = g.body
			return ok(obj("guide", m), g.title)
		}
	}
	return reqErr("not_found", fmt.Sprintf("unknown guide %q; the guides are %s", id, strings.Join(names, ", ")))
}

func (s *Server) catalog(args map[string]any) toolOutcome {
	if lang := args["language"].(string); lang != languageName {
		return reqErr("not_found", fmt.Sprintf("unknown language %q; this server serves %s", lang, languageName))
	}
	cv := catalogVersion(s.entries)
	verb := args["verb"].(string)
	allowed := map[string][]string{
		"list":          {"language", "verb", "kind", "tag", "q", "cursor", "limit"},
		"get":           {"language", "verb", "id"},
		"changed_since": {"language", "verb", "catalog_version"},
	}[verb]
	if k := unknownMember(args, allowed...); k != "" {
		return reqErr("invalid_request", fmt.Sprintf("%q does not apply to verb %s (it takes %s)", k, verb,
			strings.Join(allowed[2:], ", ")), "catalog_version", cv)
	}
	switch verb {
	case "changed_since":
		return reqErr("invalid_request", "lumen/1 does not declare catalog.changed_since: list the catalog instead",
			"catalog_version", cv)
	case "get":
		id, has := args["id"].(string)
		if !has {
			return reqErr("invalid_request", "verb get needs id", "catalog_version", cv)
		}
		if e := s.index[id]; e != nil {
			return ok(obj("entry", e, "catalog_version", cv), id)
		}
		if s.has("not-found-no-version") {
			// Fault not-found-no-version: Part II §6.3 "An unknown id is a
			// request error. The error response MUST still carry the current
			// catalog_version."
			return reqErr("not_found", fmt.Sprintf("unknown catalog entry %q", id))
		}
		return reqErr("not_found", fmt.Sprintf("unknown catalog entry %q", id), "catalog_version", cv)
	}
	kind, _ := args["kind"].(string)
	tag, _ := args["tag"].(string)
	q, _ := args["q"].(string)
	filter := kind + "\x00" + tag + "\x00" + q
	var matched []any
	for _, e := range s.entries {
		if entryMatches(e, kind, tag, q) {
			matched = append(matched, e)
		}
	}
	limit := defaultPageSize
	if l, has := args["limit"].(float64); has {
		limit = min(int(l), maxPageSize)
	}
	offset := 0
	if c, has := args["cursor"].(string); has {
		n, valid := decodeCursor(c, filter)
		if !valid || n > len(matched) {
			return reqErr("invalid_request", "unknown cursor: pass next_cursor unchanged, with the same kind, tag and q",
				"catalog_version", cv)
		}
		offset = n
	}
	end := min(offset+limit, len(matched))
	items := append([]any{}, matched[offset:end]...)
	sc := obj("items", items, "catalog_version", cv)
	switch {
	case end < len(matched) && s.has("paging-no-cursor"):
		// Fault paging-no-cursor: Part II §6.3 "When additional results
		// remain, the response MUST include next_cursor."
	case end < len(matched) && s.has("paging-skip"):
		// Fault paging-skip: Part II §6.3 "Absence of next_cursor means that
		// the listing is complete": the cursor skips one entry, so the
		// complete listing lacks it.
		sc["next_cursor"] = encodeCursor(min(end+1, len(matched)), filter)
	case end < len(matched):
		sc["next_cursor"] = encodeCursor(end, filter)
	case s.has("paging-loop") && offset > 0:
		// Fault paging-loop: Part II §6.3 "When additional results remain,
		// the response MUST include next_cursor" and "Absence of next_cursor
		// means that the listing is complete": the last page points back to
		// the first, so the listing never completes.
		sc["next_cursor"] = encodeCursor(0, filter)
	}
	return ok(sc, fmt.Sprintf("%d of %d entries", len(items), len(matched)))
}

func (s *Server) validate(args map[string]any) toolOutcome {
	cv := catalogVersion(s.entries)
	if k := unknownMember(args, programArg, "context"); k != "" {
		return reqErr("invalid_request", fmt.Sprintf("lumen_validate takes lumen and context, not %q", k))
	}
	sc, diags, bounds := validateScene(args[programArg], s.index, s.idGen())
	if bounds != "" {
		return reqErr("bounds_exceeded", bounds)
	}
	diags = append(diags, s.contextDiags(args)...)
	valid := !diags.hasError()
	res := obj("valid", valid, "diagnostics", diags.list(), "catalog_version", cv)
	if valid {
		p := derivePlan(sc, s.index)
		res["plan"] = p
		return ok(res, fmt.Sprintf("valid: max risk %s", p["max_risk"]))
	}
	out := ok(res, fmt.Sprintf("invalid: %d diagnostic(s)", len(diags)))
	if s.has("invalid-as-error") {
		// Fault invalid-as-error: Part III §6 "A validation result with
		// valid: false is a successful tool result. ... For both, isError
		// MUST be false."
		out.isError = true
	}
	return out
}

// contextDiags applies Part II §6.4: lumen/1 has no context_schema, so any
// supplied context is a context_binding finding.
func (s *Server) contextDiags(args map[string]any) diagnostics {
	var d diagnostics
	if _, has := args["context"]; has && !s.has("context-ignored") {
		// (Fault context-ignored skips this: Part II §6.4 "A Language without
		// context_schema MUST reject supplied context through a
		// context_binding diagnostic.")
		d.add("error", "context_binding", "", "lumen/1 takes no context; omit it", "")
	}
	return d
}

// idGen names generated step ids. Conformant: from the step's position.
func (s *Server) idGen() func(pos string) string {
	if s.has("unstable-step-ids") {
		// Fault unstable-step-ids: Part II §3.4 the identifier-generation
		// scheme "MUST produce identical identifiers in the validation plan
		// and execution trace for the same program text at the same
		// catalog_version": a process-wide counter numbers generated ids.
		return func(string) string {
			s.genSeq++
			return fmt.Sprintf("step-%d", s.genSeq)
		}
	}
	return func(pos string) string { return pos }
}

func (s *Server) status() map[string]any {
	levels := obj()
	for _, e := range s.entries {
		if e["kind"] == "fixture" {
			levels[e["id"].(string)] = s.house.levels[e["id"].(string)]
		}
	}
	autos := append([]any{}, s.automations...)
	sent := make([]any, len(s.house.sent))
	for i, m := range s.house.sent {
		sent[i] = m
	}
	return obj("levels", levels, "power", s.house.power, "automations", autos, "notifications", sent)
}

// FaultNames lists the faults in a stable order.
func FaultNames() []string {
	names := make([]string, 0, len(faultDocs))
	for n := range faultDocs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// FaultDoc is the one-line description of a fault.
func FaultDoc(name string) string { return faultDocs[name] }

var faultDocs = map[string]string{
	"paging-no-cursor":      "catalog list omits next_cursor while entries remain (Part II §6.3)",
	"paging-loop":           "the last catalog page's next_cursor points back to the first page (Part II §6.3)",
	"paging-skip":           "each next_cursor skips one entry, so the listing misses entries (Part II §6.3)",
	"resource-differs":      "the pilotage://manifest resource differs from the pilotage_manifest result (Part III §8.3, §10.1 item 12)",
	"error-channel":         "an unknown trace_level or mode on lumen_run is a JSON-RPC -32602 error, not an invalid_request request error (Part III §4.6, §7.1)",
	"replay-new-run":        "an execute repeated with the same idempotency_key, scene and input runs again as a new Run (Part II §6.5.2, §6.5.6)",
	"store-false-fetchable": "a Run executed with store: false is kept and lumen_trace returns it (Part II §6.5, §6.6)",
	"trace-above-level":     "trace_level \"summary\" on lumen_run gets a full trace (Part II §5.8.1)",
	"unstable-step-ids":     "generated step ids come from a process-wide counter, so plan and trace ids differ (Part II §3.4, §5.8.4)",
	"drift-ignored":         "a stale expected_catalog_version does not refuse the Run (Part II §6.5.2 step 2, §6.5.3)",
	"invalid-as-error":      "lumen_validate answers an invalid scene with isError: true (Part III §6, §7.1)",
	"context-ignored":       "a supplied context is accepted silently instead of a context_binding diagnostic (Part II §6.4, §6.5.5)",
	"not-found-no-version":  "a catalog get of an unknown id answers not_found without catalog_version (Part II §6.3)",
}
