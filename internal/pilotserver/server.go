// Package pilotserver is a small Pilotage server written with the MCP Go
// SDK, for the tests of the snapshotter and of pilotagetest: the command
// lint/snapshotter/testdata/pilotserver serves it over stdio or HTTP, and
// tests in this module run it in process. Its Language, toyflow/1, runs
// programs made of "emit" steps: {"steps": [{"id": "a", "emit": "hi"}]}.
package pilotserver

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const (
	extension = "io.github.jafarsa0/pilotage"
	language  = "toyflow/1"
)

// Config selects the server's behaviour.
type Config struct {
	// Mode is one of:
	//
	//	compliant   a conformant server (also "")
	//	full        compliant plus a second Language, calc/1, with a paged
	//	            catalog, execution both, session retention and trace fetch
	//	faulty      the same server with known defects in its manifest and results
	//	nomanifest  no pilotage_manifest tool (the call draws a JSON-RPC error)
	Mode string
	// Fault breaks one requirement that one probe of lint/probe observes;
	// Faults lists them.
	Fault string
	// PageSize pages tools/list PageSize tools at a time (0: the SDK
	// default).
	PageSize int
	// Context gives calc/1 (Mode full) a context_schema that requires a
	// unit, so the missing- and wrong-context probes run end to end.
	Context bool
	// ManifestURI serves the manifest resource at this URI instead of
	// pilotage://manifest and advertises it as the handshake metadata's
	// manifest_uri (Part III §3.2).
	ManifestURI string
}

type server struct {
	Config
	// lists counts the complete catalog listings served, for the
	// listing-drops fault.
	lists atomic.Int32
	// validated holds the requests (program and context) this server
	// validated so far, for validate-flaky and plan-ids-unstable; per
	// server, so that one process running many faulty servers (the
	// pilotagetest tests) does not carry one's requests into another.
	validated sync.Map
}

func (p *server) faulty() bool { return p.Mode == "faulty" }

// Instructions are the server's MCP instructions.
const Instructions = "This server speaks Pilotage (io.github.jafarsa0/pilotage) for toyflow/1 programs. Call pilotage_manifest first: it lists the Language, its guides and loop tools. Then read the core guide, validate, and execute."

// New returns a server with cfg's behaviour.
func New(cfg Config) *mcp.Server {
	p := &server{Config: cfg}
	caps := &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}
	caps.AddExtension(extension, map[string]any{"version": "1.1"})
	s := mcp.NewServer(&mcp.Implementation{Name: "pilotserver", Version: "0.1.0"}, &mcp.ServerOptions{
		Capabilities: caps,
		PageSize:     p.PageSize,
		Instructions: Instructions,
	})
	// The manifest resource of Part III §3.2, so that snapshots record
	// resources/list and read it.
	s.AddResource(&mcp.Resource{URI: cfg.ResourceURI(), Name: "pilotage-manifest", MIMEType: "application/json"}, func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "application/json", Text: string(cfg.ResourceManifest())}}}, nil
	})
	if cfg.ManifestURI != "" {
		s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				res, err := next(ctx, method, req)
				var meta *mcp.Meta
				switch r := res.(type) {
				case *mcp.InitializeResult:
					meta = &r.Meta
				case *mcp.DiscoverResult:
					meta = &r.Meta
				}
				if meta != nil && err == nil {
					if *meta == nil {
						*meta = mcp.Meta{}
					}
					(*meta)[extension] = map[string]any{"manifest_uri": cfg.ManifestURI}
				}
				return res, err
			}
		})
	}
	for _, t := range p.tools() {
		s.AddTool(t.Tool, t.Handler)
	}
	return s
}

// Manifest is the manifest the server publishes, as JSON.
func (cfg Config) Manifest() []byte {
	b, _ := json.Marshal((&server{Config: cfg}).manifest())
	return b
}

// ResourceURI is the URI of the manifest resource.
func (cfg Config) ResourceURI() string {
	if cfg.ManifestURI != "" {
		return cfg.ManifestURI
	}
	return "pilotage://manifest"
}

