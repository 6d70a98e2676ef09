// The cases a check reports, known before anything runs: vitest and
// node:test collect their tests first, so the names come from the list
// generated from the binary's probe set (vectors.json), which ships with
// this package at the binary's version.

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** The case of findings outside the probe calls (handshake, tools, manifest, resources). */
export const SURFACES = 'surfaces';

/**
 * The cases, in the order pilotagetest runs them: surfaces, then each
 * probe, named "VECTOR/probe" when an official vector covers it.
 * @returns {import('./index.js').PlannedCase[]}
 */
export function plannedCases() {
  const { cases } = require('../vectors.json');
  return [
    { name: SURFACES, spec: '', quote: '' },
    ...cases.map((c) => ({ ...c, name: c.vector ? `${c.vector}/${c.probe}` : c.probe })),
  ];
}

/**
 * groups arranges the cases as the tests are nested: a vector holds the
 * probes it covers, in the order of its first probe; a probe no vector
 * covers, and surfaces, stand alone.
 * @param {import('./index.js').PlannedCase[]} cases
 * @returns {{vector?: string, cases: import('./index.js').PlannedCase[]}[]}
 */
export function groups(cases) {
  /** @type {{vector?: string, cases: import('./index.js').PlannedCase[]}[]} */
  const out = [];
  /** @type {Map<string, {vector?: string, cases: import('./index.js').PlannedCase[]}>} */
  const byVector = new Map();
  for (const c of cases) {
    if (!c.vector) {
      out.push({ cases: [c] });
      continue;
    }
    let g = byVector.get(c.vector);
    if (!g) {
      g = { vector: c.vector, cases: [] };
      byVector.set(c.vector, g);
      out.push(g);
    }
    g.cases.push(c);
  }
  return out;
}

/**
 * expectations reads the expectedFailures option: each entry names a
 * case ("VECTOR/probe", a probe, or surfaces) or a vector (all its
 * probes). It returns the entry that covers each case, and the entries
 * that name nothing, which are stale.
 * @param {string[] | undefined} entries
 * @param {import('./index.js').PlannedCase[]} cases
 */
export function expectations(entries = [], cases) {
  /** @type {Map<string, string>} */
  const byCase = new Map();
  const unknown = [];
  for (const entry of entries) {
    const matched = cases.filter((c) => c.name === entry || c.probe === entry || c.vector === entry);
    if (matched.length === 0) unknown.push(entry);
    for (const c of matched) byCase.set(c.name, entry);
  }
  return { byCase, unknown };
}
