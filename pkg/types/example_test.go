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
	fmt.Println(string(r.Program), *r.TraceLevel, r.RunnableSelectionOK())
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
