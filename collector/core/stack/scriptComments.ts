/** What a bundle's trailing comments say of its source map. */
export interface ScriptComments {
  /** `//# sourceMappingURL=` (or the older `//@`): the map's URL, relative to the script's. */
  sourceMappingUrl: string | null;
  /** `//# debugId=`: the build's ID, which its map repeats as `debugId`, lower-cased. */
  debugId: string | null;
}

/** Only the end of a script is read: bundlers write these comments last. */
const TAIL_CHARS = 4096;
const MAX_URL = 2048;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The value of the last `//# name=` (or `//@ name=`) comment in `tail`, up to the line's end, or null. */
const lastComment = (tail: string, name: string) => {
  const at = Math.max(tail.lastIndexOf(`//# ${name}=`), tail.lastIndexOf(`//@ ${name}=`));
  if (at < 0) return null;
  const start = at + name.length + 5;
  const end = tail.indexOf('\n', start);
  const value = tail.slice(start, end < 0 ? tail.length : end).trim();
  return value.length > 0 && value.length <= MAX_URL && !/\s/.test(value) ? value : null;
};

/**
 * The source map's URL and the debug ID a minified script names in its last lines, as rollup
 * (`output.sourcemap`, `output.sourcemapDebugIds`), esbuild and webpack write them: what an upload
 * pairs a script and its map by (docs/source-maps.md, "Mapping a frame"). `null` for what it does
 * not name, or names malformed (a debug ID that is no UUID).
 *
 * @example
 * scriptComments('var a=1;\n//# debugId=0ae942fd-a409-4fc6-a82c-91eb9fcbbf72\n//# sourceMappingURL=app.min.js.map\n');
 * // { sourceMappingUrl: 'app.min.js.map', debugId: '0ae942fd-a409-4fc6-a82c-91eb9fcbbf72' }
 */
export const scriptComments = (code: string): ScriptComments => {
  const tail = code.length > TAIL_CHARS ? code.slice(-TAIL_CHARS) : code;
  const debugId = lastComment(tail, 'debugId')?.toLowerCase() ?? null;
  return { sourceMappingUrl: lastComment(tail, 'sourceMappingURL'), debugId: debugId !== null && UUID.test(debugId) ? debugId : null };
};
