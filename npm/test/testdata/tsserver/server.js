#!/usr/bin/env node
// A small Pilotage server written as a TypeScript author writes one: the
// official MCP SDK's McpServer, zod schemas for the tool inputs, plain ESM
// JavaScript (JSDoc types) run by node without a build step. It serves one
// Language, chime/1, whose programs ring named bells in order:
//
//   {"steps": [{"id": "a", "ring": "bell"}, {"id": "b", "ring": "gong"}]}
//
// createServer({ fault }) returns the McpServer (the in-process form of
// @pilotagekit/test); run as a program it serves the same over stdio
// (the command form): node server.js [--fault NAME].
//
// Without a fault the server is conformant. Each fault in FAULTS is a
// mistake a TypeScript author makes easily, and names the cases of
// @pilotagekit/test ("VECTOR/probe", or surfaces) that observe it, in the
// order the check reports them.

import { pathToFileURL } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';

const EXTENSION = 'io.github.jafarsa0/pilotage';
const LANGUAGE = 'chime/1';
const BELLS = ['bell', 'gong', 'chime'];

/**
 * The faults, each with the vectors (and the probe under each) that
 * observe it.
 * @type {Record<string, {about: string, observedBy: string[]}>}
 */
export const FAULTS = {
  'sdk-unknown-tool': {
    about:
      "keeps McpServer's own tools/call dispatch, which answers a call of an unknown tool with an isError result; Part III §7.1 maps it to the JSON-RPC error -32602",
    observedBy: ['PIL-CARRIER-UNKNOWN-TOOL-B/unknown-tool'],
  },
  'zod-strips': {
    about:
      'parses the execute arguments with a plain z.object, which drops the members it does not list, so test_run and store: true never reach the handler and the run goes ahead',
    observedBy: [
      'PIL-EXECUTE-TEST-RUN-UNDECLARED-B/execute-test-run-undeclared',
      'PIL-EXECUTE-STORE-UNSUPPORTED-B/execute-store-unsupported',
    ],
  },
  'zod-enum': {
    about:
      'declares trace_level as z.enum and lets the ZodError of an unknown level escape the handler, which the SDK sends as a JSON-RPC internal error instead of a Pilotage invalid_request error',
    observedBy: ['surfaces', 'PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B/execute-unknown-trace-level'],
  },
  'throw-not-found': {
    about:
      'throws an Error for an unknown guide id, which the SDK sends as a JSON-RPC internal error, instead of returning a not_found request error',
    observedBy: ['PIL-LEARN-UNKNOWN-ID-B/guide-unknown-id'],
  },
};

const INSTRUCTIONS =
  'This server speaks Pilotage (io.github.jafarsa0/pilotage) for chime/1 programs. Call pilotage_manifest first: it lists the Language, its guides and its loop tools. Then read the core guide, validate a program, and execute it.';

const GUIDES = [
  {
    id: 'core',
    title: 'chime/1 in one page',
    level: 'core',
    topics: ['syntax'],
    body: '# chime/1\n\nA program is {"steps": [...]}; each step is {"id", "ring"} and rings one of the bells bell, gong or chime. The output lists the bells rung, in order.\n',
  },
  {
    id: 'closed-sets',
    title: 'Closed sets of chime/1',
    level: 'reference',
    topics: ['closed-sets'],
    body:
      '# Closed sets\n\nBells: bell, gong, chime.\nDiagnostic codes: constraint, unknown_bell, context_binding.\nRun statuses: success (ok true), validation_error (ok false, nothing rung).\nStep statuses: success.\nRisk levels: safe = {readOnly: true, destructive: false, openWorld: false}.\nStep identifiers are the program\'s own ids.\n',
  },
];

const manifest = {
  pilotage: '1.1',
  languages: [
    {
      name: LANGUAGE,
      title: 'Chimes',
      guides: 'pilotage_get_guide',
      loop: { validate: 'validate_chime', execute: 'ring_chime' },
      locator: 'json-pointer',
      capabilities: { guides: true, validate: true, plan: true, execute: true },
      execution: 'immediate',
      trace: 'full',
      retention: 'none',
    },
  ],
};

/**
 * A Part II response in the Part III §6 envelope.
 * @param {Record<string, unknown>} value
 */
function answer(value) {
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }], isError: false };
}

/**
 * A request error of Part III §7.2.
 * @param {string} kind
 * @param {string} message
 */
function requestError(kind, message) {
  const value = { error: { kind, message } };
  return { structuredContent: value, content: [{ type: 'text', text: JSON.stringify(value) }], isError: true };
}

