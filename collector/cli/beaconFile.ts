import { fileURLToPath } from 'node:url';

/**
 * The built beacon the CLI serves and hashes: beside the bundled CLI (dist/cli.js and
 * dist/beacon.min.js), or, when the CLI runs from its TypeScript sources (tests), in dist/.
 */
export const BEACON_FILE = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist/beacon.min.js' : './beacon.min.js', import.meta.url));
