// Package probe holds the probe set of `pilotage-lint snapshot --probe`:
// the requests sent to a live Pilotage server, each with the one deliberate
// defect it carries, the official conformance vector that covers it, the
// spec sentence that decides the right answer, and the argument for why it
// is safe to send to a server that does real work.
//
// The package builds requests and states expectations; it never connects to
// anything. lint/snapshotter sends the requests and records them, and the
// probe-expectation rule judges the recorded answers offline, so the same
// snapshot gives the same findings on any machine.
package probe

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/pilotagekit/pilotagekit/lint/source"
	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// Channel is where Part III §7.1 routes an answer.
type Channel string

// The three channels a tools/call can answer on.
const (
	// Result is a CallToolResult with isError false: data, diagnostics or
	// an outcome.
	Result Channel = "result"
	// RequestError is a CallToolResult with isError true and a Part III
	// §7.2 error object in structuredContent.
	RequestError Channel = "request error"
	// CarrierError is a JSON-RPC error response.
	CarrierError Channel = "JSON-RPC error"
)

// Expect is what the spec requires of the answer to a probe.
type Expect struct {
	Channel Channel
	// Kinds are the request-error kinds the spec allows, when Channel is
	// RequestError.
	Kinds []string
	// CatalogVersion: structuredContent must carry catalog_version (Part II
	// §6.3, including on the error of an unknown get).
	CatalogVersion bool
	// Invalid: a validate result must say valid: false.
	Invalid bool
	// Status is the outcome status an execute result must carry.
	Status string
	// SameAs names a probe of the same Language whose whole result this
	// one's must equal (Part III §7.2, whole-result indistinguishability).
	SameAs string
}

// Probe is one kind of request of the probe set.
type Probe struct {
	// Name is the probe's permanent machine name, recorded in the call's
	// probe tag.
	Name string
	// Vector is the ID of the official conformance vector that covers the
	// probe, or "".
	Vector string
	// Defect is the machine name of the one deliberate fault in the
	// request; "" for a well-formed request.
	Defect string
	// Spec is the section that decides the right answer, Quote its
	// sentence and Keyword the sentence's requirement keyword.
	Spec, Quote, Keyword string
	// Safety says why the request cannot cause a side effect on a correct
	// server.
	Safety string
	Expect Expect
	// Build returns the requests for one Language, or none and why: the
	// Skip the coverage report and pilotagetest give for a probe not sent.
	Build func(*Target) ([]Request, *Skip)
	// Pages marks a catalog list: the runner follows next_cursor, up to
	// Pages pages.
	Pages int
	// Uses says what the probe does with the user's --probe-run program
	// (pilotagetest's ProbeRun); a probe that uses it sends nothing
	// without one.
	Uses ProgramUse
}

// ProgramUse is what a probe does with the user's --probe-run program.
type ProgramUse uint8

// The uses of the user's program.
const (
	// NoProgram: the probe needs no program of the user's.
	NoProgram ProgramUse = iota
	// ValidatesProgram: it validates the program.
	ValidatesProgram
	// ExecutesProgram: it test-runs the program, or runs it for real on
	// a Language without a test run when Target.Immediate.
	ExecutesProgram
	// FetchesRun: it fetches the trace of a Run of the program, or of one
	// that was not stored.
	FetchesRun
)

// Request is one tools/call to send, or, with Method set, another
// request of that method whose params are Args.
type Request struct {
	Method string
	Tool   string
	Args   map[string]any
}

// Guide is a guide listed by the index probe.
type Guide struct {
	ID     string
	Topics []string
}

// Target is one Language of the probed server, with what the earlier
// probes of the run learned about it.
type Target struct {
	Language types.Language
	Caps     types.CapabilityMap
	// ValidateArg and ExecuteArg are the program-bearing argument names
	// declared by the loop tools (Part III §5); ValidateType and
	// ExecuteType the JSON type their schemas give the program, "" for
	// none.
	ValidateArg, ExecuteArg   string
	ValidateType, ExecuteType string
	// Guides and Entries are filled from the index and list probes.
	Guides  []Guide
	Entries []string
	// RefusedRun is the run_id of the refused invalid-program Run.
	RefusedRun string
	// Program is the user's --probe-run program, or nil; Input and
	// Context are the run's input and context given beside it, or nil.
	Program, Input, Context json.RawMessage
	// CatalogVersion is the token the validate of the user's program
	// answered, sent back as expected_catalog_version so that the plan and
	// the trace pair (Part II §5.8.4, §6.5.3).
	CatalogVersion string
	// Ran is set once the first test run of the user's program started;
	// the other run probes only follow a program that runs.
	Ran bool
	// Immediate runs Program for real on this Language, which declares
	// execute but no execute.test_run: the run probes send it without
	// test_run, with mode "immediate" under execution "both". Only a
	// caller that owns a throwaway server asks for it (pilotagetest's
	// RunImmediate); snapshot --probe-run never does.
	Immediate bool
	// UnstoredRun and StoredRun are the run_ids of the test runs made
	// with store: false and store: true.
	UnstoredRun, StoredRun string
	// IdempotencyKey is fresh for each snapshot, so that an earlier
	// snapshot's record never answers this one's replay.
	IdempotencyKey string
	// ManifestURI is the manifest resource the server advertises, for
	// ManifestResource, which reads it server-wide.
	ManifestURI string
	// InputSchemas are the inputSchema of each tool of the server, by
	// name, as listed and parsed once: every Target of a server shares
	// them, and Fit checks every request against its tool's.
	InputSchemas map[string]*source.Node

	contextSchema *source.Node
}