// ResourceManifest is what the manifest resource holds: the manifest,
// except under the resource-differs fault.
func (cfg Config) ResourceManifest() []byte {
	if cfg.Fault != "resource-differs" {
		return cfg.Manifest()
	}
	m := (&server{Config: cfg}).manifest()
	m["languages"].([]any)[0].(map[string]any)["title"] = "Toy flows, as the resource has them"
	b, _ := json.Marshal(m)
	return b
}

// Tool is one tool of the server with its handler.
type Tool struct {
	Tool    *mcp.Tool
	Handler mcp.ToolHandler
}

// Tools returns the tools of a server with cfg's behaviour, for a server
// written with another SDK to serve the same answers.
func Tools(cfg Config) []Tool { return (&server{Config: cfg}).tools() }

func (p *server) tools() []Tool {
	var ts []Tool
	add := func(t *mcp.Tool, h mcp.ToolHandler) { ts = append(ts, Tool{t, h}) }
	object := map[string]any{"type": "object"}
	if p.Mode != "nomanifest" {
		add(&mcp.Tool{
			Name:         "pilotage_manifest",
			Description:  "Start here. Call this first, before any other tool on this server: it returns the Pilotage manifest that lists the program Languages, where their guides live, and which tools validate and execute programs.",
			InputSchema:  map[string]any{"type": "object", "properties": map[string]any{}},
			OutputSchema: object,
			Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return result(p.manifest(), false), nil
		})
	}
	add(&mcp.Tool{
		Name:        "pilotage_get_guide",
		Description: "Learn stage of the Pilotage loop: returns the guides for a Language. Without id it lists the guide index; with id it fetches one guide.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"language": map[string]any{"type": "string"},
				"id":       map[string]any{"type": "string"},
				"topic":    map[string]any{"type": "string"},
			},
			"required": []string{"language"},
		},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
	}, p.getGuide)
	add(&mcp.Tool{
		Name:         "validate_flow",
		Description:  "Validate stage for toyflow/1 programs: checks a flow and returns diagnostics and, for a valid flow, a plan with risk hints. Never runs anything.",
		InputSchema:  map[string]any{"type": "object", "properties": map[string]any{"flow": map[string]any{}, "context": map[string]any{}}, "required": []string{"flow"}},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true},
		Meta:         mcp.Meta{extension: map[string]any{"argument": "flow", "language": language}},
	}, p.validateFlow)
	destructive, openWorld := false, false
	add(&mcp.Tool{
		Name:        "run_flow",
		Description: "Execute stage for toyflow/1 programs: runs a validated flow immediately and returns the outcome with an inline trace.",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{
			"flow":                     map[string]any{},
			"program_ref":              map[string]any{"type": "string"},
			"input":                    map[string]any{"type": "object"},
			"trace_level":              map[string]any{"type": "string"},
			"expected_catalog_version": map[string]any{"type": "string"},
			"context":                  map[string]any{},
		}},
		OutputSchema: object,
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, DestructiveHint: &destructive, OpenWorldHint: &openWorld},
		Meta:         mcp.Meta{extension: map[string]any{"argument": "flow", "language": language}},
	}, p.runFlow)
	if p.full() {
		p.addCalc(add)
	}
	return ts
}

// result wraps a Part II response in the Part III §6 envelope.
func result(v any, isError bool) *mcp.CallToolResult {
	b, _ := json.Marshal(v)
	return &mcp.CallToolResult{
		StructuredContent: v,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(b)}},
		IsError:           isError,
	}
}

func (p *server) manifest() map[string]any {
	lang := map[string]any{
		"name":    language,
		"title":   "Toy flows",
		"guides":  "pilotage_get_guide",
		"loop":    map[string]any{"validate": "validate_flow", "execute": "run_flow"},
		"locator": "json-pointer",
		"capabilities": map[string]any{
			"guides": true, "validate": true, "plan": true, "execute": true,
		},
		"execution": "immediate",
		"trace":     "full",
		"retention": "none",
	}
	if p.faulty() {
		delete(lang, "title")
		lang["trace"] = "summary"
	}
	langs := []any{lang}
	if p.full() {
		langs = append(langs, p.calcManifest())
	}
	return map[string]any{"pilotage": "1.1", "languages": langs}
}

