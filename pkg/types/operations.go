package types

import "encoding/json"

// The optional members of the request types are pointers: the spec tells
// an absent member from a present one, even a present empty one (an
// absent id is the guide index form, a present one a fetch; a member that
// does not apply to the verb or to the declared capabilities is a request
// error by its presence, Part III §7.2). Set one with new, as in
// GuideRequest{Language: "toyflow/1", ID: new("core")}.

// GuideRequest is the argument object of pilotage_get_guide (Part III
// §4.1): no id is the index form, id is the fetch form, id+topic the topic
// form.
type GuideRequest struct {
	Language string  `json:"language"`
	ID       *string `json:"id,omitempty"`
	Topic    *string `json:"topic,omitempty"`
}

// CatalogRequest is the argument object of pilotage_catalog (Part III
// §4.2), carrying the Part II §6.3 list/get/changed_since requests.
type CatalogRequest struct {
	Language       string      `json:"language"`
	Verb           CatalogVerb `json:"verb"`
	Kind           *string     `json:"kind,omitempty"`
	Tag            *string     `json:"tag,omitempty"`
	Q              *string     `json:"q,omitempty"`
	Cursor         *string     `json:"cursor,omitempty"`
	Limit          *int        `json:"limit,omitempty"`
	ID             *string     `json:"id,omitempty"`
	CatalogVersion *string     `json:"catalog_version,omitempty"`
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
	Program                Optional    `json:"program,omitempty"`
	ProgramRef             *string     `json:"program_ref,omitempty"`
	Input                  Optional    `json:"input,omitempty"`
	Context                Optional    `json:"context,omitempty"`
	TraceLevel             *TraceLevel `json:"trace_level,omitempty"`
	Store                  *bool       `json:"store,omitempty"`
	ExpectedCatalogVersion *string     `json:"expected_catalog_version,omitempty"`
	IdempotencyKey         *string     `json:"idempotency_key,omitempty"`
	TestRun                *bool       `json:"test_run,omitempty"`
	Mode                   *RunMode    `json:"mode,omitempty"`
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
	RunID      string      `json:"run_id"`
	TraceLevel *TraceLevel `json:"trace_level,omitempty"`
	Question   *string     `json:"question,omitempty"`
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
