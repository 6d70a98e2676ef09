package types_test

import (
	"encoding/json"
	"fmt"

	"github.com/pilotagekit/pilotagekit/pkg/types"
)

// The forms of Part II §4.2, built with the constructors. The zero
// Capability is absence: a declaration leaves it out rather than writing
// false.
func ExampleDeclareWith() {
	lang := types.CapabilityDeclaration{
		"guides":   types.Declare(),
		"validate": types.Declare(),
		"execute":  types.DeclareWith(types.SubTestRun),
		"catalog":  types.Undeclare(), // turns off a Server-level default
		"plan":     {},                // says nothing: left out
	}
	b, _ := json.Marshal(lang)
	fmt.Println(string(b))
	_, err := json.Marshal(types.Capability{})
	fmt.Println(err != nil)
	// Output:
	// {"catalog":false,"execute":{"test_run":true},"guides":true,"validate":true}
	// true
}

// A loop tool names the argument its program travels in (Part III §5);
// decoding takes that name, and encoding writes it.
func ExampleDecodeExecuteRequest() {
	decl := types.ProgramDeclaration{Argument: "flow", Language: "toyflow/1"}
	args := []byte(`{"flow": {"steps": []}, "trace_level": "summary"}`)
	r, err := types.DecodeExecuteRequest(args, decl.ArgumentFor("toyflow/1"))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(r.Program), r.GetTraceLevel(), r.RunnableSelectionOK())
	out, _ := r.Arguments("flow")
	fmt.Println(string(out))
	// Output:
	// {"steps":[]} summary true
	// {"flow":{"steps":[]},"trace_level":"summary"}
}

// Optional members tell absent from present, even present and empty: no
// id is the index form, an empty id a fetch of an id no guide has.
func ExampleGuideRequest() {
	for _, args := range []string{`{"language": "toyflow/1"}`, `{"language": "toyflow/1", "id": ""}`} {
		var r types.GuideRequest
		_ = json.Unmarshal([]byte(args), &r)
		fmt.Println(r.ID == nil)
	}
	b, _ := json.Marshal(types.GuideRequest{Language: "toyflow/1", ID: new("core")})
	fmt.Println(string(b))
	// Output:
	// true
	// false
	// {"language":"toyflow/1","id":"core"}
}

// A handler reads optional members through their getters and request
// methods, which never panic on an absent member and apply what absence
// means: the ceiling for trace_level, the declared retention for store.
func ExampleExecuteRequest_EffectiveTraceLevel() {
	lang := types.Language{Trace: types.TraceSummary, Retention: types.RetentionSession, Execution: types.ExecutionImmediate}
	for _, args := range []string{
		`{"program": []}`,
		`{"program": [], "trace_level": "full", "store": false}`,
		`{"program": [], "trace_level": "verbose", "mode": "immediate"}`,
	} {
		r, err := types.DecodeExecuteRequest([]byte(args), "program")
		if err != nil {
			panic(err)
		}
		if !r.TraceLevelOK() || !r.ModeOK(lang.Execution) {
			fmt.Printf("invalid_request (trace_level %q, mode %q)\n", r.GetTraceLevel(), r.GetMode())
			continue
		}
		fmt.Println(r.EffectiveTraceLevel(lang.Trace), r.Retains(lang.Retention))
	}
	// Output:
	// summary true
	// summary false
	// invalid_request (trace_level "verbose", mode "immediate")
}
