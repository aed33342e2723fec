import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// `npm run test:browsers`: the cross-browser suite, kept out of `npm run test:unit`'s glob.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../..', import.meta.url)),
    include: ['e2e/browsers/*.test.ts'],
    globalSetup: ['e2e/browsers/globalSetup.ts'],
    // One browser at a time: three at once on a 2-core machine would measure the machine, not the browsers.
    fileParallelism: false,
    testTimeout: 90_000,
    hookTimeout: 180_000,
  },
});
