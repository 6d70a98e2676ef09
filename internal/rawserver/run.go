package rawserver

import (
	"fmt"
)

var executeMembers = []string{programArg, "input", "context", "mode", "trace_level", "store",
	"expected_catalog_version", "idempotency_key", "test_run"}

// execute follows the processing order of Part II §6.5.2: request
// well-formedness (with the idempotency replay), catalog drift,
// re-validation, input and context binding, execution.
func (s *Server) execute(sess *session, args map[string]any) toolOutcome {
	cv := catalogVersion(s.entries)

	// 1. Request well-formedness.
	if k := unknownMember(args, executeMembers...); k != "" {
		if k == "program_ref" {
			return reqErr("invalid_request", "lumen/1 exposes no promoted programs, so program_ref is not accepted; send the scene in lumen")
		}
		return reqErr("invalid_request", fmt.Sprintf("lumen_run takes %v, not %q", executeMembers, k))
	}
	prog, hasProg := args[programArg]
	if !hasProg {
		return reqErr("invalid_request", "send the scene in lumen: a run needs exactly one runnable")
	}
	mode, hasMode := args["mode"].(string)
	if !hasMode {
		return reqErr("invalid_request", "mode is required: \"immediate\" runs the scene now, \"deploy\" installs it as an automation")
	}
	if mode != "immediate" && mode != "deploy" {
		if s.has("error-channel") {
			// Fault error-channel: Part III §4.6 "A Server MUST NOT return a
			// protocol error for a loop-tool value or eligibility fault."
			return carrier(-32602, fmt.Sprintf("invalid mode %q", mode))
		}
		return reqErr("invalid_request", fmt.Sprintf("unknown mode %q: use \"immediate\" or \"deploy\"", mode))
	}
	level := "full"
	if tl, has := args["trace_level"].(string); has {
		if tl != "none" && tl != "summary" && tl != "full" {
			if s.has("error-channel") {
				return carrier(-32602, fmt.Sprintf("invalid trace_level %q", tl))
			}
			return reqErr("invalid_request", fmt.Sprintf("unknown trace_level %q: use none, summary or full", tl))
		}
		level = tl
	}
	testRun, _ := args["test_run"].(bool)
	// Installing a scene with no trigger, or running a triggered one now, is
	// the near-miss Part IV §9 asks to refuse loudly.
	triggered := false
	if m, isObj := prog.(map[string]any); isObj {
		_, triggered = m["trigger"]
	}
	// A test run installs nothing and evaluates the scene's steps, so it
	// needs no trigger in either mode.
	if mode == "deploy" && !triggered && !testRun {
		return reqErr("invalid_request", "mode \"deploy\" installs an automation and needs a scene with a trigger; use mode \"immediate\" to run it now")
	}
	if mode == "immediate" && triggered && !testRun {
		return reqErr("invalid_request", "this scene has a trigger: mode \"deploy\" installs it as an automation; remove trigger to run it now with mode \"immediate\"")
	}
	key, hasKey := args["idempotency_key"].(string)
	input, hasInput := args["input"]
	if hasKey && !s.has("replay-new-run") {
		// (Fault replay-new-run skips this: Part II §6.5.6 "Two requests with
		// the same idempotency_key, runnable and input MUST be treated as
		// one execution.")
		if rec := s.idem[key]; rec != nil {
			if rec.runnable == compact(prog) && rec.input == compact(input) {
				// Part II §6.5.2: "the Server returns the recorded result of
				// the original Run without further processing."
				res := jsonRound(rec.result).(map[string]any)
				return ok(res, fmt.Sprintf("%s: %s (replayed)", res["run_id"], res["outcome"].(map[string]any)["status"]))
			}
			return reqErr("idempotency_conflict", fmt.Sprintf("idempotency_key %q was used with a different scene or input; use a fresh key", key))
		}
	}

	// 2. Catalog drift.
	if exp, has := args["expected_catalog_version"].(string); has && exp != cv && !s.has("drift-ignored") {
		// (Fault drift-ignored skips this: Part II §6.5.3 "The Server MUST
		// NOT ignore a supplied token.")
		return s.refused("catalog_drift", "catalog version mismatch", nil)
	}

	// 3. Re-validation, exactly as lumen_validate.
	sc, diags, bounds := validateScene(prog, s.index, s.idGen())
	if bounds != "" {
		return reqErr("bounds_exceeded", bounds)
	}
	diags = append(diags, s.contextDiags(args)...)
	if diags.hasError() {
		return s.refused("validation_error", "the scene is invalid; see diagnostics", diags)
	}

	// 4. Input binding.
	if d := bindInput(sc, input, hasInput); d.hasError() {
		return s.refused("validation_error", "input does not bind to the scene's parameters", d)
	}

	// 5. Execution.
	runID := s.nextRunID()
	inputs, _ := input.(map[string]any)
	r := &runner{entries: s.index, inputs: inputs}
	var output any
	hasOutput, completed := false, true
	if mode == "deploy" && !testRun {
		id := fmt.Sprintf("auto.%d", len(s.automations)+1)
		s.automations = append(s.automations, obj("automation", id, "trigger", obj("sensor", sc.trigger), "scene", prog))
		output, hasOutput = obj("automation", id), true
		r.trace = []map[string]any{obj("id", "install", "input", obj("trigger", obj("sensor", sc.trigger)),
			"output", output, "outcome", okOutcome(), "t_ms", 5)}
	} else {
		r.house = s.house
		if testRun {
			r.house = s.house.clone()
		}
		completed = r.run(sc)
		if completed && sc.hasOutput {
			output, hasOutput = r.eval(sc.output), true
		}
	}
	outcome := okOutcome()
	if !completed {
		outcome = failOutcome(r.failure, r.failMsg)
	}
	full := make([]any, len(r.trace))
	for i, e := range r.trace {
		full[i] = e
	}
	full = jsonRound(full).([]any)
	res := obj("run_id", runID, "outcome", outcome)
	if hasOutput {
		res["output"] = output
	}
	inline := level
	if level == "summary" && s.has("trace-above-level") {
		// Fault trace-above-level: Part II §5.8.1 "The effective trace level
		// is the lower of: the requested level; the declared ceiling."
		inline = "full"
	}
	if inline != "none" {
		res["trace"] = traceAt(runID, inline, full)
	}
	// Retention: absent store defers to "session"; store: false forbids it
	// (Part II §6.5, §6.6). A Run at level none is recorded at the ceiling.
	store, hasStore := args["store"].(bool)
	retain := !hasStore || store
	if hasStore && !store && s.has("store-false-fetchable") {
		// Fault store-false-fetchable: Part II §6.6 "A Run executed with
		// store: false MUST NOT be retrievable through the fetch door."
		retain = true
	}
	if retain {
		recLevel := inline
		if recLevel == "none" {
			recLevel = "full"
		}
		rec := obj("run_id", runID, "outcome", outcome, "trace", traceAt(runID, recLevel, full))
		if hasOutput {
			rec["output"] = output
		}
		sess.runs[runID] = jsonRound(rec).(map[string]any)
	}
	res = jsonRound(res).(map[string]any)
	if hasKey {
		s.idem[key] = &idemRecord{runnable: compact(prog), input: compact(input), result: res}
	}
	return ok(res, fmt.Sprintf("%s: %s", runID, outcome["status"]))
}

