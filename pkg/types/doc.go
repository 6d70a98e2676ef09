// Package types holds the canonical Go form of every Pilotage data shape
// (Part II §5-§6) and of the MCP binding's own shapes (Part III), plus the
// helpers that several consumers would otherwise re-derive differently:
// the effective capability map, risk aggregation, trace step identity,
// retention, version and Language identifier parsing.
//
// The package uses the standard library only so that servers, clients and
// the linter can all import it.
//
// Decoding is lenient on purpose. Part II §1.2 tells receivers to ignore
// unknown members and §1.3 forbids failing on unknown enumerated values, so
// every closed set is a string type with an IsKnown method rather than a
// decode-time check. Unknown members are dropped on decode and therefore do
// not survive a decode/encode round trip; a caller that needs them must
// keep the raw JSON. Where the spec gives absence a meaning different from
// null (Outcome.error, trace step input/output) the types keep the
// difference (see Optional and NullableString), and where it gives a
// request member's absence a meaning of its own the member is a pointer.
//
// Reading a request, use the getters of its optional members (GetTopic,
// GetTraceLevel, ...), which return the zero value when a member is
// absent and never panic, and the request methods that apply what absence
// means (ExecuteRequest.EffectiveTraceLevel against the declared ceiling,
// TraceLevelOK, Retains, ModeOK). A value method called through a pointer
// member (r.TraceLevel.IsKnown()) compiles, and panics when the member is
// absent.
//
// Building values, the zero value is the safe one: a zero Capability is
// absent, not false (build the forms with Declare, DeclareWith and
// Undeclare), and a loop tool's program travels in the argument the tool
// declares (DecodeExecuteRequest, ExecuteRequest.Arguments).
package types
