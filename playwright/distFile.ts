import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * A file of the build, wherever this module runs from: beside it in the published package
 * (`dist/playwright.js` next to `dist/beacon.min.js`), or in `dist/` when the project's own tests
 * import `playwright/*.ts` from source (after `npm run build`).
 *
 * @example
 * distFile('beacon.min.js') // '/…/node_modules/sitebeacon/dist/beacon.min.js'
 */
export const distFile = (name: string): string => {
  const candidates = [new URL(`./${name}`, import.meta.url), new URL(`../dist/${name}`, import.meta.url)].map((url) => fileURLToPath(url));
  const found = candidates.find((path) => existsSync(path));
  if (!found) throw new Error(`sitebeacon/playwright: ${name} is missing (looked in ${candidates.join(', ')}); run \`npm run build\``);
  return found;
};
