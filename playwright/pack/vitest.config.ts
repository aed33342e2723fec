import { defineConfig } from 'vitest/config';

// `npm run test:pack`: the packed package in a fresh project, installed once for both test files
// (installPacked.ts): a QA team's specs (pack.test.ts) and an SPA built by two bundlers (spa.test.ts).
// Apart from the unit tests: it installs from the registry and runs a browser, a minute or more.
export default defineConfig({
  test: {
    include: ['playwright/pack/*.test.ts'],
    globalSetup: ['playwright/pack/installPacked.ts'],
    testTimeout: 180_000,
  },
});
