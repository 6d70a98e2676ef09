// Package rawserver is a Pilotage server written from the specification
// alone (Parts II-IV), with no MCP SDK: the Go standard library speaks
// JSON-RPC over stdio (newline-delimited) and over Streamable HTTP. It exists
// to test pilotagekit against a server its rules were not designed around.
//
// The server publishes one Language, lumen/1: lighting scenes of call, if,
// repeat and let steps against a catalog of nine entries (fixtures, sensors,
// a phone notifier, a destructive main breaker, a non-callable zone). It
// declares guides, catalog (with search), validate, plan, execute
// (execution "both", test_run, idempotency) and trace_fetch, with trace
// ceiling "full" and "session" retention. Its tool schemas are written in
// Pydantic v2's form ($defs and $ref, anyOf [X, {"type": "null"}], a title on
// every property, the program argument anyOf [object, null]).
//
// Transports: ServeStdio; Handler for Streamable HTTP, which issues an
// Mcp-Session-Id at initialize, requires it afterwards, refuses (HTTP 400)
// any later message without the negotiated MCP-Protocol-Version header, and
// answers tools/call as text/event-stream and everything else as JSON
// (Options.SSE: "tools", "always" or "never"). It also serves ping,
// resources/list and resources/read of pilotage://manifest, and -32601 for
// unknown methods.
//
// The conformant server is the default. Options.Fault names one deliberate,
// realistic violation; each is marked in the code with the sentence it
// breaks:
//
//	paging-no-cursor       catalog list omits next_cursor while entries remain (Part II §6.3)
//	paging-loop            the last catalog page's next_cursor points back to the first page (Part II §6.3)
//	paging-skip            each next_cursor skips one entry, so the listing misses entries (Part II §6.3)
//	resource-differs       the pilotage://manifest resource differs from the pilotage_manifest result (Part III §8.3)
//	error-channel          an unknown trace_level or mode on lumen_run is a JSON-RPC -32602 error (Part III §4.6, §7.1)
//	replay-new-run         a repeated execute with the same idempotency_key, scene and input runs again (Part II §6.5.6)
//	store-false-fetchable  a Run executed with store: false is kept and fetchable (Part II §6.6)
//	trace-above-level      trace_level "summary" gets a full trace (Part II §5.8.1)
//	unstable-step-ids      generated step ids come from a process-wide counter (Part II §3.4)
//	drift-ignored          a stale expected_catalog_version does not refuse the Run (Part II §6.5.3)
//	invalid-as-error       lumen_validate answers an invalid scene with isError: true (Part III §6)
//	context-ignored        a supplied context is accepted silently (Part II §6.4)
//	not-found-no-version   a catalog get of an unknown id lacks catalog_version (Part II §6.3)
//
// Keeping the MCP-Protocol-Version check on is not a fault: a strict server
// may refuse such requests, and no mode turns the check off.
//
// Run it with: go run ./internal/rawserver/cmd/rawserver [-http 127.0.0.1:PORT] [-fault NAME] [-sse MODE].
package rawserver