// Values no server can know: each names the probe so that a server log
// shows where it came from.
const (
	NoSuchGuide    = "pilotage-probe-no-such-guide"
	NoSuchLanguage = "pilotage-probe/no-such-language"
	NoSuchEntry    = "pilotage-probe-no-such-entry"
	NoSuchRef      = "pilotage-probe-no-such-program-ref"
	NoSuchRun      = "pilotage-probe-no-such-run"
	NoSuchTool     = "pilotage_probe_no_such_tool"
	NoSuchTopic    = "pilotage-probe-no-such-topic"
	NoSuchBaseline = "pilotage-probe-no-such-baseline"
	UnknownLevel   = "pilotage-probe-verbose"
	StaleCatalog   = "pilotage-probe-stale-catalog-version"
	// Unparsable opens three parentheses it never closes and starts with a
	// NUL, which no program text of any Language accepts.
	Unparsable = "\x00((( pilotage probe: this is not a program"
)

// Garbage is a program value of the JSON type the tool's schema declares
// that cannot parse as a program: a string, object key or array element
// that starts with NUL and never closes its parentheses. Matching the
// declared type keeps the request structurally valid, so the answer is
// the Language's, not the schema validator's.
func Garbage(jsonType string) any {
	switch jsonType {
	case "object":
		return map[string]any{Unparsable: Unparsable}
	case "array":
		return []any{Unparsable}
	}
	return Unparsable
}

// Empty is the empty program of the declared JSON type.
func Empty(jsonType string) any {
	switch jsonType {
	case "object":
		return map[string]any{}
	case "array":
		return []any{}
	}
	return ""
}

func (t *Target) declared(c string) bool { return t.Caps.Declared(c) }

// execArgs is a well-formed execute request apart from the runnable: the
// mode a Language with execution "both" requires (Part III §4.4).
func (t *Target) execArgs() map[string]any {
	a := map[string]any{}
	if t.Language.Execution == "both" {
		a["mode"] = "immediate"
	}
	return a
}

func (t *Target) garbageExec() map[string]any {
	a := t.execArgs()
	a[t.ExecuteArg] = Garbage(t.ExecuteType)
	return a
}

// cannotExecute says why the Language takes no execute probe, or nil.
func (t *Target) cannotExecute() *Skip {
	return t.cannotLoop("execute", t.Language.Loop.Execute, t.ExecuteArg)
}

// cannotValidate says why the Language takes no validate probe, or nil.
func (t *Target) cannotValidate() *Skip {
	return t.cannotLoop("validate", t.Language.Loop.Validate, t.ValidateArg)
}

// cannotLoop says why the Language takes no probe of the loop operation op
// (validate or execute), whose tool its loop names as tool and whose
// program-bearing argument is arg, or nil: the probe needs all three.
func (t *Target) cannotLoop(op, tool, arg string) *Skip {
	switch {
	case !t.declared(op):
		return undeclared(op)
	case tool == "":
		return &Skip{Undeclared, "the Language's loop names no " + op + " tool"}
	case arg == "":
		return &Skip{Undeclared, "the " + op + " tool declares no program-bearing argument for the Language (Part III §5)"}
	}
	return nil
}

func one(tool string, args map[string]any) ([]Request, *Skip) {
	return []Request{{Tool: tool, Args: args}}, nil
}

func (t *Target) guide(args map[string]any) ([]Request, *Skip) {
	if !t.declared("guides") {
		return nil, undeclared("guides")
	}
	args["language"] = t.Language.Name
	return one(types.ToolGetGuide, args)
}

func (t *Target) catalog(args map[string]any) ([]Request, *Skip) {
	if !t.declared("catalog") {
		return nil, undeclared("catalog")
	}
	args["language"] = t.Language.Name
	return one(types.ToolCatalog, args)
}

func (t *Target) exec(args map[string]any) ([]Request, *Skip) {
	if why := t.cannotExecute(); why != nil {
		return nil, why
	}
	return one(t.Language.Loop.Execute, args)
}

// maxGuides caps the guide fetches of one Language.
const maxGuides = 20

// MaxPages caps the pages of a catalog listing at the server's own page
// size; MaxLimitPages those of the listing one entry a page.
const (
	MaxPages      = 50
	MaxLimitPages = 100
)

const (
	safeRead     = "A read: the learn and lookup operations have no side effects on any server, correct or not."
	safeValidate = "Validation MUST create no externally observable state change (Part II §6.4), and the program cannot parse."
	safeGarbage  = "The program cannot parse (it starts with NUL and never closes its parentheses), so even a server that ignores the defect refuses the Run at re-validation (Part II §6.5.2 step 3) before anything executes. Where the tool's schema types the program as an object, the garbage is the name and value of its one member; a Language that ignored that member would see an empty program."
	safeUnknown  = "The identifier is made up and names the probe, so no server can resolve it to anything to act on."
)

// Quote pieces shared by the probes. A Quote is the spec's text verbatim;
// where the deciding words stand apart, " … " joins them. Part III §10.1
// holds the MUST behind every "is a request error" of Parts II and III.
const (
	elide         = " … "
	conformant    = "In addition to satisfying Part II Section 12.1, a conformant MCP Server MUST satisfy all of the following requirements."
	errorMapping  = "It uses `isError` according to Sections 6 and 7 and emits only the closed request-error kinds defined in Section 7.2."
	mustMapErrors = elide + conformant + elide + errorMapping
	notFoundRow   = "| `not_found` | Unknown guide, topic, catalog entry, Language, promoted reference, or Run, including expired and non-retained Runs; includes unauthorized objects required to be indistinguishable from nonexistent ones |"
	invalidRow    = "| `invalid_request` | Invalid runnable selection, unsupported `test_run` or `mode`, unknown `trace_level`, or a member inapplicable to the verb or declared capabilities |"
	noErrorFor    = "A Server MUST NOT report: - an invalid program; - a failed Run through: - `isError: true`; - a JSON-RPC error."
	oneRunnable   = "Exactly one of the following MUST be present: - `program`, containing an inline program; - `program_ref`, identifying a promoted program. A request containing both or neither is a request error."
)

