// Writes the zod corpus: loop-tool inputSchemas as zod-to-json-schema
// emits them, the way TypeScript Pilotage servers declare their tools.
// Run from a folder where `npm install zod@3 zod-to-json-schema` was done:
//   node gen.mjs OUTDIR
// Each output names the Harborview tool it stands for and the rules the
// linter must report (none for the idiomatic, permissive form).
import { z } from "zod";
import { zodToJsonSchema } from "zod-to-json-schema";
import { readFileSync, writeFileSync } from "node:fs";

const out = process.argv[2];
const version = (pkg) => JSON.parse(readFileSync(`node_modules/${pkg}/package.json`, "utf8")).version;
const generator = `zod-to-json-schema ${version("zod-to-json-schema")} (zod ${version("zod")})`;

const anyObject = z.record(z.any());
// A buildingflow/1 program is an object. z.any() would make it optional:
// zod-to-json-schema leaves members that accept undefined out of required.
const validate = {
  flow: z.record(z.any()).describe("The buildingflow/1 program."),
  context: anyObject.optional(),
};
const execute = {
  flow: z.any().optional(),
  program_ref: z.string().optional(),
  input: anyObject.optional(),
  context: anyObject.optional(),
  trace_level: z.string().optional().describe("none, summary or full"),
  expected_catalog_version: z.string().optional(),
  idempotency_key: z.string().optional(),
  test_run: z.boolean().optional(),
  mode: z.string().optional(),
  store: z.boolean().optional(),
};
const trace = {
  run_id: z.string(),
  trace_level: z.string().optional(),
};

const cases = [
  // Idiomatic: passthrough objects accept members a newer Client sends.
  ["good-validate-passthrough", "validate_flow", [], z.object(validate).passthrough()],
  ["good-execute-passthrough", "run_flow", [], z.object(execute).passthrough()],
  ["good-trace-passthrough", "trace_run", [], z.object(trace).passthrough()],
  // nullable and nullish reserved members: type ["string", "null"] and anyOf.
  ["good-execute-nullable", "run_flow", [], z.object({ ...execute, trace_level: z.string().nullable().optional(), idempotency_key: z.string().nullish(), test_run: z.boolean().nullable().default(null) }).passthrough()],
  // A named schema: {"$ref": "#/definitions/Name", "definitions": {...}}.
  ["good-trace-named", "trace_run", [], z.object(trace).passthrough(), { name: "TraceRun" }],
  // .uuid() writes format, which draft-07 (zod-to-json-schema's dialect)
  // leaves each validator free to assert or not: an annotation, not a
  // constraint beyond the JSON type.
  ["good-trace-uuid", "trace_run", [], z.object({ ...trace, run_id: z.string().uuid() }).passthrough()],
  // .and() writes allOf [A, B]: the members of both parts are declared.
  ["good-execute-and", "run_flow", [], z.object({ flow: execute.flow, program_ref: execute.program_ref }).passthrough().and(z.object({ ...execute, flow: undefined, program_ref: undefined }).passthrough())],
  // .describe() and .default() are annotations.
  ["good-trace-described", "trace_run", [], z.object({ run_id: z.string().describe("The run to fetch."), trace_level: z.string().default("summary").describe("summary or full") }).passthrough()],
  // zod's default object is strict: additionalProperties false closes the schema.
  ["bad-validate-strict", "validate_flow", ["toolschema-loop-schema-closed"], z.object(validate)],
  ["bad-execute-strict", "run_flow", ["toolschema-loop-schema-closed"], z.object(execute)],
  ["bad-trace-named-strict", "trace_run", ["toolschema-loop-schema-closed"], z.object(trace), { name: "TraceRun" }],
  // z.any() accepts undefined, so the program member is not required,
  // which a validate tool serving one Language must mark.
  ["bad-validate-any-program", "validate_flow", ["toolschema-validate-program-required"], z.object({ ...validate, flow: z.any() }).passthrough()],
  // An enum on a reserved member constrains it beyond its JSON type.
  ["bad-execute-enum", "run_flow", ["toolschema-reserved-constrained"], z.object({ ...execute, trace_level: z.enum(["none", "summary", "full"]).optional() }).passthrough()],
  ["bad-execute-nullable-enum", "run_flow", ["toolschema-reserved-constrained"], z.object({ ...execute, mode: z.enum(["immediate", "deploy"]).nullable().optional() }).passthrough()],
  // .and() writes allOf: the parts apply together, each judged as the
  // root's own keywords are; a member a part requires is required, and an
  // enum in a part still constrains its member. (zod-to-json-schema
  // leaves additionalProperties out of an intersection's parts, so a
  // strict part does not close it.)
  ["bad-execute-and-required", "run_flow", ["toolschema-execute-runnable-required"], z.object({ flow: execute.flow, program_ref: z.string() }).passthrough().and(z.object({ ...execute, flow: undefined, program_ref: undefined }).passthrough())],
  ["bad-execute-and-enum", "run_flow", ["toolschema-reserved-constrained"], z.object({ flow: execute.flow, program_ref: execute.program_ref }).passthrough().and(z.object({ ...execute, flow: undefined, program_ref: undefined, trace_level: z.enum(["none", "summary", "full"]).optional() }).passthrough())],
];

for (const [name, tool, expect, schema, opts] of cases) {
  const doc = {
    generator,
    source: `zodToJsonSchema(${name}${opts ? ", " + JSON.stringify(opts) : ""})`,
    tool,
    expect,
    inputSchema: zodToJsonSchema(schema, opts ?? {}),
  };
  writeFileSync(`${out}/${name}.json`, JSON.stringify(doc, null, 2) + "\n");
}
