// describePilotage for vitest: one test per probe, nested under the
// official vector that covers it, so `vitest -t PIL-EXECUTE` runs the
// execute vectors; the check itself runs once, in the suite's beforeAll.

import { beforeAll, describe, test } from 'vitest';

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
    beforeAll(async () => {
      report = await checkServer(options);
      if (report.failures.length) throw new PilotageFailure(report.failures.join('\n'));
    }, (options.timeout ?? DEFAULT_TIMEOUT) + 30_000);

    /** @param {string} caseName */
    const body = (caseName) => async (/** @type {import('vitest').TestContext} */ ctx) => {
      const v = verdict(report, caseName, byCase.get(caseName));
      // annotate came with vitest 3.2; the notes are extras, the verdict is not.
      if (typeof ctx.annotate === 'function') for (const n of v.notes) await ctx.annotate(n, 'notice');
      if (v.skip) ctx.skip(v.skip);
      if (v.fail) throw new PilotageFailure(v.fail);
    };
    for (const g of groups(cases)) {
      if (g.vector) {
        describe(g.vector, () => {
          for (const c of g.cases) test(/** @type {string} */ (c.probe), body(c.name));
        });
      } else {
        test(g.cases[0].name, body(g.cases[0].name));
      }
    }
    if (unknown.length) {
      test('expectedFailures', () => {
        throw new PilotageFailure(unknownEntries(unknown));
      });
    }
  });
}