// Set is the probe set, in the order the runner sends it: a probe that
// needs what an earlier one learned comes after it.
var Set = []*Probe{
	{
		Name: "guide-index", Vector: "PIL-LEARN-INDEX-G",
		Spec: "Part II §6.2", Keyword: "MUST",
		Quote:  "A Server MUST support the index form so that a Client can choose which guides to retrieve without first loading their content.",
		Safety: safeRead,
		Expect: Expect{Channel: Result},
		Build:  func(t *Target) ([]Request, *Skip) { return t.guide(map[string]any{}) },
	},
	{
		Name: "guide-fetch", Vector: "PIL-LEARN-FETCH-G",
		Spec: "Part II §6.2, Part III §4.1, §10.1", Keyword: "MUST",
		Quote:  conformant + elide + errorMapping,
		Safety: safeRead + " At most 20 guides per Language are fetched.",
		Expect: Expect{Channel: Result},
		Build: func(t *Target) ([]Request, *Skip) {
			if !t.declared("guides") {
				return nil, undeclared("guides")
			}
			if len(t.Guides) == 0 {
				return nil, unmet("the guide index listed no guide to fetch")
			}
			var out []Request
			for i, g := range t.Guides {
				if i == maxGuides {
					break
				}
				r, _ := t.guide(map[string]any{"id": g.ID})
				out = append(out, r...)
			}
			return out, nil
		},
	},
	{
		Name: "guide-unknown-id", Vector: "PIL-LEARN-UNKNOWN-ID-B", Defect: "unknown_guide_id",
		Spec: "Part II §6.2, Part III §7.2, §10.1", Keyword: "MUST",
		Quote:  "An unknown guide `id` is a request error." + mustMapErrors,
		Safety: safeRead + " " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}},
		Build:  func(t *Target) ([]Request, *Skip) { return t.guide(map[string]any{"id": NoSuchGuide}) },
	},
	{
		Name: "guide-unknown-language", Defect: "unknown_language",
		Spec: "Part III §4.1, §7.2, §10.1", Keyword: "MUST",
		Quote:  notFoundRow + mustMapErrors,
		Safety: safeRead + " " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}},
		Build: func(t *Target) ([]Request, *Skip) {
			r, why := t.guide(map[string]any{})
			if len(r) > 0 {
				r[0].Args["language"] = NoSuchLanguage
			}
			return r, why
		},
	},
	{
		Name: "guide-topic-undeclared", Vector: "PIL-LEARN-TOPIC-UNDECLARED-B", Defect: "undeclared_topic_fetch",
		Spec: "Part III §4.1, §7.2, §10.1", Keyword: "MUST",
		Quote:  invalidRow + mustMapErrors,
		Safety: safeRead,
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if !t.declared("guides") {
				return nil, undeclared("guides")
			}
			if t.Caps.SubFeature("guides", "topic_fetch") {
				return nil, declares("guides.topic_fetch", "a topic fetch is no defect")
			}
			for _, g := range t.Guides {
				if len(g.Topics) > 0 {
					return t.guide(map[string]any{"id": g.ID, "topic": g.Topics[0]})
				}
			}
			return nil, unmet("the guide index listed no guide with a topic")
		},
	},
	{
		Name: "guide-unknown-topic", Defect: "unknown_topic",
		Spec: "Part III §4.1, §7.2, §10.1", Keyword: "MUST",
		Quote:  notFoundRow + mustMapErrors,
		Safety: safeRead + " " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}},
		Build: func(t *Target) ([]Request, *Skip) {
			switch {
			case !t.declared("guides"):
				return nil, undeclared("guides")
			case !t.Caps.SubFeature("guides", "topic_fetch"):
				return nil, undeclared("guides.topic_fetch")
			case len(t.Guides) == 0:
				return nil, unmet("the guide index listed no guide")
			}
			return t.guide(map[string]any{"id": t.Guides[0].ID, "topic": NoSuchTopic})
		},
	},
	// catalog-list-paged comes before catalog-list, so that the nearest
	// first page before catalog-list-again is catalog-list's, sent with
	// the same arguments (call-catalog-token-changed-needlessly).
	{
		Name: "catalog-list-paged", Vector: "PIL-LOOKUP-PAGINATION-G",
		Spec: "Part II §6.3", Keyword: "MUST",
		Quote:  "When additional results remain, the response MUST include `next_cursor`.",
		Safety: safeRead + " At most 100 pages of one entry per Language are read; a cursor or an entry that repeats stops the listing.",
		Expect: Expect{Channel: Result, CatalogVersion: true},
		Pages:  MaxLimitPages,
		Build:  func(t *Target) ([]Request, *Skip) { return t.catalog(map[string]any{"verb": "list", "limit": 1}) },
	},
	{
		Name: "catalog-list", Vector: "PIL-LOOKUP-LIST-G",
		Spec: "Part II §6.3", Keyword: "MUST",
		Quote:  "Every successful or catalog-related response MUST carry `catalog_version`.",
		Safety: safeRead + " At most 50 pages per Language are read; a cursor or an entry that repeats stops the listing.",
		Expect: Expect{Channel: Result, CatalogVersion: true},
		Pages:  MaxPages,
		Build:  func(t *Target) ([]Request, *Skip) { return t.catalog(map[string]any{"verb": "list"}) },
	},
	{
		Name: "catalog-get", Vector: "",
		Spec: "Part II §6.3", Keyword: "MUST",
		Quote:  "Every successful or catalog-related response MUST carry `catalog_version`.",
		Safety: safeRead,
		Expect: Expect{Channel: Result, CatalogVersion: true},
		Build: func(t *Target) ([]Request, *Skip) {
			if !t.declared("catalog") {
				return nil, undeclared("catalog")
			}
			if len(t.Entries) == 0 {
				return nil, unmet("the catalog listing returned no entry to get")
			}
			return t.catalog(map[string]any{"verb": "get", "id": t.Entries[0]})
		},
	},
	{
		Name: "catalog-get-unknown", Vector: "PIL-LOOKUP-GET-UNKNOWN-B", Defect: "unknown_entry_id",
		Spec: "Part II §6.3", Keyword: "MUST",
		Quote:  "An unknown `id` is a request error. The error response MUST still carry the current `catalog_version`.",
		Safety: safeRead + " " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}, CatalogVersion: true},
		Build:  func(t *Target) ([]Request, *Skip) { return t.catalog(map[string]any{"verb": "get", "id": NoSuchEntry}) },
	},
	{
		Name: "catalog-changed-since-undeclared", Vector: "PIL-LOOKUP-CHANGED-UNDECLARED-B", Defect: "undeclared_changed_since",
		Spec: "Part III §4.2, §7.2, §10.1", Keyword: "MUST",
		Quote:  invalidRow + mustMapErrors,
		Safety: safeRead,
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if t.declared("catalog") && t.Caps.SubFeature("catalog", "changed_since") {
				return nil, declares("catalog.changed_since", "changed_since is no defect")
			}
			return t.catalog(map[string]any{"verb": "changed_since", "catalog_version": NoSuchBaseline})
		},
	},
	{
		Name: "catalog-unknown-baseline", Vector: "PIL-LOOKUP-UNKNOWN-BASELINE-B", Defect: "unknown_baseline",
		Spec: "Part II §6.3", Keyword: "MUST",
		Quote:  "When the Server cannot calculate changes from the supplied token, it MUST return a distinguishable unknown-baseline request error.",
		Safety: safeRead + " " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"unknown_baseline"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if t.declared("catalog") && !t.Caps.SubFeature("catalog", "changed_since") {
				return nil, undeclared("catalog.changed_since")
			}
			return t.catalog(map[string]any{"verb": "changed_since", "catalog_version": NoSuchBaseline})
		},
	},
	{
		Name: "validate-unparsable", Defect: "unparsable_program",
		Spec: "Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeValidate,
		Expect: Expect{Channel: Result, Invalid: true},
		Build:  (*Target).validateGarbage,
	},
	{
		Name: "validate-empty", Defect: "empty_program",
		Spec: "Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: "Validation MUST create no externally observable state change (Part II §6.4); the program is empty.",
		Expect: Expect{Channel: Result},
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotValidate(); why != nil {
				return nil, why
			}
			return one(t.Language.Loop.Validate, map[string]any{t.ValidateArg: Empty(t.ValidateType)})
		},
	},
	{
		Name: "validate-unparsable-again", Vector: "PIL-VALIDATE-SIDE-EFFECT-FREE-G", Defect: "unparsable_program",
		Spec: "Part II §3.4, §6.4, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeValidate + " It is the validate-unparsable request twice more, as the vector repeats it three times: validation MUST be safe to repeat any number of times (Part II §6.4).",
		Expect: Expect{Channel: Result, Invalid: true},
		Build: func(t *Target) ([]Request, *Skip) {
			r, why := t.validateGarbage()
			if len(r) == 1 {
				r = append(r, Request{Tool: r[0].Tool, Args: maps.Clone(r[0].Args)})
			}
			return r, why
		},
	},
	{
		Name: "validate-context-undeclared", Vector: "PIL-VALIDATE-CONTEXT-UNDECLARED-B", Defect: "undeclared_context",
		Spec: "Part II §6.4", Keyword: "MUST",
		Quote:  "A Language without `context_schema` MUST reject supplied context through a `context_binding` diagnostic.",
		Safety: safeValidateAny + " The context names the probe and binds nothing.",
		Expect: Expect{Channel: Result},
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotValidate(); why != nil {
				return nil, why
			}
			if len(t.Language.ContextSchema) > 0 {
				return nil, declares("a context_schema", "context is no defect")
			}
			a := t.validateArgs()
			a["context"] = map[string]any{"pilotage-probe": "context this Language does not declare"}
			return one(t.Language.Loop.Validate, a)
		},
	},
	{
		Name: "validate-context-missing", Vector: "PIL-VALIDATE-CONTEXT-MISSING-B", Defect: "missing_context",
		Spec: "Part II §6.4", Keyword: "MUST",
		Quote:  "For such a Language: - missing context; - malformed context; - context that does not satisfy the schema MUST produce a diagnostic with code `context_binding`.",
		Safety: safeValidateAny,
		Expect: Expect{Channel: Result},
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotValidate(); why != nil {
				return nil, why
			}
			if len(t.Language.ContextSchema) == 0 {
				return nil, undeclared("context_schema")
			}
			a := t.validateArgs()
			delete(a, "context")
			return one(t.Language.Loop.Validate, a)
		},
	},
	{
		Name: "validate-context-rejected", Defect: "context_breaks_schema",
		Spec: "Part II §6.4", Keyword: "MUST",
		Quote:  "For such a Language: - missing context; - malformed context; - context that does not satisfy the schema MUST produce a diagnostic with code `context_binding`.",
		Safety: safeValidateAny + " The context is a value that the context_schema rejects, checked with a JSON Schema validator before it is sent, so no schema-respecting Language can bind it.",
		Expect: Expect{Channel: Result},
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotValidate(); why != nil {
				return nil, why
			}
			if len(t.Language.ContextSchema) == 0 {
				return nil, undeclared("context_schema")
			}
			a := t.validateArgs()
			for _, bad := range badContexts(t.Language.ContextSchema) {
				a["context"] = bad
				if !t.contextFits(bad) && t.fits(t.Language.Loop.Validate, a) == nil {
					return one(t.Language.Loop.Validate, a)
				}
			}
			return nil, &Skip{NoFit, ReasonNoFit + ": no context the validate tool's schema accepts breaks the context_schema"}
		},
	},
	// catalog-list-again comes after the validate probes, not right after
	// catalog-list: only reads lie between the two listings (gets, and
	// validations, which MUST change nothing), so their tokens still
	// compare, and each of those validate answers then has a catalog
	// token recorded on both sides, which call-validate-catalog-version-stale
	// needs. The execute probes come later: they count as possibly
	// changing the catalog.
	{
		Name: "catalog-list-again", Vector: "PIL-CATALOG-VERSION-STABLE-G",
		Spec: "Part II §5.4, §6.3", Keyword: "MUST",
		Quote:  "Every successful or catalog-related response MUST carry `catalog_version`.",
		Safety: safeRead + " One more first page, sent after the validate probes with only reads since the listing (validation MUST create no externally observable state change, Part II §6.4), so that the two tokens compare, and so that the token each earlier validate probe answered lies between two catalog tokens.",
		Expect: Expect{Channel: Result, CatalogVersion: true},
		Build:  func(t *Target) ([]Request, *Skip) { return t.catalog(map[string]any{"verb": "list"}) },
	},
	{
		Name: "execute-invalid-program", Vector: "PIL-EXECUTE-GUARD-B", Defect: "unparsable_program",
		Spec: "Part II §6.5.2", Keyword: "MUST",
		Quote:  "For an inline program, the Server MUST validate `{program, context}` exactly as `validate` would. When invalid, it MUST: - return outcome `validation_error`; - attach the diagnostics; - execute nothing.",
		Safety: safeGarbage,
		Expect: Expect{Channel: Result, Status: "validation_error"},
		Build:  func(t *Target) ([]Request, *Skip) { return t.exec(t.garbageExec()) },
	},
	{
		Name: "execute-drift-invalid", Vector: "PIL-EXECUTE-DRIFT-BEFORE-VALIDATION-B", Defect: "stale_catalog_version_and_unparsable_program",
		Spec: "Part II §6.5.2", Keyword: "MUST",
		Quote:  "The Server MUST process execute requests in the following order. The first failing check determines the response." + elide + "When `expected_catalog_version` is supplied and differs from the current authorization-scoped `catalog_version`, the Server MUST return:",
		Safety: safeGarbage + " The expected_catalog_version is made up, so a correct server refuses the Run at the drift check (step 2), before it even re-validates.",
		Expect: Expect{Channel: Result, Status: "catalog_drift"},
		Build: func(t *Target) ([]Request, *Skip) {
			if !t.declared("catalog") {
				return nil, undeclared("catalog, so no catalog_version can drift")
			}
			a := t.garbageExec()
			a["expected_catalog_version"] = StaleCatalog
			return t.exec(a)
		},
	},
	{
		Name: "execute-both-runnables", Vector: "PIL-EXECUTE-BOTH-RUNNABLES-B", Defect: "both_runnables",
		Spec: "Part II §6.5.1", Keyword: "MUST",
		Quote:  oneRunnable,
		Safety: safeGarbage + " The program_ref is made up, so it resolves to nothing either.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			a := t.garbageExec()
			a["program_ref"] = NoSuchRef
			return t.exec(a)
		},
	},
	{
		Name: "execute-no-runnable", Vector: "PIL-EXECUTE-NO-RUNNABLE-B", Defect: "no_runnable",
		Spec: "Part II §6.5.1", Keyword: "MUST",
		Quote:  oneRunnable,
		Safety: "The request names nothing to run; its input names the probe.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			a := t.execArgs()
			a["input"] = map[string]any{"pilotage-probe": "input with nothing to run"}
			return t.exec(a)
		},
	},
	{
		Name: "execute-unknown-trace-level", Vector: "PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B", Defect: "unknown_trace_level",
		Spec: "Part III §4.6, §7.2", Keyword: "MUST NOT",
		Quote:  "A Server MUST NOT return a protocol error for a loop-tool value or eligibility fault." + elide + invalidRow,
		Safety: safeGarbage,
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			a := t.garbageExec()
			a["trace_level"] = UnknownLevel
			return t.exec(a)
		},
	},
	{
		Name: "execute-test-run-undeclared", Vector: "PIL-EXECUTE-TEST-RUN-UNDECLARED-B", Defect: "undeclared_test_run",
		Spec: "Part II §6.5, Part III §7.2, §10.1", Keyword: "MUST",
		Quote:  "`test_run` is accepted only when `execute.test_run` is declared. Supplying it otherwise is a request error." + mustMapErrors,
		Safety: safeGarbage,
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if t.declared("execute") && t.Caps.SubFeature("execute", "test_run") {
				return nil, declares("execute.test_run", "test_run is no defect")
			}
			a := t.garbageExec()
			a["test_run"] = true
			return t.exec(a)
		},
	},
	{
		Name: "execute-store-unsupported", Vector: "PIL-EXECUTE-STORE-UNSUPPORTED-B", Defect: "store_without_retention",
		Spec: "Part II §6.5", Keyword: "MUST",
		Quote:  "A Server whose declared retention is `\"none\"` MUST reject the request with a request error of kind `unsupported`. It MUST NOT silently ignore the field.",
		Safety: safeGarbage,
		Expect: Expect{Channel: RequestError, Kinds: []string{"unsupported"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if t.Language.Retention != "none" {
				return nil, &Skip{Undeclared, fmt.Sprintf("the Language's retention is %q, not \"none\", so store: true is no defect", t.Language.Retention)}
			}
			a := t.garbageExec()
			a["store"] = true
			return t.exec(a)
		},
	},
	{
		Name: "execute-mode-missing", Vector: "PIL-EXECUTE-MODE-MISSING-B", Defect: "mode_missing",
		Spec: "Part III §4.4", Keyword: "REQUIRED",
		Quote:  "For that Language, `mode` is REQUIRED." + elide + "The following are `invalid_request` conditions: - absent `mode` where `execution` is `\"both\"`;",
		Safety: safeGarbage,
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			if t.Language.Execution != "both" {
				return nil, &Skip{Undeclared, fmt.Sprintf("the Language's execution is %q, not \"both\", so it requires no mode", t.Language.Execution)}
			}
			a := t.garbageExec()
			delete(a, "mode")
			return t.exec(a)
		},
	},
	{
		Name: "execute-unknown-ref", Defect: "unknown_program_ref",
		Spec: "Part II §6.5.2, Part III §7.2, §10.1", Keyword: "MUST",
		Quote:  notFoundRow + mustMapErrors,
		Safety: safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found", "invalid_request"}},
		Build: func(t *Target) ([]Request, *Skip) {
			// Only a catalog can expose promoted programs (Part II §6.5.1).
			if !t.declared("catalog") {
				return nil, undeclared("catalog, the only place promoted programs show (Part II §6.5.1)")
			}
			a := t.execArgs()
			a["program_ref"] = NoSuchRef
			return t.exec(a)
		},
	},
	{
		Name: "validate-program", Vector: "PIL-VALIDATE-GOOD-G",
		Spec: "Part II §6.4, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeValidateAny + " Sent only with --probe-run, to the Languages the program is test-run on, with the --probe-context you gave.",
		Expect: Expect{Channel: Result},
		Uses:   ValidatesProgram,
		Build:  (*Target).validateProgram,
	},
	{
		Name: "execute-test-run", Vector: "PIL-EXECUTE-SUCCESS-G",
		Spec: "Part II §6.5.7, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeTestRun,
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build:  func(t *Target) ([]Request, *Skip) { return t.testRun(func(map[string]any) {}) },
	},
	{
		Name: "execute-test-run-summary",
		Spec: "Part II §5.8.1, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeTestRun + " Sent only once the first test run started.",
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build: func(t *Target) ([]Request, *Skip) {
			return t.rerun(func(a map[string]any) { a["trace_level"] = "summary" })
		},
	},
	{
		Name: "execute-test-run-none", Vector: "PIL-EXECUTE-TRACE-NONE-G",
		Spec: "Part II §5.8.1, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeTestRun + " Sent only once the first test run started.",
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build: func(t *Target) ([]Request, *Skip) {
			return t.rerun(func(a map[string]any) { a["trace_level"] = "none" })
		},
	},
	{
		Name: "execute-test-run-store", Vector: "PIL-EXECUTE-STORE-RETAIN-G",
		Spec: "Part II §6.5", Keyword: "MUST",
		Quote:  "When `store` is `true`, the Engine MUST retain the run record so that its trace can later be fetched through the trace fetch door.",
		Safety: safeRun + " Sent only once the first test run started, to a Language that declares trace_fetch. This is the one probe that leaves a record behind: the record of a test run, kept for the Language's declared retention.",
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotFetch(); why != nil {
				return nil, why
			}
			return t.rerun(func(a map[string]any) { a["store"] = true; a["trace_level"] = "none" })
		},
	},
	{
		Name: "execute-idempotent-first",
		Spec: "Part II §6.5.6, Part III §7.1", Keyword: "MUST NOT",
		Quote:  noErrorFor,
		Safety: safeTestRun + " Sent only once the first test run started, to a Language that declares execute.idempotency, with a key made for this snapshot.",
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build:  func(t *Target) ([]Request, *Skip) { return t.idempotent(nil) },
	},
	{
		Name: "execute-idempotent-replay", Vector: "PIL-EXECUTE-IDEMPOTENT-REPLAY-G",
		Spec: "Part II §6.5.6", Keyword: "MUST",
		Quote:  "Two requests with the same: - `idempotency_key`; - runnable; - input MUST be treated as one execution.",
		Safety: safeTestRun + " It repeats execute-idempotent-first exactly, so a correct server returns the recorded result and runs nothing.",
		Expect: Expect{Channel: Result},
		Uses:   ExecutesProgram,
		Build:  func(t *Target) ([]Request, *Skip) { return t.idempotent(nil) },
	},
	{
		Name: "execute-idempotent-conflict", Vector: "PIL-EXECUTE-IDEMPOTENT-CONFLICT-B", Defect: "idempotency_key_reused",
		Spec: "Part II §6.5.6, Part III §7.2, §10.1", Keyword: "MUST",
		Quote:  "A request using the same key with a different runnable or different input is a request error." + mustMapErrors,
		Safety: safeTestRun + " The key conflict is found at request well-formedness (Part II §6.5.2 step 1), before anything runs; a server that missed it would test-run the program with an input member that names the probe.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"idempotency_conflict"}},
		Uses:   ExecutesProgram,
		Build: func(t *Target) ([]Request, *Skip) {
			// "The Server's deduplication window MUST be at least as long
			// as the declared retention period" (Part II §6.5.6): under
			// retention "none" it may be no window at all, so a server
			// that forgot the key and ran the request is right, and the
			// answer would judge nothing (call-idempotent-replay-new-run
			// reads the same sentence).
			if p, err := t.Language.Retention.Parse(); err != nil || !p.Fetchable() {
				return nil, declares(fmt.Sprintf("retention %q", t.Language.Retention), "its deduplication window may be no window at all (Part II §6.5.6) and a reused key need not be remembered")
			}
			return t.idempotent(func(a map[string]any) {
				in := map[string]any{}
				if m, ok := a["input"].(map[string]any); ok {
					for k, v := range m {
						in[k] = v
					}
				}
				in["pilotage-probe-conflict"] = true
				a["input"] = in
			})
		},
	},
	{
		Name: "trace-unknown-run", Vector: "PIL-TRACE-FETCH-INDISTINGUISHABLE-B", Defect: "unknown_run_id",
		Spec: "Part II §6.6", Keyword: "MUST",
		Quote:  "The following conditions MUST produce the same request error, of kind `not_found`: - unknown `run_id`; - expired Run; - non-retained Run; - unauthorized Run.",
		Safety: "The trace fetch door only reads a stored record. " + safeUnknown,
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}},
		Build:  func(t *Target) ([]Request, *Skip) { return t.trace(NoSuchRun) },
	},
	{
		Name: "trace-refused-run", Vector: "PIL-TRACE-FETCH-INDISTINGUISHABLE-B", Defect: "refused_run_id",
		Spec: "Part III §7.2", Keyword: "MUST",
		Quote:  "Where Part II requires two conditions to be indistinguishable, the entire result MUST be indistinguishable, including: - `kind`; - `message`; - `content`; - every other field; - observable response structure.",
		Safety: "The trace fetch door only reads a stored record; the Run was refused, so nothing is stored.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}, SameAs: "trace-unknown-run"},
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotFetch(); why != nil {
				return nil, why
			}
			if t.RefusedRun == "" || t.RefusedRun == NoSuchRun {
				return nil, unmet(ReasonNoRefusedRun)
			}
			return t.trace(t.RefusedRun)
		},
	},
	{
		Name: "trace-unstored-run", Vector: "PIL-EXECUTE-STORE-FALSE-G", Defect: "unstored_run_id",
		Spec: "Part II §6.6", Keyword: "MUST",
		Quote:  "The following conditions MUST produce the same request error, of kind `not_found`: - unknown `run_id`; - expired Run; - non-retained Run; - unauthorized Run.",
		Safety: "The trace fetch door only reads a stored record; the test run was sent with store: false, so nothing is stored.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"not_found"}, SameAs: "trace-unknown-run"},
		Uses:   FetchesRun,
		Build: func(t *Target) ([]Request, *Skip) {
			if why := t.cannotFetch(); why != nil {
				return nil, why
			}
			if t.Language.Retention == "" || t.Language.Retention == "none" {
				return nil, &Skip{Undeclared, "the Language retains no Run (retention none), so store: false is not sent and no unstored Run exists to tell apart"}
			}
			if why := t.cannotTestRun(); why != nil {
				return nil, why
			}
			if t.UnstoredRun == "" {
				return nil, unmet(ReasonNeverRan + ", so no unstored Run exists to fetch")
			}
			return t.trace(t.UnstoredRun)
		},
	},
	{
		Name: "trace-fetch-retained", Vector: "PIL-TRACE-FETCH-RETAINED-G",
		Spec: "Part II §6.6", Keyword: "MUST",
		Quote:  "A Run executed with `store: true` MUST be retrievable within the scope of the declared retention value: within its Session for `\"session\"`, and for at least the declared duration otherwise.",
		Safety: "The trace fetch door only reads a stored record: the probe's own test run.",
		Expect: Expect{Channel: Result},
		Uses:   FetchesRun,
		Build:  func(t *Target) ([]Request, *Skip) { return t.fetchStored("") },
	},
	{
		Name: "trace-fetch-summary", Vector: "PIL-TRACE-FETCH-LEVEL-G",
		Spec: "Part II §6.6", Keyword: "MUST NOT",
		Quote:  "The trace is returned at the level at which it was originally recorded. When the request supplies `trace_level`, the returned level is the lower of the requested level and the recorded level. The fetch door MUST NOT return more than was recorded.",
		Safety: "The trace fetch door only reads a stored record: the probe's own test run.",
		Expect: Expect{Channel: Result},
		Uses:   FetchesRun,
		Build:  func(t *Target) ([]Request, *Skip) { return t.fetchStored("summary") },
	},
	{
		Name: "trace-fetch-full",
		Spec: "Part II §6.6", Keyword: "MUST NOT",
		Quote:  "The trace is returned at the level at which it was originally recorded. When the request supplies `trace_level`, the returned level is the lower of the requested level and the recorded level. The fetch door MUST NOT return more than was recorded.",
		Safety: "The trace fetch door only reads a stored record: the probe's own test run.",
		Expect: Expect{Channel: Result},
		Uses:   FetchesRun,
		Build:  func(t *Target) ([]Request, *Skip) { return t.fetchStored("full") },
	},
	{
		Name: "trace-fetch-level-none", Vector: "PIL-TRACE-FETCH-LEVEL-B", Defect: "trace_level_none_on_fetch",
		Spec: "Part II §6.6, Part III §7.2, §10.1", Keyword: "MUST",
		Quote:  "A fetch request carrying `trace_level: \"none\"` is rejected with a request error of kind `invalid_request`." + mustMapErrors,
		Safety: "The trace fetch door only reads a stored record: the probe's own test run.",
		Expect: Expect{Channel: RequestError, Kinds: []string{"invalid_request"}},
		Uses:   FetchesRun,
		Build:  func(t *Target) ([]Request, *Skip) { return t.fetchStored("none") },
	},
	{
		// Last, so that every test run pairs with validate-program's plan
		// and this second plan is compared with the first alone.
		Name: "validate-program-again",
		Spec: "Part II §3.4, §6.4", Keyword: "MUST",
		Quote:  "the Engine MUST generate deterministic identifiers." + elide + "- MUST produce identical identifiers in the validation plan and execution trace for the same program text at the same `catalog_version`.",
		Safety: safeValidateAny + " Sent only with --probe-run: the validate-program request again, so that the two plans of one program show whether its step identifiers are deterministic.",
		Expect: Expect{Channel: Result},
		Uses:   ValidatesProgram,
		Build:  (*Target).validateProgram,
	},
}

