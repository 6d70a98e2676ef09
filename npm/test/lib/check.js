// checkServer: what Go's pilotagetest.Check does, with the pilotage-lint
// binary of the pilotagekit package as the only judge. It records the
// server with `pilotage-lint snapshot --probe`, either starting it
// (command) or serving the author's McpServer on the snapshotter's own
// standard streams (server, --peer-stdio), lints the snapshot with
// `pilotage-lint --format json`, and sorts the findings into one case per
// probe.

import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pilotagekit from 'pilotagekit';

import { SURFACES, plannedCases } from './cases.js';
import { describeFinding } from './describe.js';

/** The default bound of one check, pilotagetest's (snapshotter.DefaultTimeout). */
export const DEFAULT_TIMEOUT = 30_000;

const SEVERITIES = ['info', 'warning', 'error'];

/** The name findings give the snapshot when writeSnapshot does not keep it. */
const UNKEPT = 'pilotage.snapshot.json';

/**
 * @param {import('./index.js').CheckOptions} options
 */
export function normalize(options) {
  if (!options || typeof options !== 'object') throw new TypeError('pilotage: give the options, with command or server');
  const { command, server } = options;
  if ((command === undefined) === (server === undefined)) {
    throw new TypeError('pilotage: give exactly one of command (the server as a program, such as ["node", "dist/index.js"]) and server (a function returning your McpServer)');
  }
  if (command !== undefined && (!Array.isArray(command) || command.length === 0 || !command.every((a) => typeof a === 'string'))) {
    throw new TypeError('pilotage: command is the program and its arguments, an array of strings such as ["node", "dist/index.js"]');
  }
  if (server !== undefined && typeof server !== 'function') {
    throw new TypeError('pilotage: server is a function that returns your McpServer (or a promise of it), called once per check');
  }
  const failOn = options.failOn ?? 'error';
  if (!SEVERITIES.includes(failOn)) throw new TypeError(`pilotage: failOn is "error", "warning" or "info", not ${JSON.stringify(failOn)}`);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (!Number.isFinite(timeout) || timeout <= 0) throw new TypeError('pilotage: timeout is a number of milliseconds');
  return { ...options, failOn, timeout, disable: options.disable ?? [], severity: options.severity ?? {} };
}

/**
 * run starts the binary and resolves with its exit code and output; the
 * returned child is there for the server form to serve on, which reads
 * its standard output itself (peer).
 * @param {string} bin
 * @param {string[]} args
 * @param {import('node:child_process').SpawnOptions & {input?: string, peer?: boolean}} opts
 */
