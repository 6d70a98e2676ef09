// describePilotage for node:test against the chime server, in both forms,
// as test/describe.test.js does for vitest.

import { describePilotage } from '@pilotagekit/test/node';
import { FAULTS, createServer } from '../server.js';

const server = new URL('../server.js', import.meta.url).pathname;

describePilotage('chime command', { command: ['node', server] });
describePilotage('chime in-process', { server: () => createServer() });

for (const [fault, { observedBy }] of Object.entries(FAULTS)) {
  describePilotage(`chime command --fault ${fault}`, { command: ['node', server, '--fault', fault], expectedFailures: observedBy });
  describePilotage(`chime in-process ${fault}`, { server: () => createServer({ fault }), expectedFailures: observedBy });
}