// validateGarbage validates a program that cannot parse; sent again, the
// same request shows whether validation answers it the same way.
func (t *Target) validateGarbage() ([]Request, *Skip) {
	if why := t.cannotValidate(); why != nil {
		return nil, why
	}
	return one(t.Language.Loop.Validate, map[string]any{t.ValidateArg: Garbage(t.ValidateType)})
}

// validateProgram validates the user's --probe-run program, with its
// context, on the Languages it is test-run on.
func (t *Target) validateProgram() ([]Request, *Skip) {
	if why := t.cannotValidate(); why != nil {
		return nil, why
	}
	if why := t.cannotTestRun(); why != nil {
		return nil, why
	}
	a := map[string]any{t.ValidateArg: t.Program}
	if t.Context != nil {
		a["context"] = t.Context
	}
	return one(t.Language.Loop.Validate, a)
}

const (
	safeValidateAny = "Validation MUST create no externally observable state change (Part II §6.4)."
	safeRun         = "Sent only with --probe-run, with the program, input and context you gave, and only with test_run: true to a Language that declares execute.test_run: a test run evaluates without side effects (Part II §6.5.7). Under execution both it carries mode: \"deploy\", the mode a test run is defined for, and it sends back the catalog_version validate answered."
	safeTestRun     = safeRun + " It carries store: false wherever the Language retains runs, so it leaves no record."
)

