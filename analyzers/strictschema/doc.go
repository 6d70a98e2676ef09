// Package strictschema defines an Analyzer that reports Pilotage loop-tool
// input schemas that let the SDK or a client reject a request before the
// Pilotage handler can route the fault.
//
// # Analyzer strictschema
//
// strictschema: report strict or over-constrained Pilotage loop-tool input schemas
//
// Part III §4.6 of the Pilotage specification requires loop-tool input
// schemas to stay permissive: no "additionalProperties": false, no
// constraint on a reserved member beyond its JSON type, and on an execute
// tool neither the program argument nor program_ref required. Value and
// eligibility faults (an unknown trace_level, an unsupported mode, both or
// neither runnable, an unexpected member) must reach the handler and come
// back as Pilotage request errors or diagnostics; a schema failure puts
// them on the wrong channel.
//
// Both Go SDKs make the strict form the default. go-sdk's generic
// mcp.AddTool infers a schema from a struct In type with
// "additionalProperties": false and every field without omitempty
// required, then validates every call against it (and against an explicit
// InputSchema too) and answers a violation with an isError result without
// structuredContent, before the handler runs. mcp-go's
// mcp.WithInputSchema[T] emits the same strict schema,
// server.WithStrictInputSchemaDefault adds "additionalProperties": false
// to every tool that does not set it, and server.WithInputSchemaValidation
// enforces the result server-side; schema-aware clients enforce it anyway.
//
// A tool is a loop tool when its _meta carries a Pilotage program
// declaration (Part III §5) or when a manifest value in the same package
// names it under "loop". For such a tool the analyzer reports:
//
//   - a go-sdk mcp.AddTool with a struct In type and no InputSchema;
//   - mcp-go mcp.WithInputSchema[T]() and server.WithStrictInputSchemaDefault();
//   - "additionalProperties": false in a jsonschema.Schema literal
//     ({Not: &jsonschema.Schema{}}), a map literal, JSON text, or
//     mcp.WithSchemaAdditionalProperties(false);
//   - enum, const, pattern, format, length, range and other value
//     constraints (mcp.Enum, mcp.Pattern, mcp.AdditionalProperties(false),
//     ...) on a reserved member (Part III §4.4) or on the program argument;
//   - the program argument or program_ref in the required list of an
//     execute tool (mcp.Required() in mcp-go).
//
// Where the repair is mechanical a suggested fix makes the schema
// permissive (false becomes true, {Not: {}} becomes {}).
//
// Example:
//
//	mcp.AddTool(server, &mcp.Tool{Name: "run_workflow", Meta: decl}, runWorkflow)
//
// where runWorkflow takes a struct argument is reported at mcp.AddTool.
package strictschema
