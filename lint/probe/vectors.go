package probe

import "slices"

// Class is how pilotage-lint reaches an official server vector.
type Class string

// The classes of docs/vectors.md.
const (
	// ByProbe: snapshot --probe sends the vector's request to every
	// Language that declares what it needs.
	ByProbe Class = "probe"
	// ByProbeRun: snapshot --probe-run sends it, built around the user's
	// valid program.
	ByProbeRun Class = "probe-run"
	// Offline: the rules judge it from what every snapshot records.
	Offline Class = "offline"
	// Recorded: the rules judge it offline, but only from a recorded call
	// the probe cannot make, since it cannot write a program of that shape
	// in the server's Language: a --calls file, a capture, or --probe-run
	// with such a program.
	Recorded Class = "recorded"
	// Setup: the vector needs a state no probe may create on a server that
	// does real work.
	Setup Class = "setup"
)

// VectorClass is the standing of one official server vector.
type VectorClass struct {
	ID    string
	Class Class
	// Probes are the probes that exercise it, beyond those whose Vector
	// names it.
	Probes []string
	// Rules are the rules that decide it.
	Rules []string
	// Note qualifies the claim: what part stays undecided, or why no probe
	// may create the setup.
	Note string
}

// ServerVectors classifies every server vector of the official
// conformance vectors (testdata/reference/vectors.json); the two client
// vectors are outside what a server probe can test.
var ServerVectors = []VectorClass{
	{ID: "PIL-DISCOVER-MANIFEST-G", Class: Offline, Rules: []string{"shape-manifest", "manifest-languages-empty", "binding-manifest-tool", "binding-loop-tool-exists", "loop-consistency", "binding-guide-tool", "binding-catalog-tool"}},
	{ID: "PIL-DISCOVER-INITMETA-G", Class: Offline, Rules: []string{"meta-key", "meta-value-object", "meta-discovery-manifest", "meta-inline-manifest-differs"}, Note: "On a revision without initialize there is nothing to judge, as the vector says."},
	{ID: "PIL-COLDSTART-SIGNPOSTS-G", Class: Offline, Rules: []string{"signpost-welcome", "signpost-entry-point", "signpost-guide-stage", "signpost-catalog-stage", "signpost-loop-tool", "signpost-wording"}},
	{ID: "PIL-LEARN-INDEX-G", Class: ByProbe, Rules: []string{"shape-result", "result-guide-index-body", "result-guide-core-missing", "result-guide-closed-sets", "call-guide-index-refused"}},
	{ID: "PIL-LEARN-FETCH-G", Class: ByProbe, Rules: []string{"probe-expectation", "shape-result", "result-guide-size-mismatch", "call-response-identity"}},
	{ID: "PIL-LEARN-UNKNOWN-ID-B", Class: ByProbe, Rules: []string{"probe-expectation", "result-request-error-shape"}},
	{ID: "PIL-LEARN-TOPIC-UNDECLARED-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-request-fault-accepted"}},
	{ID: "PIL-LOOKUP-LIST-G", Class: ByProbe, Rules: []string{"probe-expectation", "shape-result", "result-catalog-version-missing"}},
	{ID: "PIL-LOOKUP-PAGINATION-G", Class: ByProbe, Probes: []string{"catalog-list"}, Rules: []string{"probe-expectation", "call-listing-incomplete", "result-catalog-empty-last-page"}, Note: "Lists with limit: 1, passing each next_cursor back unchanged, and compares the union of the pages with the listing without limit (catalog-list) at the same catalog_version: a page that leaves entries out, or a listing that ends while entries remain, is caught by call-listing-incomplete, a cursor that repeats (a last page pointing back to the first) by probe-expectation. The listing stops at 100 pages, at a repeated cursor, or at an entry listed twice, and says which on its last page; a listing that stopped is not judged as a whole, and the coverage says so."},
	{ID: "PIL-LOOKUP-GET-UNKNOWN-B", Class: ByProbe, Rules: []string{"probe-expectation", "result-request-error-shape"}},
	{ID: "PIL-LOOKUP-CHANGED-UNDECLARED-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-request-fault-accepted"}},
	{ID: "PIL-LOOKUP-UNKNOWN-BASELINE-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-changed-since-baseline-kind"}},
	{ID: "PIL-CATALOG-VERSION-STABLE-G", Class: ByProbe, Probes: []string{"catalog-list"}, Rules: []string{"call-catalog-token-changed-needlessly"}, Note: "The rule compares the two first pages, which only reads separate (the gets and the validate probes), so a paged catalog is judged too."},
	{ID: "PIL-CATALOG-VERSION-BUMPS-G", Class: Setup, Rules: []string{"call-catalog-version-content"}, Note: "Needs a catalog entry to change between two listings; no probe may change a catalog. The rule judges a recorded pair (same token, changed entry)."},
	{ID: "PIL-VALIDATE-GOOD-G", Class: ByProbeRun, Probes: []string{"validate-program"}, Rules: []string{"result-valid-mismatch", "result-plan-missing", "shape-result", "result-catalog-version-missing"}},
	{ID: "PIL-VALIDATE-UNKNOWN-NAME-B", Class: Recorded, Rules: []string{"result-valid-mismatch", "result-diagnostic-path-invalid", "result-diagnostic-path-unresolved"}, Note: "The probe cannot write a program in the server's Language that names an entry the catalog lacks."},
	{ID: "PIL-VALIDATE-WARNINGS-ONLY-G", Class: Recorded, Rules: []string{"result-valid-mismatch", "result-plan-missing"}, Note: "Needs a program that draws only warnings, which only its author can write."},
	{ID: "PIL-VALIDATE-SIDE-EFFECT-FREE-G", Class: ByProbe, Probes: []string{"validate-unparsable", "validate-unparsable-again"}, Rules: []string{"probe-expectation", "call-validate-validity-unstable", "call-validate-diagnostics-unstable", "call-validate-step-ids-unstable"}, Note: "The repeats are compared (validity, diagnostics, plan step ids; a program that cannot parse has no plan); state outside the protocol is not observable."},
	{ID: "PIL-VALIDATE-RESERVED-CHARS-B", Class: Recorded, Rules: []string{"call-plan-step-id-reserved"}, Note: "Needs a program with author-chosen step ids, which only its author can write."},
	{ID: "PIL-VALIDATE-CONTEXT-UNDECLARED-B", Class: ByProbe, Rules: []string{"call-context-without-schema-accepted"}, Note: "Without --probe-run the program is the empty one; only valid: true is then a finding."},
	{ID: "PIL-VALIDATE-CONTEXT-MISSING-B", Class: ByProbe, Probes: []string{"validate-context-rejected"}, Rules: []string{"call-context-binding-accepted"}, Note: "Without --probe-run the program is the empty one; only valid: true is then a finding."},
	{ID: "PIL-EXECUTE-SUCCESS-G", Class: ByProbeRun, Rules: []string{"call-success-status", "result-trace-missing", "result-trace-level-exceeded", "result-plan-trace-correspondence", "call-trace-calls-missing", "call-trace-step-duplicate"}, Note: "As a test run: the user's program, input and context, at trace level full, with the catalog_version validate answered."},
	{ID: "PIL-EXECUTE-GUARD-B", Class: ByProbe, Rules: []string{"probe-expectation", "result-validation-error-diagnostics", "result-refused-run-trace", "call-execute-runs-invalid-program"}},
	{ID: "PIL-EXECUTE-DRIFT-B", Class: Setup, Rules: []string{"call-stale-token-ran"}, Note: "Needs a valid program and a catalog that changed after validation; no probe may change a catalog. The rule judges a recorded Run."},
	{ID: "PIL-EXECUTE-DRIFT-BEFORE-VALIDATION-B", Class: ByProbe, Probes: []string{"execute-drift-invalid"}, Rules: []string{"probe-expectation"}},
	{ID: "PIL-EXECUTE-PROMOTION-DRIFT-B", Class: Setup, Rules: []string{"call-drifted-ref-ran"}, Note: "Needs a promoted program and a change to an entry it depends on; no probe may promote a program or change a catalog."},
	{ID: "PIL-EXECUTE-BOTH-RUNNABLES-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-execute-request-fault-accepted"}},
	{ID: "PIL-EXECUTE-NO-RUNNABLE-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-execute-request-fault-accepted"}},
	{ID: "PIL-EXECUTE-INPUT-BINDING-B", Class: Setup, Rules: []string{"call-promoted-input-unchecked"}, Note: "Needs a promoted program; no probe may promote one. The rule judges a recorded Run of one."},
	{ID: "PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-carrier-error-loop-fault"}},
	{ID: "PIL-EXECUTE-TEST-RUN-UNDECLARED-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-execute-request-fault-accepted"}},
	{ID: "PIL-EXECUTE-MODE-MISSING-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-request-fault-accepted"}},
	{ID: "PIL-EXECUTE-IDEMPOTENT-REPLAY-G", Class: ByProbeRun, Probes: []string{"execute-idempotent-first"}, Rules: []string{"call-idempotent-replay-new-run", "call-idempotent-replay-different-result"}, Note: "The rules judge any retention other than none when the replay is the probe call right after the first, and otherwise Languages whose retention is a session or a day or more."},
	{ID: "PIL-EXECUTE-IDEMPOTENT-CONFLICT-B", Class: ByProbeRun, Rules: []string{"probe-expectation", "call-execute-request-fault-accepted"}},
	{ID: "PIL-TRACE-BRANCH-DECISION-G", Class: Recorded, Rules: []string{"result-trace-control-flow", "result-plan-trace-correspondence"}, Note: "Needs a branching program, which only its author can write (or --probe-run with one)."},
	{ID: "PIL-TRACE-ZERO-ITERATION-LOOP-G", Class: Recorded, Rules: []string{"result-trace-control-flow", "result-plan-trace-correspondence"}, Note: "Needs a loop program, which only its author can write (or --probe-run with one)."},
	{ID: "PIL-TRACE-PARTIAL-B", Class: Recorded, Rules: []string{"result-outcome-reserved-status", "result-trace-missing", "result-plan-trace-correspondence"}, Note: "Needs a program that fails mid-run, which only its author can write."},
	{ID: "PIL-EXECUTE-TRACE-NONE-G", Class: ByProbeRun, Probes: []string{"execute-test-run-none"}, Rules: []string{"result-trace-level-exceeded"}},
	{ID: "PIL-EXECUTE-STORE-FALSE-G", Class: ByProbeRun, Probes: []string{"execute-test-run"}, Rules: []string{"probe-expectation", "call-unstored-run-fetched", "result-not-found-distinguishable"}},
	{ID: "PIL-EXECUTE-STORE-RETAIN-G", Class: ByProbeRun, Probes: []string{"trace-fetch-retained"}, Rules: []string{"probe-expectation", "result-trace-level-exceeded"}},
	{ID: "PIL-EXECUTE-STORE-UNSUPPORTED-B", Class: ByProbe, Rules: []string{"probe-expectation", "call-store-unsupported"}},
	{ID: "PIL-TRACE-FETCH-RETAINED-G", Class: ByProbeRun, Probes: []string{"trace-fetch-full"}, Rules: []string{"call-stored-run-missing", "probe-expectation", "call-fetched-trace-differs", "call-response-identity", "shape-result"}},
	{ID: "PIL-TRACE-FETCH-LEVEL-G", Class: ByProbeRun, Rules: []string{"result-trace-level-exceeded", "result-trace-input-at-summary"}},
	{ID: "PIL-TRACE-FETCH-LEVEL-B", Class: ByProbeRun, Rules: []string{"probe-expectation", "call-request-fault-accepted"}},
	{ID: "PIL-TRACE-FETCH-INDISTINGUISHABLE-B", Class: ByProbe, Probes: []string{"trace-unstored-run"}, Rules: []string{"probe-expectation", "result-not-found-distinguishable"}, Note: "Each id the run can honestly obtain, every answer compared whole with the unknown id's: an unknown run_id always; the refused Run of execute-invalid-program when the server gave it a run_id; with --probe-run, the test run sent with store: false. Another caller's Run needs a second identity."},
	{ID: "PIL-AUTHZ-INVISIBLE-ENTRY-B", Class: Setup, Rules: []string{"result-not-found-distinguishable"}, Note: "Needs an entry that exists but is invisible to the caller: a second identity the probe does not have."},
	{ID: "PIL-EXECUTE-ENGINE-ERROR-B", Class: Recorded, Rules: []string{"result-outcome-error", "result-outcome-reserved-status", "result-is-error-misused"}, Note: "Needs a program that fails cleanly, which only its author can write."},
	{ID: "PIL-EXECUTE-INTERNAL-B", Class: Setup, Note: "Needs a malfunction injected into the server's own machinery, in a test build."},
	{ID: "PIL-VALIDATE-BOUNDS-B", Class: Setup, Note: "Needs a program built to exhaust the validator; sending one to a server that does real work is not safe."},
	{ID: "PIL-VALIDATE-CONSTRAINT-FALLBACK-B", Class: ByProbe, Probes: []string{"validate-unparsable"}, Rules: []string{"probe-expectation"}, Note: "An unparsable program is the unclassifiable one; that its code is constraint or enumerated in the closed-sets guide awaits the closed-set rule (issue 24 §1)."},
	{ID: "PIL-CARRIER-UNKNOWN-TOOL-B", Class: ByProbe, Rules: []string{"probe-expectation"}},
	{ID: "PIL-CARRIER-MALFORMED-B", Class: Setup, Note: "Needs a request body that is not JSON. Over stdio the MCP SDK transport the probe speaks through writes only well-formed messages; over Streamable HTTP the transport answers before the server does (go-sdk servers answer HTTP 400 with plain text), so the answer would judge the MCP transport, not the Pilotage server."},
}

