// Package metakey defines an Analyzer that reports Pilotage _meta keys and
// extension names written in a form other than the registered identifier.
//
// # Analyzer metakey
//
// metakey: report shorthand and legacy forms of the Pilotage _meta key
//
// Part III §2 of the Pilotage specification defines exactly one _meta key,
// "io.github.jafarsa0/pilotage", and forbids a sender to emit the shorthand
// "pilotage" or any other shorthand; a receiver ignores such keys, so a
// program declaration or manifest hint written under them is silently lost.
// Part III §1.1 keeps the dotted "io.github.jafarsa0.pilotage" only as a
// compatibility note: it is not wire-normative, neither as a _meta key nor
// as an extension name in the capabilities' extensions map.
//
// Both Go MCP SDKs model _meta as a plain map (go-sdk's mcp.Meta, mcp-go's
// mcp.NewMetaFromMap and Meta.AdditionalFields), so nothing stops these
// forms at compile time. The analyzer reports:
//
//   - a key "pilotage", or any key under the "io.github.jafarsa0/" prefix
//     other than the full one, in a _meta map: an mcp.Meta literal or index,
//     the argument of mcp-go's mcp.NewMetaFromMap, a map assigned to a Meta
//     or AdditionalFields field of an SDK type, or the value of a "_meta"
//     key in a map literal;
//   - the dotted "io.github.jafarsa0.pilotage" as a key of any map literal;
//   - "pilotage" or the dotted form as an extension name: go-sdk's
//     ServerCapabilities/ClientCapabilities AddExtension and Extensions
//     map, mcp-go's server.WithExtensions and capabilities Extensions map,
//     or an "extensions" key in a map literal.
//
// For the shorthand and the dotted form a suggested fix replaces the
// literal with "io.github.jafarsa0/pilotage" (types.ExtensionID).
//
// Example:
//
//	tool := &mcp.Tool{Name: "run_workflow", Meta: mcp.Meta{
//		"pilotage": map[string]any{"argument": "workflow", "language": "workflow/v1"},
//	}}
//
// is reported at "pilotage".
package metakey
