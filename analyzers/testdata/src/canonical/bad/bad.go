package bad

import "github.com/pilotagekit/pilotagekit/pkg/types"

var (
	on  = types.Capability{Form: types.FormTrue}
	off = types.Capability{Form: types.FormFalse}
)

const failed = "failed"

var outcomes = []types.Outcome{
	{OK: true, Status: types.StatusSuccess, Error: types.StringValue("boom")}, // want `Outcome has OK true and a non-null Error; error must be null exactly when ok is true \(Part II §5.7\): use types.NullValue\(\)`
	{OK: false, Status: types.StatusPartial, Error: types.NullValue()},        // want `Outcome has OK false and a null Error`
	{OK: true, Status: types.StatusPartial, Error: types.NullValue()},         // want `Outcome has reserved status "partial" with OK true; "partial" always has ok false \(Part II §5.7\)`
	{Status: "success", Error: types.StringValue(failed)},                     // want `Outcome has reserved status "success" with OK false`
	{OK: true, Error: types.NullableString{Set: true, Value: "x"}},            // want `OK true and a non-null Error`
}

var reqErr = types.RequestError{Error: types.RequestErrorBody{
	Kind:    "timeout", // want `request-error kind "timeout" is outside the closed set of Part III §7.2`
	Message: "too slow",
}}

var manifest = types.Manifest{
	Pilotage:     "1.1",
	Capabilities: types.CapabilityDeclaration{"guides": {Form: types.FormTrue}},
	Languages: []types.Language{
		{
			Name: "workflow/v1",
			Capabilities: types.CapabilityDeclaration{
				string(types.CapExecute): {Form: types.FormTrue}, // want `Language "workflow/v1" declares "execute" but "validate", which it depends on, is undeclared \(Part II §4.1, §4.3\)`
			},
		},
		{
			Name:      "sql/pg",
			Retention: types.RetentionNone,
			Capabilities: types.CapabilityDeclaration{
				"validate":    {Form: types.FormTrue},
				"execute":     {Form: types.FormObject},
				"trace_fetch": {Form: types.FormTrue}, // want `Language "sql/pg" declares "trace_fetch" with retention "none"; a Language that retains no runs has none to fetch \(Part II §4.3 rule 5\)`
			},
		},
	},
}

// Alone, only an explicit false is known to leave a dependency undeclared.
var alone = types.CapabilityDeclaration{
	"execute":  {Form: types.FormTrue}, // want `capability declaration declares "execute" but "validate", which it depends on, is undeclared`
	"validate": {Form: types.FormFalse},
}

// A Capability that sets no Form says nothing: it is left out on encode.
var nothing = types.Capability{} // want `this types.Capability literal sets no Form, so it says nothing: its zero value is absent and a capability declaration leaves it out; write types.Declare\(\), types.DeclareWith\(sub...\) or types.Undeclare\(\) \(Part II §4.2\)`

// Left out, the Language's empty guides entry does not turn off the
// Server-level guides, so validate keeps its dependency: the only report
// is the literal's.
var saysNothing = types.Manifest{
	Pilotage:     "1.1",
	Capabilities: types.CapabilityDeclaration{"guides": types.Declare()},
	Languages: []types.Language{{
		Name: "flow/1",
		Capabilities: types.CapabilityDeclaration{
			"guides":   {},                                       // want `sets no Form, so it says nothing`
			"execute":  {Sub: map[string]bool{"test_run": true}}, // want `sets no Form, so it says nothing`
			"validate": types.Capability{Form: types.FormAbsent}, // want `sets no Form, so it says nothing`
		},
	}},
}

// The constructors are read like the literals they build.
var built = types.CapabilityDeclaration{
	"execute":  types.DeclareWith("test_run"), // want `capability declaration declares "execute" but "validate", which it depends on, is undeclared`
	"validate": types.Undeclare(),
}
