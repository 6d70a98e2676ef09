package pilotserver

// ObservedBy names, for each fault, the probes of lint/probe whose calls
// the fault shows on; validate-iserror shows on every validate probe that
// sends an invalid program, since the probes' programs are invalid in both
// Languages. A fault in NeedsRun shows only when --probe-run sends
// RunProgram.
var ObservedBy = map[string][]string{
	"guide-kind":         {"guide-unknown-id"},
	"topic-ignored":      {"guide-topic-undeclared"},
	"catalog-no-version": {"catalog-get-unknown"},
	"cursor-repeat":      {"catalog-list", "catalog-list-paged"},
	// The paging faults show under a limit only, so the listing without
	// one shows every entry to compare with.
	"paging-ends-early":   {"catalog-list-paged"},
	"paging-loops":        {"catalog-list-paged"},
	"paging-skips":        {"catalog-list-paged"},
	"changed-since":       {"catalog-changed-since-undeclared"},
	"validate-iserror":    {"validate-context-undeclared", "validate-empty", "validate-unparsable", "validate-unparsable-again"},
	"trace-level-rpc":     {"execute-unknown-trace-level"},
	"store-ignored":       {"execute-store-unsupported"},
	"mode-optional":       {"execute-mode-missing"},
	"test-run-ignored":    {"execute-test-run-undeclared"},
	"both-runnables":      {"execute-both-runnables"},
	"guard-iserror":       {"execute-invalid-program"},
	"run-distinguishable": {"trace-refused-run"},
	"hang":                {"execute-no-runnable"},
	"drift-late":          {"execute-drift-invalid"},
	"context-ignored":     {"validate-context-undeclared"},
	"unstored-kept":       {"trace-unstored-run"},
	"stored-dropped":      {"trace-fetch-full", "trace-fetch-retained", "trace-fetch-summary"},
	"fetch-none":          {"trace-fetch-level-none"},
	"fetch-level-ignored": {"trace-fetch-summary"},
	"replay-new-run":      {"execute-idempotent-replay"},
	"conflict-ignored":    {"execute-idempotent-conflict"},
	"trace-none-ignored":  {"execute-test-run-none", "execute-test-run-store"},
	"summary-input":       {"execute-test-run-summary"},
	"validate-flaky":      {"validate-unparsable-again"},
	"token-churn":         {"catalog-list-again"},
	"replay-changed":      {"execute-idempotent-replay"},
	"validate-unstable":   {"validate-unparsable-again"},
	// The closed-set rule reports a value once per Language, on the first
	// call that carries it.
	"closed-set-code":      {"validate-unparsable"},
	"refused-run-stored":   {"trace-refused-run"},
	"output-null-refused":  {"execute-invalid-program"},
	"get-listed-not-found": {"catalog-get"},
	// Only the paging probes read the last page.
	"duplicate-entry":  {"catalog-list", "catalog-list-paged"},
	"duplicate-guide":  {"guide-index"},
	"safe-destructive": {"catalog-list", "catalog-list-paged"},
	// Every test run of the program pairs with its plan; the replay
	// returns the first answer, fault and all, and is judged only for
	// identity with it (Part II §6.5.2 step 1: "without further
	// processing"), so the fault shows on the first Run alone.
	"trace-calls-other": {"execute-idempotent-first", "execute-test-run", "execute-test-run-summary"},
	"plan-no-calls":     {"validate-program"},
	"trace-id-suffix":   {"execute-idempotent-first", "execute-test-run", "execute-test-run-summary"},
	// The entry is judged wherever it is recorded, once a plan or trace
	// shows it invoked.
	"invoked-no-schema": {"catalog-get", "catalog-list", "catalog-list-again", "catalog-list-paged"},
	"plan-unlisted":     {"validate-program", "validate-program-again"},
	"plan-loop-missing": {"validate-program", "validate-program-again"},
	// The second validation of the program is sent last, after every
	// test run has paired with the first.
	"plan-ids-unstable": {"validate-program-again"},
	// catalog-list and catalog-list-again are both complete (one page
	// each); the second lacks what the first shows.
	"listing-drops": {"catalog-list-again"},
	// Every validate probe of --probe lies between a catalog token before
	// it (catalog-changed-since-undeclared) and catalog-list-again after
	// it, with only reads in between.
	"validate-stale-token": {"validate-context-undeclared", "validate-empty", "validate-unparsable", "validate-unparsable-again"},
	// The manifest resource is read by every snapshot, outside the probe
	// calls.
	"resource-differs": {"surfaces"},
}

// NeedsRun holds the faults that only the --probe-run probes observe.
var NeedsRun = map[string]bool{
	"context-ignored": true, "unstored-kept": true, "stored-dropped": true,
	"fetch-none": true, "fetch-level-ignored": true, "replay-new-run": true,
	"conflict-ignored": true, "trace-none-ignored": true, "summary-input": true,
	"replay-changed":    true,
	"trace-calls-other": true, "plan-no-calls": true, "trace-id-suffix": true,
	"invoked-no-schema": true, "plan-unlisted": true, "plan-loop-missing": true,
	"plan-ids-unstable": true,
}

// RunProgram is a valid calc/1 program, for --probe-run.
const RunProgram = `{"steps": [{"id": "a", "op": "add", "args": [1, 2]}]}`
