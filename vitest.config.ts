import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: { __SITEBEACON_APP_URL__: JSON.stringify('') },
  test: {
    include: ['beacon/**/*.test.ts', 'collector/**/*.test.ts'],
    // Playwright's specs under e2e/ run with `playwright test`, not here.
    exclude: ['e2e/**', 'node_modules/**'],
    // One throw-away PostgreSQL server for the run (Debian's package): the PostgreSQL store's tests
    // make their databases on it, and it is stopped and removed after the last test, pass or fail.
    globalSetup: ['collector/testing/postgresGlobalSetup.ts'],
  },
});
