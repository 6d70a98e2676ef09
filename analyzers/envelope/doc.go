// Package envelope defines an Analyzer that reports Pilotage tool handlers
// whose results the SDK cannot deliver as a Pilotage result envelope.
//
// # Analyzer envelope
//
// envelope: report Pilotage tool handlers that break the result envelope
//
// Part III §6 requires structuredContent on every Pilotage tool result, and
// §7.1 maps the channels: a request error is a result with isError true
// and structuredContent {"error": {...}}; only carrier faults become
// JSON-RPC errors; an invalid program or a failed Run is a normal result.
// The SDKs route a handler's Go error elsewhere:
//
//   - go-sdk's generic mcp.AddTool turns it into an isError result whose
//     content is the error text and which has no structuredContent;
//   - go-sdk's Server.AddTool sends it as a JSON-RPC error response with
//     code 0 (the SDK does not map a plain error to -32603);
//   - mcp-go sends it as JSON-RPC error -32603 (Internal error).
//
// A *jsonrpc.Error is different: both go-sdk registrations put it on the
// wire as a JSON-RPC error response with the code and message it holds
// (-32602 stays -32602), and Server.AddTool also keeps the code of one
// wrapped with %w (the typed mcp.AddTool does not: wrapped, it becomes an
// isError result). That is the carrier channel Part III §7.1 routes
// structural faults to (a missing schema-required member, a member of the
// wrong JSON type), so returning a *jsonrpc.Error, directly, from a
// helper or held in an error variable, is never reported. The returned
// error is followed through the SSA form of the package: through
// variables however often reassigned (only the assignments that reach
// the return count), named results, and the return statements of the
// package's functions to any depth, a helper of a helper returning
// &jsonrpc.Error{...} as a plain error included; a recursive helper ends
// the search on its path. It is a *jsonrpc.Error when every non-nil error
// that can reach the return is one.
//
// For the handlers of Pilotage tools (loop tools, found as strictschema
// finds them, and the fixed-name access tools), when the handler is a
// function literal or a function of the package, the analyzer reports:
//
//   - a return with a non-nil error other than a *jsonrpc.Error;
//   - a returned result without structuredContent: nil, a CallToolResult
//     literal without StructuredContent, or mcp-go's NewToolResultText,
//     NewToolResultError and the other helpers that set none (a go-sdk
//     typed handler whose Out is not an interface is exempt: the SDK fills
//     structuredContent from Out);
//   - in a go-sdk typed handler whose Out is not an interface, any
//     IsError: true, res.IsError = ... or res.SetError(...): the SDK
//     overwrites structuredContent with the marshalled Out even when
//     IsError is true, so the request error's {"error": {...}} is lost.
//
// Example:
//
//	func runWorkflow(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
//		if req.GetString("mode", "") == "" {
//			return nil, errors.New("mode required")
//		}
//		...
//
// is reported at errors.New(...).
package envelope
