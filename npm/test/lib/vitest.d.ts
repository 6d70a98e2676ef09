import type { PilotageOptions } from './index.js';

/**
 * A vitest suite named `name` that checks the server once and holds one test per probe, nested under
 * the official vector covering it (`vitest -t PIL-EXECUTE` selects the execute vectors).
 */
export function describePilotage(name: string, options: PilotageOptions): void;
export type { PilotageOptions } from './index.js';
