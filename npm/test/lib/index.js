// @pilotagekit/test: check a Pilotage server with pilotage-lint's probe set
// and rules. The test-runner forms are @pilotagekit/test/vitest and
// @pilotagekit/test/node; this entry is for a harness of one's own.

export { checkServer, DEFAULT_TIMEOUT } from './check.js';
export { describeFinding, excerpt } from './describe.js';
export { plannedCases } from './cases.js';
