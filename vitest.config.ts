import { pathToFileURL } from 'node:url';
import { defineConfig } from 'vitest/config';
import { MAP_THREAD_BUNDLE, SQLITE_WRITER_BUNDLE } from './collector/testing/buildSqliteWriter';

export default defineConfig({
  define: {
    __SITEBEACON_APP_URL__: JSON.stringify(''),
    __SITEBEACON_FIXTURE__: 'false',
    // The SQLite writer thread, bundled from the sources by the globalSetup (collector/store/sqlite/reportQueue.ts).
    __SITEBEACON_SQLITE_WRITER_URL__: JSON.stringify(pathToFileURL(SQLITE_WRITER_BUNDLE).href),
    // The source map thread, bundled by the same globalSetup (collector/sourcemaps/mapWorker.ts).
    __SITEBEACON_MAP_THREAD_URL__: JSON.stringify(pathToFileURL(MAP_THREAD_BUNDLE).href),
  },
  test: {
    include: ['beacon/**/*.test.ts', 'collector/**/*.test.ts', 'dashboard/**/*.test.ts', 'playwright/**/*.test.ts'],
    // Playwright's specs under e2e/ run with `playwright test`, not here; the pack test with `npm run test:pack`.
    exclude: ['e2e/**', 'node_modules/**', 'playwright/pack/**'],
    // A guard against hangs, not a speed check: property tests and spawned processes take longer on
    // a loaded 2-core machine than vitest's 5 s default. Speed is measured by `npm run bench`.
    testTimeout: 30_000,
    // The SQLite writer thread's bundle, built from the sources; and one throw-away PostgreSQL
    // server for the run (Debian's package): the PostgreSQL store's tests make their databases on it,
    // and it is stopped and removed after the last test, pass or fail.
    globalSetup: ['collector/testing/buildSqliteWriter.ts', 'collector/testing/postgresGlobalSetup.ts'],
  },
});
