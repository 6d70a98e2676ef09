// Package flowserver builds variants of the testdata server's toyflow/1
// Language (internal/pilotserver, mode compliant) for the tests and
// examples of pilotagetest: an immediate Language without a test run,
// whose successful Runs only RunImmediate or Calls reach.
package flowserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/pilotagekit/pilotagekit/internal/pilotserver"
)

// Program is a valid toyflow/1 program.
const Program = `{"steps": [{"id": "a", "emit": "hi"}, {"id": "b", "emit": "there"}]}`

// Run is a real run of Program at trace level full, as a call of
// pilotagetest.Calls.
const Run = `{"flow": ` + Program + `, "trace_level": "full"}`

// New is the conformant server.
func New() *mcp.Server { return pilotserver.New(pilotserver.Config{Mode: "compliant"}) }

// BrokenRuns is the server with its successful Runs broken as issue 33
// found them on a server written from the spec alone: the outcome's
// status is "done" where a successful Run's is "success", its error is ""
// where it must be null, and the steps of a full trace carry no input.
// Everything a correct server refuses is refused as before, so the probes
// alone find nothing.
func BrokenRuns() *mcp.Server {
	s := New()
	for _, t := range pilotserver.Tools(pilotserver.Config{Mode: "compliant"}) {
		if t.Tool.Name != "run_flow" {
			continue
		}
		h := t.Handler
		s.AddTool(t.Tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			res, err := h(ctx, req)
			if err == nil && res != nil {
				breakSuccess(res)
			}
			return res, err
		})
	}
	return s
}

func breakSuccess(res *mcp.CallToolResult) {
	sc, ok := res.StructuredContent.(map[string]any)
	if !ok || res.IsError {
		return
	}
	outcome, _ := sc["outcome"].(map[string]any)
	if outcome == nil || outcome["ok"] != true {
		return
	}
	outcome["status"] = "done"
	outcome["error"] = ""
	if trace, _ := sc["trace"].(map[string]any); trace != nil && trace["level"] == "full" {
		steps, _ := trace["steps"].([]any)
		for _, st := range steps {
			if m, ok := st.(map[string]any); ok {
				delete(m, "input")
			}
		}
	}
	b, _ := json.Marshal(sc)
	res.Content = []mcp.Content{&mcp.TextContent{Text: string(b)}}
}
