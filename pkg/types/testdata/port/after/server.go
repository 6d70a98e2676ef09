// Command server is ../before ported to the request getters of pkg/types
// (CHANGELOG.md): every edit reads an optional member through its getter
// or a request method.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/pilotagekit/pilotagekit/pkg/types"
)

const language = "tally/1"

// ceiling is the Language's declared trace level; retention is "session".
const ceiling = types.TraceFull

var entries = []types.CatalogEntry{
	{ID: "add", Kind: "operation", Name: "Add a number"},
	{ID: "sub", Kind: "operation", Name: "Subtract a number"},
}

var guides = map[string]string{"core": "# tally/1\n\nA program is {\"steps\": [{\"id\", \"add\"}]}.\n"}

// runs keeps the stored runs of the session.
var runs = map[string]types.TraceFetchResponse{}

func requestError(kind types.ErrorKind, msg string) (any, bool) {
	return map[string]any{"error": types.RequestErrorBody{Kind: kind, Message: msg}}, true
}

func guide(args []byte) (any, bool) {
	var r types.GuideRequest
	if err := json.Unmarshal(args, &r); err != nil {
		return requestError(types.ErrInvalidRequest, err.Error())
	}
	if r.Language != language {
		return requestError(types.ErrNotFound, "unknown language")
	}
	if r.GetTopic() != "" {
		return requestError(types.ErrInvalidRequest, "tally/1 does not declare guides.topic_fetch")
	}
	if r.IsIndex() {
		return map[string]any{"guides": []map[string]any{{"id": "core", "title": "tally/1", "level": "core"}}}, false
	}
	body, ok := guides[r.GetID()]
	if !ok {
		return requestError(types.ErrNotFound, "unknown guide "+r.GetID())
	}
	return map[string]any{"guide": map[string]any{"id": r.ID, "body": body}}, false
}

func catalog(args []byte) (any, bool) {
	var r types.CatalogRequest
	if err := json.Unmarshal(args, &r); err != nil {
		return requestError(types.ErrInvalidRequest, err.Error())
	}
	if !r.Verb.IsKnown() {
		return requestError(types.ErrInvalidRequest, "unknown verb")
	}
	switch r.Verb {
	case types.VerbGet:
		for _, e := range entries {
			if e.ID == r.GetID() {
				return map[string]any{"catalog_version": "v1", "entry": e}, false
			}
		}
		return map[string]any{"catalog_version": "v1", "error": types.RequestErrorBody{Kind: types.ErrNotFound, Message: "unknown entry " + r.GetID()}}, true
	case types.VerbChangedSince:
		if r.GetCatalogVersion() != "v1" {
			return requestError(types.ErrUnknownBaseline, "unknown baseline "+r.GetCatalogVersion())
		}
		return map[string]any{"catalog_version": "v1", "changes": []any{}}, false
	}
	limit := 50
	if r.Limit != nil && *r.Limit < limit {
		limit = *r.Limit
	}
	var items []types.CatalogEntry
	for _, e := range entries {
		if r.GetKind() != "" && e.Kind != r.GetKind() {
			continue
		}
		if r.GetQ() != "" && !strings.Contains(e.Name, r.GetQ()) {
			continue
		}
		items = append(items, e)
	}
	if r.GetCursor() != "" {
		return requestError(types.ErrInvalidRequest, "unknown cursor")
	}
	if len(items) > limit {
		items = items[:limit]
	}
	return map[string]any{"catalog_version": "v1", "items": items}, false
}

type step struct {
	ID  string  `json:"id"`
	Add float64 `json:"add"`
}

