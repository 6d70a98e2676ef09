package types

// Getters read the optional members of the request types as Go users know
// from protobuf: the value, or the zero value when the member is absent,
// on a nil request too. They never panic, where a value method called
// through the pointer (r.TraceLevel.IsKnown()) panics on an absent member.
// Where absence has a meaning of its own (the ceiling for trace_level, the
// declared retention for store), a request method applies it.

// GetID returns id, or "" when absent (the index form).
func (r *GuideRequest) GetID() string {
	if r == nil || r.ID == nil {
		return ""
	}
	return *r.ID
}

// GetTopic returns topic, or "" when absent.
func (r *GuideRequest) GetTopic() string {
	if r == nil || r.Topic == nil {
		return ""
	}
	return *r.Topic
}

// IsIndex reports whether r asks for the guide index: no id (Part II
// §6.2).
func (r *GuideRequest) IsIndex() bool { return r == nil || r.ID == nil }

// GetKind returns kind, or "" when absent.
func (r *CatalogRequest) GetKind() string {
	if r == nil || r.Kind == nil {
		return ""
	}
	return *r.Kind
}

// GetTag returns tag, or "" when absent.
func (r *CatalogRequest) GetTag() string {
	if r == nil || r.Tag == nil {
		return ""
	}
	return *r.Tag
}

// GetQ returns q, or "" when absent.
func (r *CatalogRequest) GetQ() string {
	if r == nil || r.Q == nil {
		return ""
	}
	return *r.Q
}

// GetCursor returns cursor, or "" when absent (the first page).
func (r *CatalogRequest) GetCursor() string {
	if r == nil || r.Cursor == nil {
		return ""
	}
	return *r.Cursor
}

// GetLimit returns limit, or 0 when absent; EffectiveLimit applies the
// server's default and cap.
func (r *CatalogRequest) GetLimit() int {
	if r == nil || r.Limit == nil {
		return 0
	}
	return *r.Limit
}

// GetID returns id, or "" when absent.
func (r *CatalogRequest) GetID() string {
	if r == nil || r.ID == nil {
		return ""
	}
	return *r.ID
}

// GetCatalogVersion returns catalog_version (the changed_since baseline),
// or "" when absent.
func (r *CatalogRequest) GetCatalogVersion() string {
	if r == nil || r.CatalogVersion == nil {
		return ""
	}
	return *r.CatalogVersion
}

// EffectiveLimit is the page size to serve: def when limit is absent,
// and at most max when max > 0 (Part III §4.2: "The Server MAY cap
// limit").
func (r *CatalogRequest) EffectiveLimit(def, max int) int {
	n := def
	if r != nil && r.Limit != nil {
		n = *r.Limit
	}
	if max > 0 && n > max {
		n = max
	}
	return n
}

// GetProgramRef returns program_ref, or "" when absent.
func (r *ExecuteRequest) GetProgramRef() string {
	if r == nil || r.ProgramRef == nil {
		return ""
	}
	return *r.ProgramRef
}

// GetTraceLevel returns trace_level, or "" when absent; EffectiveTraceLevel
// gives the level to record and return.
func (r *ExecuteRequest) GetTraceLevel() TraceLevel {
	if r == nil || r.TraceLevel == nil {
		return ""
	}
	return *r.TraceLevel
}

// GetStore returns store, or false when absent; Retains tells what an
// absent store means.
func (r *ExecuteRequest) GetStore() bool { return r != nil && r.Store != nil && *r.Store }

// GetExpectedCatalogVersion returns expected_catalog_version, or "" when
// absent (no drift check).
func (r *ExecuteRequest) GetExpectedCatalogVersion() string {
	if r == nil || r.ExpectedCatalogVersion == nil {
		return ""
	}
	return *r.ExpectedCatalogVersion
}

