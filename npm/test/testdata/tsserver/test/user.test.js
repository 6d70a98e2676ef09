// What a user sees: the fixtures are test files as a user writes them,
// run here by a vitest (or node --test) of their own, and judged by exit
// status and report, as a terminal or a CI log shows them.

import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';

const dir = new URL('..', import.meta.url).pathname;

/** @param {string} fixture @param {string[]} args @param {Record<string, string>} env */
function vitest(fixture, args = [], env = {}) {
  const r = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'fixtures/vitest.config.js', ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, CHIME_FIXTURE: fixture, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...env },
  });
  return { code: r.status, out: r.stdout + r.stderr };
}

describe('vitest', () => {
  test('a fault fails its vectors\' tests, each with the whole account', () => {
    const { code, out } = vitest('store.fixture.js');
    expect(code).toBe(1);
    expect(out).toContain('FAIL  store.fixture.js > my-server > PIL-EXECUTE-STORE-UNSUPPORTED-B > execute-store-unsupported\nPilotageFailure: error call-store-unsupported: ring_chime accepted store: true');
    expect(out).toContain('FAIL  store.fixture.js > my-server > PIL-EXECUTE-TEST-RUN-UNDECLARED-B > execute-test-run-undeclared\nPilotageFailure: error call-execute-request-fault-accepted: ');
    expect(out).toMatch(/\n    spec: Part II §6\.5; Part III §7\.2: "A Server whose declared retention/);
    expect(out).toMatch(/\n    probe: execute-store-unsupported \(PIL-EXECUTE-STORE-UNSUPPORTED-B\), Language chime\/1/);
    expect(out).toMatch(/\n    request: tools\/call ring_chime /);
    expect(out).toMatch(/\n    response \(result\): /);
    expect(out).toMatch(/Tests {2}2 failed \| \d+ passed \| \d+ skipped/);
  });

  test('-t selects vectors by ID', () => {
    const { code, out } = vitest('store.fixture.js', ['-t', 'PIL-EXECUTE-STORE']);
    expect(code).toBe(1);
    expect(out).toMatch(/Tests {2}1 failed \| \d+ skipped/);
    expect(out).not.toContain('execute-test-run-undeclared\nPilotageFailure');
  });

  test('the conformant server is green', () => {
    const { code, out } = vitest('store.fixture.js', [], { FIXTURE_FAULT: 'none' });
    expect(code, out).toBe(0);
  });

  test('a stale or unknown expectedFailures entry fails', () => {
    const { code, out } = vitest('stale.fixture.js');
    expect(code).toBe(1);
    expect(out).toContain('PilotageFailure: stale expectedFailures entry "PIL-LEARN-INDEX-G": PIL-LEARN-INDEX-G/guide-index passed; remove the entry');
    expect(out).toContain('PilotageFailure: expectedFailures names "no-such-case", which no case of the check is');
  });
});

describe('node:test', () => {
  /** @param {string[]} args */
  const nodeTest = (args) => {
    const r = spawnSync(process.execPath, ['--test', ...args, 'fixtures/store.node-fixture.js'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    return { code: r.status, out: r.stdout + r.stderr };
  };

  test('a fault fails its vectors\' subtests', () => {
    const { code, out } = nodeTest([]);
    expect(code).toBe(1);
    expect(out).toMatch(/not ok \d+ - execute-store-unsupported/);
    expect(out).toContain('error: |-\n            error call-store-unsupported: ring_chime accepted store: true');
    expect(out).toMatch(/\n {16}request: tools\/call ring_chime /);
    expect(out).toContain("name: 'PilotageFailure'");
    expect(out).toMatch(/# fail 2\n/);
  });

  test('--test-name-pattern selects vectors by ID', () => {
    const { code, out } = nodeTest(['--test-name-pattern', 'PIL-EXECUTE-STORE']);
    expect(code).toBe(1);
    expect(out).toMatch(/# fail 1\n/);
  });
});