func execute(args []byte) (any, bool) {
	var r types.ExecuteRequest
	if err := json.Unmarshal(args, &r); err != nil {
		return requestError(types.ErrInvalidRequest, err.Error())
	}
	if !r.RunnableSelectionOK() {
		return requestError(types.ErrInvalidRequest, "give exactly one of program and program_ref")
	}
	if r.ProgramRef != nil {
		return requestError(types.ErrNotFound, "no promoted programs")
	}
	if !r.TraceLevelOK() {
		return requestError(types.ErrInvalidRequest, "unknown trace_level "+string(r.GetTraceLevel()))
	}
	if r.Mode != nil {
		return requestError(types.ErrInvalidRequest, "tally/1 has execution immediate and takes no mode")
	}
	if r.TestRun != nil {
		return requestError(types.ErrInvalidRequest, "tally/1 does not declare execute.test_run")
	}
	if r.ExpectedCatalogVersion != nil && *r.ExpectedCatalogVersion != "v1" {
		return types.ExecuteResponse{RunID: "run-drift", Outcome: types.Outcome{OK: false, Status: types.StatusCatalogDrift, Error: types.StringValue("the catalog changed")}}, false
	}
	var steps []step
	if err := json.Unmarshal(r.Program, &steps); err != nil {
		return types.ExecuteResponse{RunID: "run-refused", Outcome: types.Outcome{OK: false, Status: types.StatusValidationError, Error: types.StringValue("the program is invalid")},
			Diagnostics: []types.Diagnostic{{Severity: types.SeverityError, Code: "constraint", Message: err.Error()}}}, false
	}
	level := r.EffectiveTraceLevel(ceiling)
	runID := fmt.Sprintf("run-%d", len(runs)+1)
	total := 0.0
	trace := &types.Trace{RunID: runID, Level: level}
	for _, s := range steps {
		total += s.Add
		ts := types.TraceStep{ID: s.ID, Outcome: types.Outcome{OK: true, Status: types.StatusSuccess, Error: types.NullValue()}}
		if level == types.TraceFull {
			ts.Input, _ = types.OptionalOf(map[string]any{"add": s.Add})
		}
		ts.Output, _ = types.OptionalOf(total)
		trace.Steps = append(trace.Steps, ts)
	}
	out, _ := types.OptionalOf(total)
	resp := types.ExecuteResponse{RunID: runID, Outcome: types.Outcome{OK: true, Status: types.StatusSuccess, Error: types.NullValue()}, Output: out}
	if level != types.TraceNone {
		resp.Trace = trace
	}
	// Retention is "session": a Run is kept unless store is false.
	if r.Store == nil || *r.Store {
		runs[runID] = types.TraceFetchResponse{RunID: runID, Outcome: resp.Outcome, Output: out, Trace: &types.Trace{RunID: runID, Level: ceiling, Steps: trace.Steps}}
	}
	return resp, false
}

func fetch(args []byte) (any, bool) {
	var r types.TraceFetchRequest
	if err := json.Unmarshal(args, &r); err != nil {
		return requestError(types.ErrInvalidRequest, err.Error())
	}
	if !r.TraceLevelOK() {
		return requestError(types.ErrInvalidRequest, "trace_level must be summary or full")
	}
	if r.GetQuestion() != "" {
		return requestError(types.ErrInvalidRequest, "tally/1 does not declare trace_fetch.narrate")
	}
	run, ok := runs[r.RunID]
	if !ok {
		return requestError(types.ErrNotFound, "unknown run")
	}
	if level := r.EffectiveTraceLevel(run.Trace.Level); level != run.Trace.Level {
		t := *run.Trace
		t.Level = level
		run.Trace = &t
	}
	return run, false
}

// main answers one call per line of standard input: {"tool", "arguments"}.
func main() {
	dec := json.NewDecoder(os.Stdin)
	enc := json.NewEncoder(os.Stdout)
	for {
		var call struct {
			Tool      string          `json:"tool"`
			Arguments json.RawMessage `json:"arguments"`
		}
		if err := dec.Decode(&call); err != nil {
			return
		}
		var v any
		var isError bool
		switch call.Tool {
		case types.ToolGetGuide:
			v, isError = guide(call.Arguments)
		case types.ToolCatalog:
			v, isError = catalog(call.Arguments)
		case "run_tally":
			v, isError = execute(call.Arguments)
		case "fetch_tally_trace":
			v, isError = fetch(call.Arguments)
		default:
			v, isError = requestError(types.ErrNotFound, "unknown tool")
		}
		_ = enc.Encode(map[string]any{"structuredContent": v, "isError": isError})
	}
}