const coreBody = "# toyflow/1\n\nA flow is {\"steps\": [...]}; each step is {\"id\", \"emit\"} and emits its string.\n"

const closedSetsBody = "# Closed sets\n\nDiagnostic codes: constraint, input_binding, context_binding, bad_step.\nRun statuses: success (ok true), validation_error, catalog_drift, promotion_drift, partial, error (ok false; partial may have side effects, the others none).\nStep statuses: success, error.\nRisk levels: safe = {readOnly: true, destructive: false, openWorld: false}.\nSummary traces truncate nothing; output is the list of emitted strings.\nStep identifiers are the program's own ids.\n"

type guide struct {
	ID, Title, Level, Body string
	Topics                 []string
}

var guides = []guide{
	{"core", "toyflow/1 in one page", "core", coreBody, []string{"syntax"}},
	{"closed-sets", "Closed sets of toyflow/1", "reference", closedSetsBody, []string{"closed-sets"}},
}

func (p *server) guideMeta(g guide, lang string) map[string]any {
	size := len(g.Body)
	if p.faulty() && g.ID == "core" {
		size++ // the recorded fetch then disagrees with the index
	}
	return map[string]any{
		"id": g.ID, "title": g.Title, "level": g.Level, "topics": g.Topics,
		"language": lang, "version": "1", "size_bytes": size, "format": "text/markdown",
	}
}

func args(req *mcp.CallToolRequest) map[string]any {
	var m map[string]any
	_ = json.Unmarshal(req.Params.Arguments, &m)
	return m
}

func requestError(kind, msg string) *mcp.CallToolResult {
	return result(map[string]any{"error": map[string]any{"kind": kind, "message": msg}}, true)
}

func (p *server) getGuide(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	gs, lang := guides, language
	if p.full() && a["language"] == calcLanguage {
		gs, lang = calcGuides, calcLanguage
	} else if a["language"] != language {
		return requestError("not_found", "unknown language"), nil
	}
	id, _ := a["id"].(string)
	// Neither Language declares guides.topic_fetch (Part III §7.2).
	if _, ok := a["topic"]; ok && !p.faultIs("topic-ignored") {
		return requestError("invalid_request", "topic fetch is not declared"), nil
	}
	if id == "" {
		var index []any
		for _, g := range gs {
			m := p.guideMeta(g, lang)
			if p.faulty() && g.ID == "core" {
				m["body"] = g.Body
			}
			index = append(index, m)
		}
		if p.faultIs("duplicate-guide") && lang == calcLanguage {
			index = append(index, p.guideMeta(gs[0], lang))
		}
		return result(map[string]any{"guides": index}, false), nil
	}
	for _, g := range gs {
		if g.ID == id {
			m := p.guideMeta(g, lang)
			m["body"] = g.Body
			return result(map[string]any{"guide": m}, false), nil
		}
	}
	if p.faultIs("guide-kind") {
		return requestError("invalid_request", "unknown guide"), nil
	}
	return requestError("not_found", "unknown guide"), nil
}

type step struct {
	ID   string `json:"id"`
	Emit any    `json:"emit"`
}

// check validates a flow and returns its steps and diagnostics.
func check(a map[string]any) ([]step, []any) {
	raw, _ := json.Marshal(a["flow"])
	var flow struct {
		Steps []step `json:"steps"`
	}
	if err := json.Unmarshal(raw, &flow); err != nil || flow.Steps == nil {
		return nil, []any{diag("constraint", "", "a flow is an object with a steps array")}
	}
	var ds []any
	for i, s := range flow.Steps {
		if _, ok := s.Emit.(string); !ok || s.ID == "" || strings.ContainsAny(s.ID, "#/") {
			ds = append(ds, diag("bad_step", fmt.Sprintf("/steps/%d", i), "each step needs an id (without # or /) and an emit string"))
		}
	}
	return flow.Steps, ds
}