// validateArgs is a validate request whose program is the user's
// --probe-run program (with its context) on the Languages it is test-run
// on, or else the empty program: the context probes judge the context, not
// the program.
func (t *Target) validateArgs() map[string]any {
	a := map[string]any{t.ValidateArg: Empty(t.ValidateType)}
	if t.cannotTestRun() == nil {
		a[t.ValidateArg] = t.Program
		if t.Context != nil {
			a["context"] = t.Context
		}
	}
	return a
}

// cannotTestRun says why the user's --probe-run program is not test-run
// on the Language, or nil.
func (t *Target) cannotTestRun() *Skip {
	if why := t.cannotExecute(); why != nil {
		return why
	}
	if !t.Caps.SubFeature("execute", "test_run") && !t.Immediate {
		return undeclared("execute.test_run, the only way --probe-run runs a program")
	}
	if t.Program == nil {
		return noProbeRun
	}
	return nil
}

// cannotFetch says why the Language takes no trace fetch probe, or nil.
func (t *Target) cannotFetch() *Skip {
	switch {
	case !t.declared("trace_fetch"):
		return undeclared("trace_fetch")
	case t.Language.Loop.Trace == "":
		return &Skip{Undeclared, "the Language's loop names no trace tool"}
	}
	return nil
}

// testRun is a test run of the user's program, changed by edit: the
// standard loop's request (Part II §6.5.3, §7.1) with the mode Part II
// §6.5.7 defines test runs for, and store: false where a record could be
// kept.
func (t *Target) testRun(edit func(map[string]any)) ([]Request, *Skip) {
	if why := t.cannotTestRun(); why != nil {
		return nil, why
	}
	a := map[string]any{t.ExecuteArg: t.Program, "test_run": true, "trace_level": "full"}
	if t.Language.Execution == "both" {
		a["mode"] = "deploy"
	}
	if t.Immediate {
		delete(a, "test_run")
		if t.Language.Execution == "both" {
			a["mode"] = "immediate"
		}
	}
	if t.Input != nil {
		a["input"] = t.Input
	}
	if t.Context != nil {
		a["context"] = t.Context
	}
	if t.CatalogVersion != "" {
		a["expected_catalog_version"] = t.CatalogVersion
	}
	if t.Language.Retention != "" && t.Language.Retention != "none" {
		a["store"] = false
	}
	edit(a)
	return t.exec(a)
}

