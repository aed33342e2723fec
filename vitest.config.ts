import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __SITEBEACON_APP_URL__: JSON.stringify('') },
  test: {
    include: ['beacon/**/*.test.ts', 'collector/**/*.test.ts'],
    // Playwright's specs under e2e/ run with `playwright test`, not here.
    exclude: ['e2e/**', 'node_modules/**'],
    // A guard against hangs, not a speed check: property tests and spawned processes take longer on
    // a loaded 2-core machine than vitest's 5 s default. Speed is measured by `npm run bench`.
    testTimeout: 30_000,
  },
});
