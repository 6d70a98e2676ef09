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
//     ({Not: &jsonschema.Schema{}}), a map literal, JSON text (also the
//     schema of mcp.NewToolWithRawSchema), the json.Marshal of a map or
//     schema passed on as json.RawMessage, or
//     mcp.WithSchemaAdditionalProperties(false);
//   - enum, const, pattern, format, length, range and other value
//     constraints (mcp.Enum, mcp.Pattern, mcp.AdditionalProperties(false),
//     ...) on a reserved member (Part III §4.4) or on the program argument;
//   - the program argument or program_ref in the required list of an
//     execute tool (mcp.Required() in mcp-go).
//
// Schemas are read from literals and from what is assigned through the
// variables that hold them afterwards (schema["additionalProperties"] =
// false, s.Properties["trace_level"].Enum = ..., tool.InputSchema.Required
// = ...), from jsonschema.For[T], which closes every struct and requires
// every field without omitempty (s.AdditionalProperties = nil opens it
// again), from mcp-go options held in variables or spread from a slice,
// and from a jsonschema:"enum=..." tag that mcp.WithInputSchema[T] turns
// into an enum (google/jsonschema-go v0.4.3 rejects such a tag outright).
// Tools are followed from where they are declared to where they are
// registered: helpers that return a tool or a slice of tools, package
// variables, and loops over a literal list (for _, t := range tools() {
// s.AddTool(t, handlers[t.Name]) }).
//
// mcp-go's server.WithInputSchemaValidation changes what goes on the
// wire: arguments that fail a tool's input schema, including a member of
// the wrong JSON type under a permissive schema, are answered with
// mcp.NewToolResultError (isError true, text only, no structuredContent)
// before the handler runs. For a Pilotage tool that breaks the result
// envelope (Part III §6) and answers a carrier-level fault on the wrong
// channel (§7.1), so the option is reported on a server that registers an
// mcp-go Pilotage tool whose schema can fail (a fixed-name access tool, or
// a loop tool that types, constrains or requires a member).
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
