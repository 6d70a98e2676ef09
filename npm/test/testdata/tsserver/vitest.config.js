import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.js'],
    // A check starts pilotage-lint (and, in the command form, the server);
    // on a loaded CI machine that takes seconds, not milliseconds.
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
