// describePilotage for vitest against the chime server, in both forms:
// conformant, it is green; with each fault, exactly the cases the fault
// names fail, which expectedFailures turns into passes (an entry whose
// case passed would fail as stale, and an unlisted failure fails).

import { describePilotage } from '@pilotagekit/test/vitest';
import { FAULTS, createServer } from '../server.js';

const server = new URL('../server.js', import.meta.url).pathname;

describePilotage('chime command', { command: ['node', server] });
describePilotage('chime in-process', { server: () => createServer() });

for (const [fault, { observedBy }] of Object.entries(FAULTS)) {
  describePilotage(`chime command --fault ${fault}`, { command: ['node', server, '--fault', fault], expectedFailures: observedBy });
  describePilotage(`chime in-process ${fault}`, { server: () => createServer({ fault }), expectedFailures: observedBy });
}
