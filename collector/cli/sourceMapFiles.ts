import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { scriptComments } from '../core/stack/scriptComments';

/** A map found under the upload's directory, with the URL of the script that names it (or null: no script does). */
export interface FoundMap {
  /** The map's path under the directory, with `/`. */
  map: string;
  /** Its full path. */
  file: string;
  /** The script's path under the directory, with `/`, or null. */
  script: string | null;
}

const SCRIPT = /\.(?:m|c)?js$/;
/** Only a script's tail is read (scriptComments reads its last 4 Ki characters). */
const TAIL_BYTES = 16 * 1024;

const tailOf = (file: string) => {
  const text = readFileSync(file);
  return text.subarray(Math.max(0, text.length - TAIL_BYTES)).toString('utf8');
};

const posix = (path: string) => path.split(sep).join('/');

/**
 * Every `*.map` under `dir`, paired with the script (`.js`, `.mjs`, `.cjs`) under `dir` whose
 * `//# sourceMappingURL=` names it, resolved from the script's own directory (docs/source-maps.md,
 * "The CLI"); `data:` and absolute URLs name no file here. Sorted by the map's path.
 *
 * @example
 * findSourceMaps('dist'); // [{ map: 'assets/app.min.js.map', file: '/…/dist/assets/app.min.js.map', script: 'assets/app.min.js' }]
 */
export const findSourceMaps = (dir: string): FoundMap[] => {
  const root = resolve(dir);
  if (!statSync(root).isDirectory()) throw new Error(`${dir} is not a directory`);
  const files = (readdirSync(root, { recursive: true, withFileTypes: true }) as Array<{ name: string; parentPath: string; isFile(): boolean }>)
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
  const scriptOfMap = new Map<string, string>();
  for (const file of files.filter((name) => SCRIPT.test(name)).sort()) {
    const url = scriptComments(tailOf(file)).sourceMappingUrl;
    if (!url || /^[a-z][a-z0-9+.-]*:/i.test(url) || url.startsWith('/')) continue;
    let named: string;
    try {
      named = resolve(dirname(file), decodeURIComponent(url.split(/[?#]/)[0]!));
    } catch {
      continue;
    }
    if (!scriptOfMap.has(named)) scriptOfMap.set(named, file);
  }
  return files
    .filter((file) => file.endsWith('.map'))
    .sort()
    .map((file) => {
      const script = scriptOfMap.get(file);
      return { map: posix(relative(root, file)), file, script: script === undefined ? null : posix(relative(root, script)) };
    });
};
