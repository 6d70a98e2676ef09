package pilotserver

// ObservedBy names, for each fault, the probes of lint/probe whose calls
// the fault shows on; validate-iserror shows on both validate probes,
// since the empty program is invalid in both Languages.
var ObservedBy = map[string][]string{
	"guide-kind":          {"guide-unknown-id"},
	"topic-ignored":       {"guide-topic-undeclared"},
	"catalog-no-version":  {"catalog-get-unknown"},
	"cursor-repeat":       {"catalog-list"},
	"changed-since":       {"catalog-changed-since-undeclared"},
	"validate-iserror":    {"validate-empty", "validate-unparsable"},
	"trace-level-rpc":     {"execute-unknown-trace-level"},
	"store-ignored":       {"execute-store-unsupported"},
	"mode-optional":       {"execute-mode-missing"},
	"test-run-ignored":    {"execute-test-run-undeclared"},
	"both-runnables":      {"execute-both-runnables"},
	"guard-iserror":       {"execute-invalid-program"},
	"run-distinguishable": {"trace-refused-run"},
	"hang":                {"execute-no-runnable"},
}