func traceAt(runID, level string, full []any) map[string]any {
	steps := full
	if level == "summary" {
		steps = summarize(full)
	}
	return obj("run_id", runID, "level", level, "steps", steps)
}

// refused answers a refused Run (Part II §3.6): a run_id, an outcome, no
// trace; it is neither stored nor recorded for replay.
func (s *Server) refused(status, msg string, diags diagnostics) toolOutcome {
	runID := s.nextRunID()
	res := obj("run_id", runID, "outcome", failOutcome(status, msg))
	if diags != nil {
		res["diagnostics"] = diags.list()
	}
	return ok(jsonRound(res).(map[string]any), fmt.Sprintf("%s: %s", runID, status))
}

func (s *Server) nextRunID() string {
	s.runSeq++
	return fmt.Sprintf("run_%06d", s.runSeq)
}

// notFoundRun is the one answer for an unknown, expired, unstored or other
// Session's Run (Part II §6.6, Part III §7.2 whole-result indistinguishability).
const notFoundRun = "no run with that run_id in this session (unknown, not stored, or from another session)"

func (s *Server) fetch(sess *session, args map[string]any) toolOutcome {
	if k := unknownMember(args, "run_id", "trace_level"); k != "" {
		if k == "question" {
			return reqErr("invalid_request", "question needs trace_fetch.narrate, which lumen/1 does not declare")
		}
		return reqErr("invalid_request", fmt.Sprintf("lumen_trace takes run_id and trace_level, not %q", k))
	}
	level, hasLevel := args["trace_level"].(string)
	if hasLevel && level != "summary" && level != "full" {
		if level == "none" {
			return reqErr("invalid_request", "trace_level \"none\" has no meaning for a stored run: use summary or full")
		}
		return reqErr("invalid_request", fmt.Sprintf("unknown trace_level %q: use summary or full", level))
	}
	rec := sess.runs[args["run_id"].(string)]
	if rec == nil {
		return reqErr("not_found", notFoundRun)
	}
	out := jsonRound(rec).(map[string]any)
	tr := out["trace"].(map[string]any)
	if level == "summary" && tr["level"] == "full" {
		tr["level"] = "summary"
		tr["steps"] = summarize(tr["steps"].([]any))
	}
	return ok(out, fmt.Sprintf("%s: %d step(s) at %s", out["run_id"], len(tr["steps"].([]any)), tr["level"]))
}
