package pilotagetest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/pilotagetest"
	"github.com/pilotagekit/pilotagekit/pilotagetest/internal/flowserver"
)

// In a test, one line checks a go-sdk server:
//
//	func TestPilotage(t *testing.T) {
//		pilotagetest.Run(t, newServer())
//	}
//
// Check returns the same verdicts without a testing.T. Here the server
// answers a Run of an invalid program with isError: true, and the case of
// the probe that sends that Run fails.
func Example() {
	// newServer is a Pilotage server written with the MCP Go SDK; this
	// one has one fault.
	newServer := func() *mcp.Server {
		return pilotserver.New(pilotserver.Config{Mode: "full", Fault: "guard-iserror"})
	}
	ct, st := mcp.NewInMemoryTransports()
	ss, err := newServer().Connect(context.Background(), st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()

	rep, err := pilotagetest.Check(context.Background(), ct)
	if err != nil {
		panic(err)
	}
	fmt.Println("failing:", rep.Failed())
	// Without ProbeRun, the probes that judge a real Run have none to
	// judge: they are skipped, each with its reason.
	for _, c := range rep.Cases {
		if c.Skipped != "" && c.Probe == "trace-fetch-retained" {
			fmt.Println("not applicable:", c.Name)
		}
	}
	// Output:
	// failing: [PIL-EXECUTE-GUARD-B/execute-invalid-program]
	// not applicable: PIL-TRACE-FETCH-RETAINED-G/trace-fetch-retained
}

// check connects a fresh server and checks it as Run would.
func check(s *mcp.Server, opts ...pilotagetest.Option) *pilotagetest.Report {
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	rep, err := pilotagetest.Check(context.Background(), ct, opts...)
	if err != nil {
		panic(err)
	}
	return rep
}

// rules lists the rule of each failure of the named case.
func rules(rep *pilotagetest.Report, name string) []string {
	var out []string
	for _, c := range rep.Cases {
		if c.Name == name {
			for _, f := range c.Failures {
				out = append(out, strings.TrimSuffix(strings.Fields(f)[1], ":"))
			}
		}
	}
	return out
}

// toyflow/1 executes immediately and declares no test run, so the probes
// alone never see one of its Runs succeed: this server, whose successful
// Runs say status "done" with error "" and leave step input out of a full
// trace, passes them, and the success path is skipped with the reason.
// Inside go test the server is a test instance: RunImmediate runs the
// program of ProbeRun on it for real, and the run probes judge the Runs.
func ExampleRunImmediate() {
	program := json.RawMessage(`{"steps": [{"id": "a", "emit": "hi"}]}`)

	rep := check(flowserver.BrokenRuns(), pilotagetest.ProbeRun(program))
	fmt.Println("failing:", rep.Failed())
	for _, c := range rep.Cases {
		if c.Name == "success-path/toyflow/1" {
			fmt.Println("skipped:", c.Skipped)
		}
	}

	rep = check(flowserver.BrokenRuns(), pilotagetest.ProbeRun(program), pilotagetest.RunImmediate())
	fmt.Println("failing:", rep.Failed())
	fmt.Println(rules(rep, "PIL-EXECUTE-SUCCESS-G/execute-test-run"))
	// Output:
	// failing: []
	// skipped: no successful Run of toyflow/1 was judged: it declares no execute.test_run, so the program of ProbeRun is not run there; RunImmediate() runs it for real on this test instance, or Calls(...) records runs of your own
	// failing: [PIL-EXECUTE-SUCCESS-G/execute-test-run execute-test-run-summary PIL-EXECUTE-TRACE-NONE-G/execute-test-run-none]
	// [result-outcome-error call-closed-set-unlisted call-success-status shape-result]
}

// Calls records calls of the test's own and judges them as `pilotage-lint
// snapshot --calls` judges them: here one real run of a program at trace
// level full, against the conformant server and the broken one. Each call
// is a subtest, calls/N-TOOL.
func ExampleCalls() {
	run := pilotagetest.Call{Name: "run_flow", Arguments: json.RawMessage(`{"flow": {"steps": [{"id": "a", "emit": "hi"}]}, "trace_level": "full"}`)}

	fmt.Println("conformant, failing:", check(flowserver.New(), pilotagetest.Calls(run)).Failed())

	rep := check(flowserver.BrokenRuns(), pilotagetest.Calls(run))
	fmt.Println("broken, failing:", rep.Failed())
	fmt.Println(rules(rep, "calls/1-run_flow"))
	// Output:
	// conformant, failing: []
	// broken, failing: [calls/1-run_flow]
	// [result-outcome-error call-closed-set-unlisted call-success-status shape-result]
}