// rerun is a further test run, sent only once the first one started.
func (t *Target) rerun(edit func(map[string]any)) ([]Request, *Skip) {
	if why := t.cannotTestRun(); why != nil {
		return nil, why
	}
	if !t.Ran {
		return nil, unmet(ReasonNeverRan)
	}
	return t.testRun(edit)
}

func (t *Target) idempotent(edit func(map[string]any)) ([]Request, *Skip) {
	if t.declared("execute") && !t.Caps.SubFeature("execute", "idempotency") {
		return nil, undeclared("execute.idempotency")
	}
	if t.IdempotencyKey == "" {
		return nil, unmet("the run has no idempotency key of its own")
	}
	return t.rerun(func(a map[string]any) {
		a["idempotency_key"] = t.IdempotencyKey
		if edit != nil {
			edit(a)
		}
	})
}

func (t *Target) fetchStored(level string) ([]Request, *Skip) {
	if why := t.cannotFetch(); why != nil {
		return nil, why
	}
	if why := t.cannotTestRun(); why != nil {
		return nil, why
	}
	if t.StoredRun == "" {
		if !t.Ran {
			return nil, unmet(ReasonNeverRan + ", so no Run was stored to fetch")
		}
		return nil, unmet("the test run with store: true did not start, so no Run was stored to fetch")
	}
	r, why := t.trace(t.StoredRun)
	if len(r) > 0 && level != "" {
		r[0].Args["trace_level"] = level
	}
	return r, why
}