func diag(code, path, msg string) map[string]any {
	return map[string]any{"severity": "error", "code": code, "path": path, "message": msg}
}

func safe() map[string]any {
	return map[string]any{"readOnly": true, "destructive": false, "openWorld": false}
}

func (p *server) validateFlow(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	steps, ds := check(a)
	ds = append(ds, p.contextDiags(a)...)
	if ds == nil {
		ds = []any{}
	}
	resp := map[string]any{"valid": len(ds) == 0, "diagnostics": ds}
	if len(ds) == 0 {
		var ps []any
		for _, s := range steps {
			ps = append(ps, map[string]any{"id": s.ID, "risk": "safe", "risk_hints": safe()})
		}
		if ps == nil {
			ps = []any{}
		}
		hints := safe()
		if p.faulty() {
			hints["destructive"] = true
		}
		resp["plan"] = map[string]any{"steps": ps, "max_risk": "safe", "max_risk_hints": hints}
	}
	return result(resp, p.faulty() && len(ds) > 0), nil
}

// flowRequestError checks a run_flow request's well-formedness (Part II
// §6.5.2 step 1) and returns the request error, or nil.
func (p *server) flowRequestError(a map[string]any) (*mcp.CallToolResult, error) {
	_, hasFlow := a["flow"]
	_, hasRef := a["program_ref"]
	switch {
	case hasFlow && hasRef && !p.faultIs("both-runnables"), !hasFlow && !hasRef:
		return requestError("invalid_request", "give exactly one of flow and program_ref"), nil
	case hasRef && !hasFlow:
		return requestError("not_found", "unknown program reference"), nil
	}
	if l, ok := a["trace_level"]; ok && l != "none" && l != "summary" && l != "full" {
		if p.faultIs("trace-level-rpc") {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "trace_level must be none, summary or full"}
		}
		return requestError("invalid_request", "trace_level must be none, summary or full"), nil
	}
	if _, ok := a["mode"]; ok {
		return requestError("invalid_request", "toyflow/1 has execution immediate and takes no mode"), nil
	}
	if _, ok := a["test_run"]; ok && !p.faultIs("test-run-ignored") {
		return requestError("invalid_request", "toyflow/1 does not declare execute.test_run"), nil
	}
	if a["store"] == true && !p.faultIs("store-ignored") {
		return requestError("unsupported", "toyflow/1 retains nothing (retention none)"), nil
	}
	return nil, nil
}

func (p *server) runFlow(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	a := args(req)
	if r, err := p.flowRequestError(a); r != nil || err != nil {
		return r, err
	}
	steps, ds := check(a)
	ds = append(ds, p.contextDiags(a)...)
	if len(ds) > 0 {
		return result(map[string]any{
			"run_id":      "run-refused",
			"outcome":     map[string]any{"ok": false, "status": "validation_error", "error": "the flow is invalid"},
			"diagnostics": ds,
		}, false), nil
	}
	level := "full"
	if l, ok := a["trace_level"].(string); ok && (l == "summary" || l == "none") {
		level = l
	}
	var trace []any
	var out []any
	for _, s := range steps {
		e := map[string]any{"id": s.ID, "outcome": map[string]any{"ok": true, "status": "success", "error": nil}}
		if level == "full" || p.faulty() {
			e["input"] = map[string]any{"emit": s.Emit}
		}
		e["output"] = s.Emit
		trace = append(trace, e)
		out = append(out, s.Emit)
	}
	if trace == nil {
		trace = []any{}
	}
	outcome := map[string]any{"ok": true, "status": "success", "error": nil}
	if p.faulty() {
		outcome["error"] = "none"
	}
	runID := fmt.Sprintf("run-%d", utf8.RuneCountInString(fmt.Sprint(out)))
	resp := map[string]any{"run_id": runID, "outcome": outcome, "output": out}
	// At effective level none no trace rides the response (Part II
	// §5.8.1).
	if level != "none" {
		resp["trace"] = map[string]any{"run_id": runID, "level": level, "steps": trace}
	}
	return result(resp, false), nil
}
