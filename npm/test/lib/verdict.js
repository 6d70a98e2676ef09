// What one case's test does with the report: pass, fail, or skip, and the
// expectedFailures entry that turns a failure into a pass and a pass into
// a failure (a stale entry), as the official MCP conformance suite's
// expected-failures list does. Shared by the vitest and node:test forms.

/** The error a failed case throws; its message is the whole account. */
export class PilotageFailure extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'PilotageFailure';
    // The account names the spec, the exchange and the snapshot line; the
    // helper's own frames would only bury it.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * @param {import('./index.js').Report} report
 * @param {string} name the case's name
 * @param {string | undefined} entry the expectedFailures entry covering it
 * @returns {{skip?: string, fail?: string, notes: string[]}}
 */
export function verdict(report, name, entry) {
  const c = report.cases.find((x) => x.name === name);
  if (!c) return { fail: `the check has no case ${name}; the binary and @pilotagekit/test come from different releases`, notes: [] };
  if (c.skipped) {
    if (entry) return { fail: `stale expectedFailures entry ${JSON.stringify(entry)}: ${name} did not run (${c.skipped}); remove the entry`, notes: [] };
    return { skip: c.skipped, notes: [] };
  }
  if (entry) {
    if (c.failures.length) return { notes: [`expected failure (expectedFailures entry ${JSON.stringify(entry)}):`, ...c.failures, ...c.logs] };
    return { fail: `stale expectedFailures entry ${JSON.stringify(entry)}: ${name} passed; remove the entry`, notes: c.logs };
  }
  if (c.failures.length) {
    const below = c.logs.length ? ['', 'and below failOn:', ...c.logs] : [];
    return { fail: [...c.failures, ...below].join('\n\n'), notes: [] };
  }
  return { notes: c.logs };
}

/**
 * unknownEntries is the failure of expectedFailures entries that name no
 * case at all.
 * @param {string[]} unknown
 */
export function unknownEntries(unknown) {
  return `expectedFailures names ${unknown.map((e) => JSON.stringify(e)).join(', ')}, which no case of the check is (a vector ID, "VECTOR/probe", a probe name or "surfaces"); fix or remove the entries`;
}
