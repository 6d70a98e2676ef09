package pilotagetest_test

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
	"github.com/pilotagekit/pilotagekit/pilotagetest"
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
