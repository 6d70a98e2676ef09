package probe

import (
	"encoding/json"
	"fmt"
	"strings"
)

// RunsProgram reports whether p sends the user's --probe-run program to
// execute: the probes whose refusal means the run-based checks judge
// nothing.
func (p *Probe) RunsProgram() bool { return p.Name == "execute-test-run" }

// refusedStatuses are the reserved statuses of a Run that never started
// (Part II §3.6, §5.7).
var refusedStatuses = map[string]bool{"validation_error": true, "catalog_drift": true, "promotion_drift": true}

// Refusal says why a test run of the user's program never started, in
// the server's own words, from the recorded answer: answerKind is
// "result", "error" or "timeout", as in Call. It returns "" for a Run
// that started.
func Refusal(answer json.RawMessage, answerKind string) string {
	switch answerKind {
	case "timeout", "":
		return "the server did not answer within the probe timeout"
	case "error":
		var e struct {
			Code    int64  `json:"code"`
			Message string `json:"message"`
		}
		_ = json.Unmarshal(answer, &e)
		return fmt.Sprintf("the server answered JSON-RPC error %d %q", e.Code, e.Message)
	}
	var r struct {
		IsError           bool `json:"isError"`
		StructuredContent struct {
			Error *struct {
				Kind    string `json:"kind"`
				Message string `json:"message"`
			} `json:"error"`
			Outcome *struct {
				Status string  `json:"status"`
				Error  *string `json:"error"`
			} `json:"outcome"`
			Diagnostics []struct {
				Code    string `json:"code"`
				Path    any    `json:"path"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(answer, &r); err != nil {
		return "the answer is not a tool result"
	}
	sc := r.StructuredContent
	switch {
	case r.IsError && sc.Error != nil:
		return fmt.Sprintf("the server refused the request with kind %s: %q", sc.Error.Kind, sc.Error.Message)
	case r.IsError:
		return "the server answered isError: true"
	case sc.Outcome == nil:
		return "the answer carries no outcome"
	case !refusedStatuses[sc.Outcome.Status]:
		return ""
	}
	why := "the server refused the Run with status " + sc.Outcome.Status
	if sc.Outcome.Error != nil && *sc.Outcome.Error != "" {
		why += fmt.Sprintf(" (%q)", *sc.Outcome.Error)
	}
	var ds []string
	for i, d := range sc.Diagnostics {
		if i == 3 {
			ds = append(ds, fmt.Sprintf("and %d more", len(sc.Diagnostics)-3))
			break
		}
		ds = append(ds, fmt.Sprintf("%s %q", d.Code, d.Message))
	}
	if len(ds) > 0 {
		why += ": " + strings.Join(ds, "; ")
	}
	return why
}

// NotRunAdvice ends the message about a program that never ran.
const NotRunAdvice = "the run-based checks (plan and trace pairing, trace levels, store, the fetch door, idempotency) judge nothing there; give the run's input with --probe-input and its context with --probe-context when it needs them"
