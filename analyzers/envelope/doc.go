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
//     content is the error text and which has no structuredContent (a
//     *jsonrpc.Error becomes a JSON-RPC error response);
//   - go-sdk's Server.AddTool sends it as a JSON-RPC error response
//     (with code 0: the SDK does not map it to -32603);
//   - mcp-go sends it as JSON-RPC error -32603 (Internal error).
//
// For the handlers of Pilotage tools (loop tools, found as strictschema
// finds them, and the fixed-name access tools), when the handler is a
// function literal or a function of the package, the analyzer reports:
//
//   - a return with a non-nil error;
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
