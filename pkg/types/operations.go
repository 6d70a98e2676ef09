package types

import "encoding/json"

// The optional members of the request types are pointers: the spec tells
// an absent member from a present one, even a present empty one (an
// absent id is the guide index form, a present one a fetch; a member that
// does not apply to the verb or to the declared capabilities is a request
// error by its presence, Part III §7.2). Set one with new, as in
// GuideRequest{Language: "toyflow/1", ID: new("core")}. Read one with its
// getter (GetID, GetTraceLevel, ...), which returns the zero value when
// the member is absent and never panics, and test presence with != nil.
// A value method called through the pointer (r.TraceLevel.IsKnown())
// compiles and panics when the member is absent; the request methods
// (TraceLevelOK, EffectiveTraceLevel, Retains, ModeOK) apply what absence
// means instead.

// GuideRequest is the argument object of pilotage_get_guide (Part III
// §4.1): no id is the index form, id is the fetch form, id+topic the topic
// form.
type GuideRequest struct {
	Language string `json:"language"`
	// ID is absent for the index form; read it with GetID.
	ID *string `json:"id,omitempty"`
	// Topic is present for the topic form; read it with GetTopic.
	Topic *string `json:"topic,omitempty"`
}

// CatalogRequest is the argument object of pilotage_catalog (Part III
// §4.2), carrying the Part II §6.3 list/get/changed_since requests.
type CatalogRequest struct {
	Language string      `json:"language"`
	Verb     CatalogVerb `json:"verb"`
	// Kind filters list; read it with GetKind.
	Kind *string `json:"kind,omitempty"`
	// Tag filters list; read it with GetTag.
	Tag *string `json:"tag,omitempty"`
	// Q searches list; read it with GetQ.
	Q *string `json:"q,omitempty"`
	// Cursor continues a listing; read it with GetCursor.
	Cursor *string `json:"cursor,omitempty"`
	// Limit bounds a page; read it with GetLimit, or EffectiveLimit.
	Limit *int `json:"limit,omitempty"`
	// ID names the entry of get; read it with GetID.
	ID *string `json:"id,omitempty"`
	// CatalogVersion is the baseline of changed_since; read it with
	// GetCatalogVersion.
	CatalogVersion *string `json:"catalog_version,omitempty"`
}

// ValidateRequest is the abstract validate request (Part II §6.4). On MCP
// the program travels in the argument named by the tool's
// ProgramDeclaration, not in "program": decode the arguments with
// DecodeValidateRequest and encode them with Arguments.
type ValidateRequest struct {
	Program Optional `json:"program,omitempty"`
	Context Optional `json:"context,omitempty"`
}

// ValidateResponse is the validate result (Part II §6.4, §5.5).
type ValidateResponse struct {
	Valid bool `json:"valid"`
	// Diagnostics is always present; empty means no findings.
	Diagnostics []Diagnostic `json:"diagnostics"`
	// CatalogVersion is required for a catalog-bearing Language.
	CatalogVersion string `json:"catalog_version,omitempty"`
	// Plan is required when plan is declared and Valid is true.
	Plan *Plan `json:"plan,omitempty"`
	// References lists referenced catalog entry ids when catalog is
	// declared without plan (Part II §6.4, §7.3).
	References []string `json:"references,omitzero"`
}

// ExecuteRequest is the abstract execute request (Part II §6.5, Part III
// §4.4). Exactly one of Program and ProgramRef must be present. On MCP the
// program travels in the argument the tool declares: decode the arguments
// with DecodeExecuteRequest and encode them with Arguments.
type ExecuteRequest struct {
	Program Optional `json:"program,omitempty"`
	// ProgramRef names a promoted program; read it with GetProgramRef.
	ProgramRef *string  `json:"program_ref,omitempty"`
	Input      Optional `json:"input,omitempty"`
	Context    Optional `json:"context,omitempty"`
	// TraceLevel asks for an inline trace level; read it with
	// GetTraceLevel, check it with TraceLevelOK, and apply it with
	// EffectiveTraceLevel, which gives the ceiling when it is absent.
	TraceLevel *TraceLevel `json:"trace_level,omitempty"`
	// Store overrides the declared retention; read it with GetStore, or
	// Retains, which applies the retention when it is absent.
	Store *bool `json:"store,omitempty"`
	// ExpectedCatalogVersion asks for the drift check; read it with
	// GetExpectedCatalogVersion.
	ExpectedCatalogVersion *string `json:"expected_catalog_version,omitempty"`
	// IdempotencyKey makes the request replayable; read it with
	// GetIdempotencyKey.
	IdempotencyKey *string `json:"idempotency_key,omitempty"`
	// TestRun asks for a test run; read it with GetTestRun.
	TestRun *bool `json:"test_run,omitempty"`
	// Mode selects the mode under execution "both"; read it with GetMode,
	// check it with ModeOK and apply it with EffectiveMode.
	Mode *RunMode `json:"mode,omitempty"`
}

