import { fileURLToPath } from 'node:url';

/** Where this module is: its TypeScript source (tests), a chunk of the build (dist/chunks/), or dist/ itself. */
const besideBeacon = import.meta.url.endsWith('.ts') ? '../../dist/' : import.meta.url.includes('/chunks/') ? '../' : './';

/**
 * The built beacon the CLI serves and hashes, dist/beacon.min.js: beside the bundled CLI, one
 * folder up from a chunk of it (rollup.config.mjs names chunks `chunks/[name]-[hash].js`; the
 * CLI and serve's thread share theirs), or, when the CLI runs from its TypeScript sources (tests), in dist/.
 */
export const BEACON_FILE = fileURLToPath(new URL(`${besideBeacon}beacon.min.js`, import.meta.url));
