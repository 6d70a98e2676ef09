// Package good builds pkg/types values the way the spec has them: no findings.
package good

import "github.com/pilotagekit/pilotagekit/pkg/types"

func outcomes(err error, status types.OutcomeStatus, ok bool) []types.Outcome {
	return []types.Outcome{
		{OK: true, Status: types.StatusSuccess, Error: types.NullValue()},
		{OK: false, Status: types.StatusPartial, Error: types.StringValue("step 3 failed")},
		{OK: false, Status: "timeout", Error: types.StringValue("deadline")}, // engine-defined
		{OK: ok, Status: status, Error: types.StringValue(err.Error())},      // not constant
	}
}

var reqErr = types.RequestError{Error: types.RequestErrorBody{Kind: types.ErrNotFound, Message: "unknown run"}}

var manifest = types.Manifest{
	Pilotage: "1.1",
	Capabilities: types.CapabilityDeclaration{
		"guides":   {Form: types.FormTrue},
		"validate": {Form: types.FormTrue},
	},
	Languages: []types.Language{{
		Name:      "workflow/v1",
		Retention: types.RetentionSession,
		// validate comes from the Server-level default.
		Capabilities: types.CapabilityDeclaration{
			"execute":     {Form: types.FormTrue},
			"trace_fetch": {Form: types.FormTrue},
		},
	}},
}

// Seen alone, a Language-level declaration may rely on a Server default.
var languageLevel = types.CapabilityDeclaration{"execute": {Form: types.FormTrue}}

// The constructors say what they declare.
var built = types.Manifest{
	Pilotage: "1.1",
	Languages: []types.Language{{
		Name: "flow/1",
		Capabilities: types.CapabilityDeclaration{
			"guides":   types.Declare(),
			"validate": types.Declare(),
			"execute":  types.DeclareWith("test_run"),
			"catalog":  types.Undeclare(),
		},
	}},
}

// A Capability built from a variable Form is left alone.
func capability(f types.CapabilityForm) types.Capability { return types.Capability{Form: f} }
