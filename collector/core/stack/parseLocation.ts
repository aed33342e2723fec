/** Where a frame's code is: a URL (or none, for native code) and a position in it, 1-based as engines print it. */
export interface FrameLocation {
  file: string | null;
  line: number | null;
  column: number | null;
}

const NOWHERE: FrameLocation = { file: null, line: null, column: null };

/** A positive integer written in ASCII digits only, else `null` (no `Number('')`, no `1e3`). */
const positiveInteger = (text: string): number | null => {
  if (text.length == 0 || text.length > 9) return null;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 48 || code > 57) return null;
  }
  const value = Number(text);
  return value > 0 ? value : null;
};

/**
 * `url:line:column` or `url:line`, read from the end with `lastIndexOf` (a URL has colons of its
 * own: `https://host:8443/a.js:1:2`, `blob:https://host/uuid:2:9`). Engines' placeholders for code
 * with no URL (`<anonymous>`, `native`, `[native code]`, `index 0`) and empty text give no file.
 *
 * @example
 * parseLocation('https://shop.example/app.js:1:74'); // { file: 'https://shop.example/app.js', line: 1, column: 74 }
 * parseLocation('[native code]'); // { file: null, line: null, column: null }
 */
export const parseLocation = (text: string): FrameLocation => {
  const last = text.lastIndexOf(':');
  if (last <= 0) return NOWHERE;
  const lastNumber = positiveInteger(text.slice(last + 1));
  if (lastNumber === null) return NOWHERE;
  const before = text.lastIndexOf(':', last - 1);
  const middleNumber = before > 0 ? positiveInteger(text.slice(before + 1, last)) : null;
  const file = middleNumber === null ? text.slice(0, last) : text.slice(0, before);
  // `<anonymous>:2:9` (V8's code run by eval or new Function) names no file either.
  if (file.length == 0 || file.startsWith('<')) return NOWHERE;
  return middleNumber === null ? { file, line: lastNumber, column: null } : { file, line: middleNumber, column: lastNumber };
};

/**
 * SpiderMonkey's location of code run by `eval` or `new Function`: `url line 40 > eval:2:9`
 * (nested: `url line 2 > eval line 1 > eval:1:3`). The file is the script that called eval, the
 * line that call's line; SpiderMonkey gives no column for it. Else `undefined`.
 *
 * @example
 * parseGeckoEvalLocation('https://shop.example/a.js line 40 > eval:2:9'); // { file: 'https://shop.example/a.js', line: 40, column: null }
 */
export const parseGeckoEvalLocation = (text: string): FrameLocation | undefined => {
  const marker = text.indexOf(' line ');
  if (marker <= 0 || text.indexOf(' > ', marker) < 0) return undefined;
  const digitsEnd = text.indexOf(' ', marker + 6);
  const line = positiveInteger(text.slice(marker + 6, digitsEnd < 0 ? undefined : digitsEnd));
  return line === null ? undefined : { file: text.slice(0, marker), line, column: null };
};