// GetIdempotencyKey returns idempotency_key, or "" when absent.
func (r *ExecuteRequest) GetIdempotencyKey() string {
	if r == nil || r.IdempotencyKey == nil {
		return ""
	}
	return *r.IdempotencyKey
}

// GetTestRun returns test_run, or false when absent.
func (r *ExecuteRequest) GetTestRun() bool { return r != nil && r.TestRun != nil && *r.TestRun }

// GetMode returns mode, or "" when absent; EffectiveMode gives the mode a
// Language runs the request in.
func (r *ExecuteRequest) GetMode() RunMode {
	if r == nil || r.Mode == nil {
		return ""
	}
	return *r.Mode
}

// TraceLevelOK reports whether trace_level is absent or one of none,
// summary and full (Part III §4.4); any other value is an
// invalid_request (§7.2).
func (r *ExecuteRequest) TraceLevelOK() bool {
	return r == nil || r.TraceLevel == nil || r.TraceLevel.IsKnownRequest(StageExecute)
}

// EffectiveTraceLevel is the level of the inline trace: the lower of the
// requested level and the Language's declared ceiling, the ceiling when
// trace_level is absent (Part II §5.8.1).
func (r *ExecuteRequest) EffectiveTraceLevel(ceiling TraceLevel) TraceLevel {
	return EffectiveTraceLevel(r.GetTraceLevel(), ceiling)
}

// Retains reports whether the Run's record is kept for the fetch door:
// store when present, otherwise the Language's declared retention, which
// keeps nothing when "none" (Part II §6.5 "store", §6.6 Retention). A
// retention that does not parse keeps nothing.
func (r *ExecuteRequest) Retains(retention Retention) bool {
	if r != nil && r.Store != nil {
		return *r.Store
	}
	p, err := retention.Parse()
	return err == nil && p.Fetchable()
}

// ModeOK reports whether mode fits a Language of the given execution:
// required and known under "both", absent otherwise (Part III §4.4); a
// request that fails it is an invalid_request.
func (r *ExecuteRequest) ModeOK(execution ExecutionMode) bool {
	if execution == ExecutionBoth {
		return r.GetMode().IsKnown()
	}
	return r == nil || r.Mode == nil
}

// EffectiveMode is the mode the request runs in on a Language of the
// given execution: the Language's own for "immediate" and "deploy", the
// requested one for "both"; "" when there is none to run in (see
// ModeOK).
func (r *ExecuteRequest) EffectiveMode(execution ExecutionMode) RunMode {
	switch execution {
	case ExecutionImmediate:
		return RunImmediate
	case ExecutionDeploy:
		return RunDeploy
	case ExecutionBoth:
		if m := r.GetMode(); m.IsKnown() {
			return m
		}
	}
	return ""
}

// GetTraceLevel returns trace_level, or "" when absent; EffectiveTraceLevel
// gives the level to return.
func (r *TraceFetchRequest) GetTraceLevel() TraceLevel {
	if r == nil || r.TraceLevel == nil {
		return ""
	}
	return *r.TraceLevel
}

// GetQuestion returns question, or "" when absent.
func (r *TraceFetchRequest) GetQuestion() string {
	if r == nil || r.Question == nil {
		return ""
	}
	return *r.Question
}

// TraceLevelOK reports whether trace_level is absent, summary or full:
// "none" on the fetch door, and any unknown value, is an invalid_request
// (Part II §6.6).
func (r *TraceFetchRequest) TraceLevelOK() bool {
	return r == nil || r.TraceLevel == nil || r.TraceLevel.IsKnownRequest(StageTraceFetch)
}

// EffectiveTraceLevel is the level to return from a record kept at
// recorded: the lower of the requested level and recorded, recorded when
// trace_level is absent (Part II §6.6: "The fetch door MUST NOT return
// more than was recorded").
func (r *TraceFetchRequest) EffectiveTraceLevel(recorded TraceLevel) TraceLevel {
	return EffectiveTraceLevel(r.GetTraceLevel(), recorded)
}