func (t *Target) trace(runID string) ([]Request, *Skip) {
	if why := t.cannotFetch(); why != nil {
		return nil, why
	}
	return one(t.Language.Loop.Trace, map[string]any{"run_id": runID})
}

// UnknownTool is the server-wide probe of Part III §7.1: a tools/call of a
// tool that does not exist is a carrier error.
var UnknownTool = &Probe{
	Name: "unknown-tool", Vector: "PIL-CARRIER-UNKNOWN-TOOL-B", Defect: "unknown_tool",
	Spec: "Part III §7.1, §10.1", Keyword: "MUST",
	Quote:  "| `-32602` | Unknown tool or invalid `CallToolRequest` envelope |" + mustMapErrors,
	Safety: "No tool of that name exists, so nothing can run.",
	Expect: Expect{Channel: CarrierError},
	Build:  func(*Target) ([]Request, *Skip) { return one(NoSuchTool, map[string]any{}) },
}

// ManifestResource is the read of the manifest resource a server
// advertises (Part III §3.2), which every snapshot makes, probe or not:
// binding-manifest-resource-differs judges its contents against the
// pilotage_manifest result.
var ManifestResource = &Probe{
	Name: "manifest-resource",
	Spec: "Part III §3.2, §8.3", Keyword: "MUST",
	Quote:  "When resources are exposed: 1. their content MUST equal the corresponding tool response;",
	Safety: "A resources/read of the one resource the server itself advertises as its manifest (the handshake's manifest_uri, or pilotage://manifest in resources/list): a read of the content pilotage_manifest already returned, which every snapshot calls.",
	Expect: Expect{Channel: Result},
	Build: func(t *Target) ([]Request, *Skip) {
		if t == nil || t.ManifestURI == "" {
			return nil, &Skip{Undeclared, "the server advertises no manifest resource"}
		}
		return []Request{{Method: "resources/read", Args: map[string]any{"uri": t.ManifestURI}}}, nil
	},
}

// ByName returns the probe named name, or nil.
func ByName(name string) *Probe {
	switch name {
	case UnknownTool.Name:
		return UnknownTool
	case ManifestResource.Name:
		return ManifestResource
	}
	i := slices.IndexFunc(Set, func(p *Probe) bool { return p.Name == name })
	if i < 0 {
		return nil
	}
	return Set[i]
}

// Label names a probe and its vector for messages: "guide-unknown-id
// (PIL-LEARN-UNKNOWN-ID-B)".
func (p *Probe) Label() string {
	if p.Vector == "" {
		return p.Name
	}
	return fmt.Sprintf("%s (%s)", p.Name, p.Vector)
}
