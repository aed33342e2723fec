import { createRequire } from 'node:module';

/**
 * This sitebeacon's version, from its package.json. Read through the package's own name, which
 * Node resolves from any file of the package (its `exports` lists `./package.json`): the same
 * from collector/cli/ in a checkout and from dist/ in an installed package, whatever its chunks.
 *
 * @example
 * packageVersion() // '0.1.0'
 */
export const packageVersion = () => (createRequire(import.meta.url)('sitebeacon/package.json') as { version: string }).version;