/** @param {(typeof GUIDES)[number]} g */
function guideMeta(g) {
  return {
    id: g.id,
    title: g.title,
    level: g.level,
    topics: g.topics,
    language: LANGUAGE,
    version: '1',
    size_bytes: Buffer.byteLength(g.body),
    format: 'text/markdown',
  };
}

/** @param {string} code @param {string} path @param {string} message */
function diagnostic(code, path, message) {
  return { severity: 'error', code, path, message };
}

const safe = () => ({ readOnly: true, destructive: false, openWorld: false });

const Step = z.object({ id: z.string().min(1).regex(/^[^#/]+$/), ring: z.enum(BELLS) });
const Program = z.object({ steps: z.array(z.unknown()) });

/**
 * Checks a program and the context beside it; returns its steps and the
 * diagnostics.
 * @param {Record<string, unknown>} args
 */
function check(args) {
  const program = Program.safeParse(args.program);
  if (!program.success) {
    return { steps: [], diagnostics: [diagnostic('constraint', '', 'a program is an object with a steps array')] };
  }
  /** @type {{id: string, ring: string}[]} */
  const steps = [];
  const diagnostics = [];
  program.data.steps.forEach((raw, i) => {
    const step = Step.safeParse(raw);
    if (step.success) steps.push(step.data);
    else diagnostics.push(diagnostic('unknown_bell', `/steps/${i}`, 'each step needs an id (without # or /) and a ring of bell, gong or chime'));
  });
  const context = args.context;
  const empty = context === undefined || context === null || (typeof context === 'object' && Object.keys(context).length === 0);
  if (!empty) diagnostics.push(diagnostic('context_binding', '', 'chime/1 declares no context_schema and takes no context'));
  return { steps, diagnostics };
}

/** @param {Record<string, unknown>} args */
function validate(args) {
  const { steps, diagnostics } = check(args);
  /** @type {Record<string, unknown>} */
  const response = { valid: diagnostics.length === 0, diagnostics };
  if (diagnostics.length === 0) {
    response.plan = {
      steps: steps.map((s) => ({ id: s.id, risk: 'safe', risk_hints: safe() })),
      max_risk: 'safe',
      max_risk_hints: safe(),
    };
  }
  return answer(response);
}

/** @param {Record<string, unknown>} args */
function execute(args) {
  const hasProgram = 'program' in args;
  const hasRef = 'program_ref' in args;
  if (hasProgram === hasRef) return requestError('invalid_request', 'give exactly one of program and program_ref');
  if (hasRef) return requestError('not_found', 'unknown program reference');
  const level = args.trace_level ?? 'full';
  if (!['none', 'summary', 'full'].includes(/** @type {string} */ (level))) {
    return requestError('invalid_request', 'trace_level must be none, summary or full');
  }
  if ('mode' in args) return requestError('invalid_request', 'chime/1 has execution immediate and takes no mode');
  if ('test_run' in args) return requestError('invalid_request', 'chime/1 does not declare execute.test_run');
  if (args.store === true) return requestError('unsupported', 'chime/1 retains nothing (retention none)');
  const { steps, diagnostics } = check(args);
  if (diagnostics.length > 0) {
    return answer({
      run_id: 'run-refused',
      outcome: { ok: false, status: 'validation_error', error: 'the program is invalid' },
      diagnostics,
    });
  }
  const runId = `run-${steps.map((s) => s.ring).join('-') || 'empty'}`;
  const outcome = () => ({ ok: true, status: 'success', error: null });
  /** @type {Record<string, unknown>} */
  const response = { run_id: runId, outcome: outcome(), output: steps.map((s) => s.ring) };
  if (level !== 'none') {
    response.trace = {
      run_id: runId,
      level,
      steps: steps.map((s) => ({
        id: s.id,
        outcome: outcome(),
        ...(level === 'full' ? { input: { ring: s.ring } } : {}),
        output: s.ring,
      })),
    };
  }
  return answer(response);
}

/**
 * @param {Record<string, unknown>} args
 * @param {string} fault
 */
function getGuide(args, fault) {
  if (args.language !== LANGUAGE) return requestError('not_found', 'unknown language');
  // chime/1 does not declare guides.topic_fetch (Part III §7.2).
  if ('topic' in args) return requestError('invalid_request', 'chime/1 does not declare topic fetch');
  if (args.id === undefined) return answer({ guides: GUIDES.map(guideMeta) });
  const g = GUIDES.find((x) => x.id === args.id);
  if (g) return answer({ guide: { ...guideMeta(g), body: g.body } });
  if (fault === 'throw-not-found') throw new Error(`no guide ${String(args.id)}`);
  return requestError('not_found', 'unknown guide');
}

/**
 * createServer returns the server, not yet connected.
 * @param {{fault?: string}} [options]
 * @returns {McpServer}
 */
export function createServer({ fault = '' } = {}) {
  if (fault && !(fault in FAULTS)) throw new Error(`unknown fault ${fault}; the faults are ${Object.keys(FAULTS).join(', ')}`);
  const server = new McpServer(
    { name: 'chime-server', version: '0.1.0' },
    { capabilities: { tools: {}, extensions: { [EXTENSION]: { version: '1.1' } } }, instructions: INSTRUCTIONS },
  );
  const readOnly = { readOnlyHint: true };
  const meta = { [EXTENSION]: { argument: 'program', language: LANGUAGE } };
  // Every member a Pilotage request may carry reaches the handler: the
  // loop tools answer members they do not take with a request error
  // rather than lose them (Part III §4.6). looseObject keeps them, and
  // gives the listed schema no additionalProperties: false.
  const object = fault === 'zod-strips' ? z.object : z.looseObject;


  const executeInput = object({
    program: z.unknown().optional(),
    program_ref: z.string().optional(),
    input: z.looseObject({}).optional(),
    trace_level: fault === 'zod-enum' ? z.enum(['none', 'summary', 'full']).optional() : z.string().optional(),
    expected_catalog_version: z.string().optional(),
    context: z.unknown().optional(),
  });
  /** @type {Record<string, (args: Record<string, unknown>) => unknown>} */
  const handlers = {
    pilotage_manifest: () => answer(manifest),
    pilotage_get_guide: (args) => getGuide(args, fault),
    validate_chime: (args) => validate(args),
    ring_chime: (args) => execute(executeInput.parse(args)),
  };
  server.registerTool(
    'pilotage_manifest',
    {
      description:
        'Start here. Call this first, before any other tool on this server: it returns the Pilotage manifest that lists the program Languages, where their guides live, and which tools validate and execute programs.',
      inputSchema: z.object({}),
      outputSchema: z.looseObject({}),
      annotations: readOnly,
    },
    () => /** @type {any} */ (handlers.pilotage_manifest({})),
  );
  server.registerTool(
    'pilotage_get_guide',
    {
      description:
        'Learn stage of the Pilotage loop: returns the guides of a Language. Without id it lists the guide index; with id it fetches one guide.',
      inputSchema: z.looseObject({ language: z.string(), id: z.string().optional(), topic: z.string().optional() }),
      outputSchema: z.looseObject({}),
      annotations: readOnly,
    },
    (args) => /** @type {any} */ (handlers.pilotage_get_guide(args)),
  );
  server.registerTool(
    'validate_chime',
    {
      description:
        'Validate stage for chime/1 programs: checks a program and returns diagnostics and, for a valid program, a plan with risk hints. Never rings anything.',
      inputSchema: z.looseObject({ program: z.unknown(), context: z.unknown().optional() }),
      outputSchema: z.looseObject({}),
      annotations: readOnly,
      _meta: meta,
    },
    (args) => /** @type {any} */ (handlers.validate_chime(args)),
  );
  server.registerTool(
    'ring_chime',
    {
      description:
        'Execute stage for chime/1 programs: rings a validated program immediately and returns the outcome with an inline trace.',
      inputSchema: executeInput,
      outputSchema: z.looseObject({}),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
      _meta: meta,
    },
    (args) => /** @type {any} */ (handlers.ring_chime(args)),
  );

  // The manifest resource of Part III §3.2.
  server.registerResource('pilotage-manifest', 'pilotage://manifest', { mimeType: 'application/json' }, (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(manifest) }],
  }));

  if (fault !== 'sdk-unknown-tool') {
    // McpServer answers a call of an unknown tool with an isError result,
    // where Part III §7.1 wants the JSON-RPC error -32602. So, once every
    // tool is registered, the tools/call handler is replaced by one that
    // refuses unknown tools so and hands each tool its arguments; the
    // handlers check them with zod and answer in Pilotage's terms.
    server.server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const handler = handlers[request.params.name];
      if (!handler) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      try {
        return /** @type {any} */ (handler(request.params.arguments ?? {}));
      } catch (err) {
        // A malformed request is a Pilotage request error (Part III §7.2).
        if (err instanceof z.ZodError && fault !== 'zod-enum') return requestError('invalid_request', z.prettifyError(err));
        throw err;
      }
    });
  }
  return server;
}

function main() {
  const i = process.argv.indexOf('--fault');
  const fault = i >= 0 ? process.argv[i + 1] : process.env.CHIME_FAULT || '';
  createServer({ fault })
    .connect(new StdioServerTransport())
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
