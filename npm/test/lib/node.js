// describePilotage for node:test: the same cases as subtests, so
// `node --test --test-name-pattern PIL-EXECUTE` runs the execute vectors;
// the check itself runs once, in the suite's before hook.

import { before, describe, it } from 'node:test';

import { expectations, groups, plannedCases } from './cases.js';
import { DEFAULT_TIMEOUT, checkServer, normalize } from './check.js';
import { PilotageFailure, unknownEntries, verdict } from './verdict.js';

/**
 * @param {string} name
 * @param {import('./index.js').PilotageOptions} options
 */
export function describePilotage(name, options) {
  normalize(options);
  const cases = plannedCases();
  const { byCase, unknown } = expectations(options.expectedFailures, cases);
  describe(name, () => {
    /** @type {import('./index.js').Report} */
    let report;
    before(
      async () => {
        report = await checkServer(options);
        if (report.failures.length) throw new PilotageFailure(report.failures.join('\n'));
      },
      { timeout: (options.timeout ?? DEFAULT_TIMEOUT) + 30_000 },
    );

    /** @param {string} caseName */
    const body = (caseName) => (/** @type {import('node:test').TestContext} */ t) => {
      const v = verdict(report, caseName, byCase.get(caseName));
      for (const n of v.notes) t.diagnostic(n);
      if (v.skip) return t.skip(v.skip);
      if (v.fail) throw new PilotageFailure(v.fail);
    };
    for (const g of groups(cases)) {
      if (g.vector) {
        describe(g.vector, () => {
          for (const c of g.cases) it(/** @type {string} */ (c.probe), body(c.name));
        });
      } else {
        it(g.cases[0].name, body(g.cases[0].name));
      }
    }
    if (unknown.length) {
      it('expectedFailures', () => {
        throw new PilotageFailure(unknownEntries(unknown));
      });
    }
  });
}
