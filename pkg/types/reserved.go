package types

import "slices"

// Stage is the loop operation a loop tool binds (Part III §4.3, §8.2).
type Stage string

const (
	StageValidate   Stage = "validate"
	StageExecute    Stage = "execute"
	StageTraceFetch Stage = "trace"
)

// Reserved argument names of loop tools (Part III §4.4).
const (
	ArgProgramRef             = "program_ref"
	ArgInput                  = "input"
	ArgContext                = "context"
	ArgTraceLevel             = "trace_level"
	ArgExpectedCatalogVersion = "expected_catalog_version"
	ArgIdempotencyKey         = "idempotency_key"
	ArgTestRun                = "test_run"
	ArgMode                   = "mode"
	ArgStore                  = "store"
	ArgRunID                  = "run_id"
	ArgQuestion               = "question"
)

// ReservedArg describes one reserved loop-tool argument name (Part III §4.4).
type ReservedArg struct {
	Name string
	// Stages are the loop stages on which the name is reserved.
	Stages []Stage
	// JSONType is the JSON Schema type the member carries; "" means any.
	JSONType string
}

// ReservedArgs is the reserved-name table of Part III §4.4, in table order.
// The Language-declared program argument is reserved too but has no fixed
// name; see ProgramDeclaration.
var ReservedArgs = []ReservedArg{
	{ArgProgramRef, []Stage{StageExecute}, "string"},
	// The table gives input no type: a Language's parameter-binding
	// convention (Part II §6.5.5) may take an array or a scalar.
	{ArgInput, []Stage{StageExecute}, ""},
	{ArgContext, []Stage{StageValidate, StageExecute}, ""},
	{ArgTraceLevel, []Stage{StageExecute, StageTraceFetch}, "string"},
	{ArgExpectedCatalogVersion, []Stage{StageExecute}, "string"},
	{ArgIdempotencyKey, []Stage{StageExecute}, "string"},
	{ArgTestRun, []Stage{StageExecute}, "boolean"},
	{ArgMode, []Stage{StageExecute}, "string"},
	{ArgStore, []Stage{StageExecute}, "boolean"},
	{ArgRunID, []Stage{StageTraceFetch}, "string"},
	{ArgQuestion, []Stage{StageTraceFetch}, "string"},
}

// LookupReservedArg returns the reserved-name entry for name.
func LookupReservedArg(name string) (ReservedArg, bool) {
	for _, a := range ReservedArgs {
		if a.Name == name {
			return a, true
		}
	}
	return ReservedArg{}, false
}

// ReservedOn reports whether the argument is reserved on stage s.
func (a ReservedArg) ReservedOn(s Stage) bool { return slices.Contains(a.Stages, s) }

// Stages lists the loop stages in loop order.
var Stages = []Stage{StageValidate, StageExecute, StageTraceFetch}

// IsKnown reports membership in Stages.
func (s Stage) IsKnown() bool { return slices.Contains(Stages, s) }

// Capability returns the capability that declares the stage's loop tool
// (Part II §4.3 rule 7).
func (s Stage) Capability() CapabilityName {
	switch s {
	case StageValidate:
		return CapValidate
	case StageExecute:
		return CapExecute
	case StageTraceFetch:
		return CapTraceFetch
	}
	return ""
}