// ProbesOf returns the probes that exercise vector id, in the order the
// runner sends them.
func ProbesOf(id string) []string {
	var vc *VectorClass
	for i := range ServerVectors {
		if ServerVectors[i].ID == id {
			vc = &ServerVectors[i]
		}
	}
	var out []string
	for _, p := range append(append([]*Probe(nil), Set...), UnknownTool) {
		extra := false
		if vc != nil {
			for _, n := range vc.Probes {
				extra = extra || n == p.Name
			}
		}
		if p.Vector == id || extra {
			out = append(out, p.Name)
		}
	}
	return out
}

// Difference is a deliberate difference between what a probe sends and
// the action of an official vector it exercises (vectors.json), with the
// reason. What is the difference as a test computes it: "+arg", an
// argument the action lacks; "-arg", one it has that the probe leaves
// out; "program: X for Y", a program of another kind than the action's;
// "repeat N for M", how often the vector's probes send the action. Probe
// or Vector "*" stands for any.
type Difference struct {
	Probe, Vector, What, Why string
}

// Differences lists every deliberate difference; docs/vectors.md shows
// them, and a test holds the probes to them.
var Differences = slices.Concat(
	[]Difference{
		{"*", "*", "+mode", "Part III §4.4: under execution \"both\", mode is REQUIRED, so every execute probe sends it on such a Language (immediate, or deploy for a test run), except execute-mode-missing, whose defect is its absence."},
		{"catalog-list", "PIL-LOOKUP-PAGINATION-G", "-limit", "The listing without a limit, at the server's own page size, is what the union of the one-entry pages is compared with (call-listing-incomplete)."},
		{"validate-program", "PIL-VALIDATE-GOOD-G", "+context", "The --probe-context you gave, which a Language that declares a context_schema needs for your program to be valid."},
		{"validate-context-rejected", "PIL-VALIDATE-CONTEXT-MISSING-B", "+context", "The vector's other case of the same sentence (Part II §6.4): context that does not satisfy the schema, a value the context_schema rejects."},
		{"trace-unstored-run", "PIL-EXECUTE-STORE-FALSE-G", "operation trace_fetch", "The vector's assertion that nothing was retained is checked by fetching the Run that execute-test-run made with store: false."},
		{"trace-fetch-retained", "PIL-EXECUTE-STORE-RETAIN-G", "operation trace_fetch", "The vector's assertion that the record is retained is checked by fetching the Run that execute-test-run-store made."},
		{"trace-fetch-full", "PIL-TRACE-FETCH-RETAINED-G", "+trace_level", "A second fetch of the retained Run, at full, which may return no more than was recorded."},
	},
	each([]string{"validate-context-undeclared", "validate-context-missing", "validate-context-rejected"}, "program: empty for valid",
		"Without --probe-run the probe knows no valid program of the Language and sends the empty one; the context must draw a context_binding diagnostic whatever the program, so only valid: true is then a finding. With --probe-run it sends your program on the Languages it is test-run on."),
	each([]string{"execute-both-runnables", "execute-unknown-trace-level", "execute-test-run-undeclared", "execute-mode-missing", "execute-store-unsupported"}, "program: invalid for valid",
		"Safety: a valid program could run and change the server. Each defect is found at request well-formedness (Part II §6.5.2 step 1), before validation, so a program that cannot parse draws the same request error; a server that missed the defect refuses the Run at re-validation, before anything executes."),
	each(testRuns, "+test_run", "Safety: your --probe-run program runs only as a test run, which evaluates without side effects (Part II §6.5.7)."),
	each(testRuns, "+context", "The --probe-context you gave, the same as with validate-program, so that the test run re-validates what validate approved."),
	each(testRuns, "+expected_catalog_version", "The catalog_version validate-program answered, so that the plan and the trace pair (Part II §5.8.4, §6.5.3)."),
	each([]string{"execute-test-run-none", "execute-test-run-store"}, "+input", "The --probe-input you gave, which your program may need to run at all."),
	[]Difference{{"execute-test-run", "PIL-EXECUTE-STORE-FALSE-G", "+input", "The --probe-input you gave, which your program may need to run at all."}},
	each([]string{"execute-test-run", "execute-test-run-none", "execute-idempotent-first", "execute-idempotent-replay", "execute-idempotent-conflict"}, "+store",
		"Safety: store: false wherever the Language retains Runs, so that the test run leaves no record."),
	[]Difference{{"execute-test-run", "PIL-EXECUTE-STORE-FALSE-G", "+trace_level", "The first test run asks for the full trace, so that its trace pairs with the plan."}},
	each([]string{"execute-idempotent-first", "execute-idempotent-replay", "execute-idempotent-conflict"}, "+trace_level", "The full trace, as the first test run, so that the replay's answer is compared whole."),
)

// testRuns are the probes that test-run the user's --probe-run program
// and exercise a vector.
var testRuns = func() []string {
	var out []string
	for _, p := range Set {
		if p.Uses == ExecutesProgram && exercises(p) {
			out = append(out, p.Name)
		}
	}
	return out
}()

// exercises reports whether probe p exercises an official vector.
func exercises(p *Probe) bool {
	return p.Vector != "" || slices.ContainsFunc(ServerVectors, func(vc VectorClass) bool { return slices.Contains(vc.Probes, p.Name) })
}

// each is one Difference per probe, on any vector.
func each(probes []string, what, why string) []Difference {
	var out []Difference
	for _, p := range probes {
		out = append(out, Difference{p, "*", what, why})
	}
	return out
}
