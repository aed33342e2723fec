import { defineConfig } from '@playwright/test';

// A QA team's config: nothing of sitebeacon in it. The browser is the one the outer test names
// (Debian's Chromium here; a team's own machines use Playwright's builds).
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.QA_CHROMIUM || undefined, args: ['--no-first-run', '--disable-dev-shm-usage'] },
  },
});
