// checkServer, the engine under both test-runner forms, against the chime
// server: what a failure says, and each option.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { checkServer, excerpt, plannedCases } from '@pilotagekit/test';
import { FAULTS, createServer } from '../server.js';

const server = new URL('../server.js', import.meta.url).pathname;
const failed = (report) => report.cases.filter((c) => c.failures.length).map((c) => c.name);
const only = (report, name) => report.cases.find((c) => c.name === name);

describe('checkServer', () => {
  test('the conformant server passes every case, at failOn info too', async () => {
    const report = await checkServer({ command: ['node', server], failOn: 'info' });
    expect(report.failures).toEqual([]);
    expect(failed(report)).toEqual([]);
    expect(report.cases.flatMap((c) => c.logs)).toEqual([]);
    expect(report.cases.map((c) => c.name)).toEqual(plannedCases().map((c) => c.name));
    // chime/1 declares no catalog, test_run or trace fetch: those probes
    // send nothing, and say why.
    expect(only(report, 'PIL-LOOKUP-GET-UNKNOWN-B/catalog-get-unknown').skipped).toBe('not sent: chime/1: the Language declares no catalog');
    expect(only(report, 'PIL-EXECUTE-STORE-UNSUPPORTED-B/execute-store-unsupported').skipped).toBeUndefined();
    expect(report.coverage.vectors_failed).toBe(0);
  });

  for (const [fault, { observedBy }] of Object.entries(FAULTS)) {
    test(`fault ${fault} fails exactly ${observedBy.join(', ')}, in both forms`, async () => {
      const command = await checkServer({ command: ['node', server, '--fault', fault] });
      const inProcess = await checkServer({ server: () => createServer({ fault }) });
      expect(failed(command)).toEqual(observedBy);
      expect(failed(inProcess)).toEqual(observedBy);
    });
  }

  test('a failure names the rule, the spec sentence, the probe and vector, the request, the response and the place', async () => {
    const report = await checkServer({ server: () => createServer({ fault: 'zod-strips' }) });
    const [msg] = only(report, 'PIL-EXECUTE-STORE-UNSUPPORTED-B/execute-store-unsupported').failures;
    const lines = msg.split('\n');
    expect(lines[0]).toMatch(/^error call-store-unsupported: ring_chime accepted store: true although chime\/1 declares retention "none"/);
    expect(lines[1]).toBe('    spec: Part II §6.5; Part III §7.2: "A Server whose declared retention is `\\"none\\"` MUST reject the request with a request error of kind `unsupported`."');
    expect(lines[2]).toBe('    probe: execute-store-unsupported (PIL-EXECUTE-STORE-UNSUPPORTED-B), Language chime/1 (Part II §6.5)');
    expect(lines[3]).toMatch(/^    request: tools\/call ring_chime \{"program":".*","store":true\}$/);
    expect(lines[4]).toMatch(/^    response \(result\): \{.*"isError":false.*"status":"validation_error"/);
    expect(lines[5]).toMatch(/^    at: pilotage\.snapshot\.json:\d+:\d+ \/calls\/\d+\/arguments\/store \(not kept; the writeSnapshot option keeps the recording\)$/);
    expect(lines).toHaveLength(6);
  });

  test('a probe-expectation failure quotes the probe\'s sentence and shows the JSON-RPC error', async () => {
    const report = await checkServer({ command: ['node', server, '--fault', 'throw-not-found'] });
    const [msg] = only(report, 'PIL-LEARN-UNKNOWN-ID-B/guide-unknown-id').failures;
    expect(msg).toMatch(/^error probe-expectation: probe guide-unknown-id \(PIL-LEARN-UNKNOWN-ID-B\) drew a JSON-RPC error/);
    expect(msg).toContain('\n    spec: Part II §6.2, Part III §7.2, §10.1: "An unknown guide `id` is a request error.');
    expect(msg).toMatch(/\n    request: tools\/call pilotage_get_guide \{"id":"[^"]+","language":"chime\/1"\}\n/);
    expect(msg).toMatch(/\n    response \(error\): \{"code":-32603,"message":"no guide [^"]+"\}\n/);
  });

  test('writeSnapshot keeps the recording, and findings point at its lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'chime-'));
    const file = path.join(dir, 'snapshots', 'chime.snapshot.json');
    const report = await checkServer({ command: ['node', server, '--fault', 'zod-strips'], writeSnapshot: file });
    expect(report.snapshot).toBe(path.relative(process.cwd(), file));
    const [msg] = only(report, 'PIL-EXECUTE-STORE-UNSUPPORTED-B/execute-store-unsupported').failures;
    const [, line] = msg.match(/\n    at: .*:(\d+):\d+ (\S+)$/);
    expect(msg).not.toContain('not kept');
    expect(readFileSync(file, 'utf8').split('\n')[Number(line) - 1]).toContain('"store": true');
  });

  test('disable and severity reach the rules; failOn sorts failures from notes', async () => {
    const report = await checkServer({
      server: () => createServer({ fault: 'zod-enum' }),
      disable: ['toolschema-reserved-constrained'],
      severity: { 'probe-expectation': 'warning' },
    });
    expect(failed(report)).toEqual([]);
    expect(only(report, 'PIL-EXECUTE-UNKNOWN-TRACE-LEVEL-B/execute-unknown-trace-level').logs[0]).toMatch(/^warning probe-expectation: /);
    const strict = await checkServer({ server: () => createServer({ fault: 'zod-enum' }), severity: { 'probe-expectation': 'warning' }, failOn: 'warning' });
    expect(failed(strict)).toEqual(FAULTS['zod-enum'].observedBy);
  });

  test('an unknown rule ID fails the check with the binary\'s message', async () => {
    await expect(checkServer({ command: ['node', server], disable: ['no-such-rule'] })).rejects.toThrow(/linting the recording failed \(pilotage-lint, exit 2\):\n.*no-such-rule/);
  });

  // chime/1 is an immediate Language and declares no execute.test_run,
  // so the program of probeRun goes to calc/1 of the Go testdata server
  // (lint/snapshotter/testdata/pilotserver -mode full), which .ci/npm
  // builds and names in PILOTSERVER.
  test.skipIf(!process.env.PILOTSERVER && process.env.PILOTAGEKIT_REQUIRE_TOOLS !== '1')(
    'probeRun test-runs the program on a Language that declares execute.test_run',
    async () => {
      const pilotserver = process.env.PILOTSERVER;
      expect(pilotserver, 'PILOTSERVER names the Go testdata server').toBeTruthy();
      const program = { steps: [{ id: 'a', op: 'add', args: [1, 2] }] };
      const run = 'PIL-EXECUTE-SUCCESS-G/execute-test-run';
      const without = await checkServer({ command: [pilotserver, '-mode', 'full'] });
      expect(only(without, run).skipped).toBe('not sent: toyflow/1: the Language declares no execute.test_run, the only way --probe-run runs a program; calc/1: needs --probe-run');
      const clean = await checkServer({ command: [pilotserver, '-mode', 'full'], probeRun: program });
      expect(only(clean, run).skipped).toBeUndefined();
      expect(failed(clean)).toEqual([]);
      // A fault only a test run shows, as a warning: a note at the
      // default failOn, a failure at failOn warning.
      const faulty = ['-mode', 'full', '-fault', 'trace-id-suffix'];
      const noted = await checkServer({ command: [pilotserver, ...faulty], probeRun: program });
      expect(failed(noted)).toEqual([]);
      expect(only(noted, run).logs[0]).toMatch(/^warning call-trace-step-id-context: /);
      const strict = await checkServer({ command: [pilotserver, ...faulty], probeRun: program, failOn: 'warning' });
      expect(failed(strict)).toContain(run);
    },
  );

  test('a server without Pilotage fails closed', async () => {
    const report = await checkServer({
      server: () => {
        const plain = new McpServer({ name: 'plain', version: '1.0.0' });
        plain.registerTool('echo', { description: 'Echoes.' }, () => ({ content: [{ type: 'text', text: 'hi' }] }));
        return plain;
      },
    });
    expect(report.failures).toEqual(['the server shows no Pilotage signal, so no rule judged it']);
  });

  test('a server that exits mid-probe fails the call it left unanswered, and the probes after it say they were not sent', async () => {
    const report = await checkServer({ command: ['node', new URL('../fixtures/exits.js', import.meta.url).pathname] });
    expect(report.notes.join('\n')).toMatch(/^snapshot: tools\/call \S+: the server closed its standard output mid-probe/m);
    const unanswered = report.cases.filter((c) => c.failures.some((f) => /got no answer \(the server closed its standard output/.test(f)));
    expect(unanswered).toHaveLength(1);
    expect(only(report, 'PIL-CARRIER-UNKNOWN-TOOL-B/unknown-tool').skipped).toMatch(/^not sent: the connection to the server was lost/);
  });

  test('a server that does not start fails the check with the snapshotter\'s account', async () => {
    await expect(checkServer({ command: ['node', '-e', 'console.error("boom"); process.exit(3)'] })).rejects.toThrow(
      /recording the server failed \(pilotage-lint snapshot, exit 2\):\n.*handshake[\s\S]*boom/,
    );
  });

  test('a server that never answers fails at the timeout', async () => {
    await expect(checkServer({ command: ['node', '-e', 'setInterval(() => {}, 1000)'], timeout: 2000 })).rejects.toThrow(/timed out after 2s during the handshake/);
  });

  test('the in-process factory\'s own failure is the check\'s', async () => {
    await expect(checkServer({ server: () => { throw new Error('no database'); } })).rejects.toThrow('no database');
    await expect(checkServer({ server: () => ({}) })).rejects.toThrow(/returned no MCP server/);
  });

  test('options are checked before anything runs', async () => {
    await expect(checkServer({ command: ['node', server], server: () => createServer() })).rejects.toThrow(/exactly one of command .* and server/);
    await expect(checkServer({})).rejects.toThrow(/exactly one of command/);
    await expect(checkServer({ command: 'node server.js' })).rejects.toThrow(/an array of strings/);
    await expect(checkServer({ command: ['node', server], failOn: 'fatal' })).rejects.toThrow(/failOn is "error", "warning" or "info"/);
  });
});

describe('excerpt', () => {
  const long = { content: [{ type: 'text', text: 'x'.repeat(5000) }], structuredContent: { error: { kind: 'not_found' } }, isError: true };

  test('a short value is shown whole, on one line', () => {
    expect(excerpt({ a: [1, { b: 'c' }] }, ['a', '1', 'b'])).toBe('{"a":[1,{"b":"c"}]}');
  });

  test('a long value is cut around the member the pointer names, with its name', () => {
    const got = excerpt(long, ['isError'], 200);
    expect(got).toMatch(/^… \(\d+ bytes before\) .*"isError":true\}$/);
    expect(got).toContain('"structuredContent":{"error":{"kind":"not_found"}}');
  });

  test('without a pointer, or one that leads nowhere, the start is shown', () => {
    expect(excerpt(long, undefined, 100)).toMatch(/^\{"content":\[\{"type":"text","text":"x+ … \(\d+ bytes after, \d+ in all\)$/);
    expect(excerpt(long, ['nowhere'], 100)).toBe(excerpt(long, undefined, 100));
  });
});
