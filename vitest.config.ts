import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __SITEBEACON_APP_URL__: JSON.stringify(''), __SITEBEACON_FIXTURE__: 'false' },
  test: {
    include: ['beacon/**/*.test.ts', 'collector/**/*.test.ts', 'dashboard/**/*.test.ts', 'playwright/**/*.test.ts'],
    // Playwright's specs under e2e/ run with `playwright test`, not here; the pack test with `npm run test:pack`.
    exclude: ['e2e/**', 'node_modules/**', 'playwright/pack/**'],
    // A guard against hangs, not a speed check: property tests and spawned processes take longer on
    // a loaded 2-core machine than vitest's 5 s default. Speed is measured by `npm run bench`.
    testTimeout: 30_000,
    // One throw-away PostgreSQL server for the run (Debian's package): the PostgreSQL store's tests
    // make their databases on it, and it is stopped and removed after the last test, pass or fail.
    globalSetup: ['collector/testing/postgresGlobalSetup.ts'],
  },
});
