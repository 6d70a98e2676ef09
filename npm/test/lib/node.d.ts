import type { PilotageOptions } from './index.js';

/**
 * A node:test suite named `name` that checks the server once and holds one subtest per probe, nested
 * under the official vector covering it (`node --test --test-name-pattern PIL-EXECUTE`).
 */
export function describePilotage(name: string, options: PilotageOptions): void;
export type { PilotageOptions } from './index.js';
