import { defineConfig } from 'vitest/config';

// `npm run test:pack`: the packed package in a fresh project (pack.test.ts). Apart from the unit
// tests: it installs from the registry and runs a browser, a minute or more.
export default defineConfig({
  test: {
    include: ['playwright/pack/*.test.ts'],
    testTimeout: 180_000,
  },
});