// RunnableSelectionOK applies Part II §6.5.1: exactly one runnable.
func (r ExecuteRequest) RunnableSelectionOK() bool {
	return r.Program.Present() != (r.ProgramRef != nil)
}

// ExecuteResponse is the execute result (Part II §6.5 "Execute response").
type ExecuteResponse struct {
	RunID   string   `json:"run_id"`
	Outcome Outcome  `json:"outcome"`
	Output  Optional `json:"output,omitempty"`
	// Diagnostics is required when the status is validation_error.
	Diagnostics []Diagnostic `json:"diagnostics,omitzero"`
	// Trace is present exactly for a started Run at summary or full.
	Trace *Trace `json:"trace,omitempty"`
}

// TraceFetchRequest is the trace fetch door request (Part II §6.6).
type TraceFetchRequest struct {
	RunID string `json:"run_id"`
	// TraceLevel asks for at most this level; read it with GetTraceLevel,
	// check it with TraceLevelOK and apply it with EffectiveTraceLevel.
	TraceLevel *TraceLevel `json:"trace_level,omitempty"`
	// Question asks for narration; read it with GetQuestion.
	Question *string `json:"question,omitempty"`
}

// TraceFetchResponse is the trace fetch door response (Part II §6.6): the
// same envelope that rode the execute response, plus optional narration.
type TraceFetchResponse struct {
	RunID     string   `json:"run_id"`
	Outcome   Outcome  `json:"outcome"`
	Output    Optional `json:"output,omitempty"`
	Trace     *Trace   `json:"trace"`
	Narration string   `json:"narration,omitempty"`
}

// programMember is the member the abstract requests of Part II carry the
// program in.
const programMember = "program"

// DecodeValidateRequest decodes the arguments of a validate loop tool
// whose program travels in the argument named argument (Part III §5: "The
// Program always appears in the argument declared by the tool"); ""
// means "program". A member named "program" on a tool that declares
// another argument is not the program.
func DecodeValidateRequest(arguments []byte, argument string) (ValidateRequest, error) {
	var r ValidateRequest
	b, err := moveMember(arguments, argument, programMember)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	return r, err
}

// DecodeExecuteRequest decodes the arguments of an execute loop tool whose
// program travels in the argument named argument, as
// DecodeValidateRequest does.
func DecodeExecuteRequest(arguments []byte, argument string) (ExecuteRequest, error) {
	var r ExecuteRequest
	b, err := moveMember(arguments, argument, programMember)
	if err == nil {
		err = json.Unmarshal(b, &r)
	}
	return r, err
}

// Arguments encodes r as the arguments of a validate loop tool whose
// program travels in argument ("" means "program").
func (r ValidateRequest) Arguments(argument string) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return moveMember(b, programMember, argument)
}

// Arguments encodes r as the arguments of an execute loop tool whose
// program travels in argument ("" means "program").
func (r ExecuteRequest) Arguments(argument string) ([]byte, error) {
	b, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	return moveMember(b, programMember, argument)
}

// moveMember renames member from of the JSON object b to to, dropping a
// member already named to; "" for either name means "program".
func moveMember(b []byte, from, to string) ([]byte, error) {
	if from == "" {
		from = programMember
	}
	if to == "" {
		to = programMember
	}
	if from == to {
		return b, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	v, ok := m[from]
	delete(m, to)
	delete(m, from)
	if ok {
		m[to] = v
	}
	return json.Marshal(m)
}
