// The type declarations of pilotagekit and @pilotagekit/test as a
// TypeScript author meets them; .ci/npm compiles this file (tsc, strict,
// nodenext) against the published packages. It is never run.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { checkServer, describeFinding, type Report } from '@pilotagekit/test';
import { describePilotage as nodeDescribe } from '@pilotagekit/test/node';
import { describePilotage } from '@pilotagekit/test/vitest';
import { BinaryError, binaryPath } from 'pilotagekit';

describePilotage('my-server', { command: ['node', 'dist/index.js'], failOn: 'error', expectedFailures: ['PIL-EXECUTE-GUARD-B'] });
describePilotage('in-process', { server: () => new McpServer({ name: 'x', version: '1.0.0' }), timeout: 10_000, disable: ['signpost-wording'] });
nodeDescribe('node:test', { command: ['node', 'x.js'], probeRun: { steps: [] }, writeSnapshot: 'snapshots/x.json', severity: { 'signpost-wording': 'warning' } });

async function harness(): Promise<number> {
  const report: Report = await checkServer({ server: async () => new McpServer({ name: 'x', version: '1.0.0' }) });
  return report.cases.filter((c) => c.failures.length > 0).length;
}
void harness;
void describeFinding;

const bin: string = binaryPath();
void bin;
void new BinaryError('x');

// @ts-expect-error failOn is "error", "warning" or "info"
describePilotage('bad', { command: ['node'], failOn: 'fatal' });
// @ts-expect-error command is an array of strings
describePilotage('bad', { command: 'node dist/index.js' });