function run(bin, args, { input, peer, ...opts }) {
  const child = spawn(bin, args, { windowsHide: true, ...opts });
  let stdout = '';
  let stderr = '';
  if (!peer) child.stdout?.on('data', (d) => (stdout += d));
  child.stderr?.on('data', (d) => (stderr += d));
  if (input !== undefined) child.stdin?.end(input);
  const done = new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

/**
 * record takes the snapshot into file and returns what the snapshotter
 * said on standard error.
 * @param {string} bin
 * @param {ReturnType<typeof normalize>} opts
 * @param {string} file
 * @param {string} work
 */
async function record(bin, opts, file, work) {
  const args = ['snapshot', '--probe', '--out', file, '--timeout', `${opts.timeout}ms`];
  if (opts.callTimeout !== undefined) args.push('--probe-timeout', `${opts.callTimeout}ms`);
  if (opts.probeRun !== undefined) {
    const program = path.join(work, 'probe-run.json');
    await writeFile(program, JSON.stringify(opts.probeRun));
    args.push('--probe-run', program);
  }
  // The binary bounds the session with --timeout; this bounds the binary.
  const guard = opts.timeout + 15_000;
  let result;
  if (opts.command) {
    const { child, done } = run(bin, [...args, '--', ...opts.command], { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'ignore', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), guard);
    try {
      result = await done;
    } finally {
      clearTimeout(timer);
    }
  } else {
    result = await serve(bin, [...args, '--peer-stdio'], opts, guard);
  }
  // Exit 1: the snapshot is written, but probe calls drew no answer for a
  // transport reason (a server that exited, a dropped connection); the
  // snapshot records why, and the lint fails those calls.
  const written = result.code === 1 && (await stat(file).catch(() => null))?.isFile();
  if (result.code !== 0 && !written) {
    const why = result.signal ? `killed by ${result.signal}` : `exit ${result.code}`;
    throw new Error(`pilotage: recording the server failed (pilotage-lint snapshot, ${why}):\n${result.stderr.trim()}`);
  }
  return result.stderr;
}

/**
 * serve runs the snapshotter with --peer-stdio and connects the author's
 * server to its pipes with the SDK's StdioServerTransport: the binary is
 * the MCP client, the server stays in this process.
 * @param {string} bin
 * @param {string[]} args
 * @param {ReturnType<typeof normalize>} opts
 * @param {number} guard
 */
async function serve(bin, args, opts, guard) {
  let StdioServerTransport;
  try {
    ({ StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js'));
  } catch (err) {
    throw new Error(`pilotage: the server option needs @modelcontextprotocol/sdk beside @pilotagekit/test (${/** @type {Error} */ (err).message})`);
  }
  const { child, done } = run(bin, args, { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], peer: true });
  const timer = setTimeout(() => child.kill('SIGKILL'), guard);
  // Once the snapshot is taken the binary exits; a reply still in flight
  // then meets a closed pipe, which is no failure of the check.
  child.stdin?.on('error', () => {});
  let server;
  try {
    server = await opts.server();
    if (!server || typeof server.connect !== 'function') {
      throw new TypeError('pilotage: the server option returned no MCP server (an object with connect(transport), such as an McpServer)');
    }
    await server.connect(new StdioServerTransport(child.stdout, child.stdin));
  } catch (err) {
    child.kill('SIGKILL');
    clearTimeout(timer);
    await done.catch(() => {});
    throw err;
  }
  try {
    return await done;
  } finally {
    clearTimeout(timer);
    await server.close().catch(() => {});
  }
}

/**
 * lint runs pilotage-lint --format json on the snapshot.
 * @param {string} bin
 * @param {ReturnType<typeof normalize>} opts
 * @param {string} file
 * @param {string} name
 */
async function lint(bin, opts, file, name) {
  const args = ['--format', 'json', '--no-config'];
  if (opts.disable.length) args.push('--disable', opts.disable.join(','));
  for (const [id, level] of Object.entries(opts.severity)) args.push('--severity', `${id}=${level}`);
  args.push('--stdin-filename', name, '-');
  const { done } = run(bin, args, { env: opts.env, stdio: ['pipe', 'pipe', 'pipe'], input: await readFile(file, 'utf8') });
  const { code, stdout, stderr } = await done;
  if (code !== 0 && code !== 1) {
    throw new Error(`pilotage: linting the recording failed (pilotage-lint, exit ${code}):\n${stderr.trim()}`);
  }
  return JSON.parse(stdout);
}

/**
 * The spec sentence of every rule, from the binary that judged.
 * @param {string} bin
 * @param {NodeJS.ProcessEnv | undefined} env
 * @returns {Promise<Map<string, string>>}
 */
async function quotes(bin, env) {
  const { done } = run(bin, ['rules', '--format', 'json'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const { code, stdout, stderr } = await done;
  if (code !== 0) throw new Error(`pilotage: pilotage-lint rules failed (exit ${code}):\n${stderr.trim()}`);
  return new Map(JSON.parse(stdout).map((/** @type {{id: string, quote?: string}} */ r) => [r.id, r.quote ?? '']));
}

/**
 * checkServer probes and lints a server and returns the report, case by
 * case; it throws when the server could not be recorded or linted at all.
 * @param {import('./index.js').CheckOptions} options
 * @returns {Promise<import('./index.js').Report>}
 */
export async function checkServer(options) {
  const opts = normalize(options);
  const bin = opts.binary ?? pilotagekit.binaryPath();
  const work = await mkdtemp(path.join(tmpdir(), 'pilotage-'));
  try {
    const kept = opts.writeSnapshot ? path.resolve(opts.writeSnapshot) : undefined;
    if (kept) await mkdir(path.dirname(kept), { recursive: true });
    const file = kept ?? path.join(work, UNKEPT);
    const said = await record(bin, opts, file, work);
    const name = kept ? path.relative(process.cwd(), kept) || kept : UNKEPT;
    const result = await lint(bin, opts, file, name);
    const snapshot = JSON.parse(await readFile(file, 'utf8'));
    const ruleQuotes = result.findings.length ? await quotes(bin, opts.env) : new Map();
    return report(opts, { said, result, snapshot, ruleQuotes, kept: kept ? name : undefined });
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * report sorts what the binary found into the cases.
 * @param {ReturnType<typeof normalize>} opts
 * @param {{said: string, result: any, snapshot: any, ruleQuotes: Map<string, string>, kept?: string}} got
 * @returns {import('./index.js').Report}
 */
function report(opts, { said, result, snapshot, ruleQuotes, kept }) {
  /** @type {import('./index.js').Report} */
  const rep = { notes: [], failures: [], cases: [], snapshot: kept, coverage: result.coverage };
  for (const line of said.split('\n')) {
    const warning = line.match(/^pilotage-lint snapshot: warning: (.*)$/);
    const error = line.match(/^pilotage-lint snapshot: error: (.*)$/);
    if (warning) rep.notes.push(`snapshot: ${warning[1]}`);
    else if (error) rep.notes.push(`snapshot: ${error[1]}`);
    else if (/^pilotage-lint snapshot: the --probe-run program never ran/.test(line)) rep.notes.push(line.replace(/^pilotage-lint snapshot: /, ''));
    // The snapshotter still writes a snapshot when the session's time runs
    // out mid-probe; the probes after that point were never sent, and a
    // pass would vouch for what was not checked.
    if (warning && /timed out before the probe finished/.test(warning[1])) {
      rep.failures.push(`the session ran out of its ${opts.timeout} ms before the probe finished, so the probes after that point were not sent; raise the timeout option, or find the call that hung`);
    }
  }
  for (const f of result.files) {
    // Fail closed: a Pilotage test of a server that shows no Pilotage at
    // all must not pass in silence.
    if (f.no_pilotage) rep.failures.push('the server shows no Pilotage signal, so no rule judged it');
  }

  /** @type {Map<string, import('./index.js').Case>} */
  const byProbe = new Map();
  const planned = plannedCases();
  const sent = new Set((snapshot.calls ?? []).map((/** @type {any} */ c) => c?.probe?.name).filter(Boolean));
  // The recording says, per Language, why a probe sent nothing there:
  // undeclared, needs probeRun, an earlier probe's answer unmet, the
  // session ended first.
  /** @type {Map<string, string[]>} */
  const unsent = new Map();
  for (const k of result.coverage?.skipped ?? []) {
    const reason = String(k.reason).replace(/^not sent: /, '');
    unsent.set(k.name, [...(unsent.get(k.name) ?? []), k.language ? `${k.language}: ${reason}` : reason]);
  }
  for (const p of planned) {
    /** @type {import('./index.js').Case} */
    const c = { name: p.name, vector: p.vector, probe: p.probe, failures: [], logs: [] };
    if (p.probe && !sent.has(p.probe)) {
      const why = unsent.get(p.probe);
      c.skipped = why ? `not sent: ${why.join('; ')}` : 'not applicable: no Language of the server declares what this probe needs';
    }
    rep.cases.push(c);
    byProbe.set(p.probe ?? SURFACES, c);
  }
  const plannedByProbe = new Map(planned.map((p) => [p.probe ?? SURFACES, p]));
  const threshold = SEVERITIES.indexOf(opts.failOn);
  for (const f of result.findings) {
    const c = (f.probe && byProbe.get(f.probe.name)) || /** @type {import('./index.js').Case} */ (byProbe.get(SURFACES));
    let msg = describeFinding(f, { quote: ruleQuotes.get(f.rule), probe: f.probe && plannedByProbe.get(f.probe.name), snapshot });
    if (!kept) msg += ' (not kept; the writeSnapshot option keeps the recording)';
    if (SEVERITIES.indexOf(f.severity) >= threshold) c.failures.push(msg);
    else c.logs.push(msg);
  }
  return rep;
}
