import { parseGeckoEvalLocation, parseLocation, type FrameLocation } from './parseLocation';

/**
 * One line of a stack as the engine wrote it, and what it says: the function, the script's URL and
 * the position in it (1-based, as engines print them). Any of those is `null` when the line does not
 * say it: native code, code run by eval in JavaScriptCore, an anonymous function.
 */
export interface StackFrame {
  raw: string;
  file: string | null;
  line: number | null;
  column: number | null;
  function: string | null;
}

/** Past this many frames the rest of a stack is dropped: the outermost calls, rarely the bug. */
export const MAX_FRAMES = 100;
/** A line longer than this is kept cut, as a frame that says nothing (a huge `data:` URL, hostile text). */
export const MAX_LINE_LENGTH = 2048;
/** What is read of a stack at all; the ingest already bounds a report's body (docs/hostile-input.md). */
export const MAX_STACK_CHARS = 64 * 1024;
/** Lines looked at, frames or not (messages, blank lines): the work stays bounded whatever the text. */
export const MAX_LINES_READ = 1000;

/** JavaScriptCore's names for code that is no function (`global code@…`, `eval code@`, `module code@…`). */
const NOT_FUNCTIONS = new Set(['global code', 'eval code', 'module code']);

type Parsed = Omit<StackFrame, 'raw'>;
const withNoPlace = (fn: string | null): Parsed => ({ function: fn || null, file: null, line: null, column: null });
const located = (fn: string | null, location: FrameLocation): Parsed => ({ function: fn || null, ...location });

/**
 * V8's frame (the line after `at `): `fn (location)`, `location`, `async fn (location)`, `new Foo
 * (location)`, `Array.map (<anonymous>)`, `Promise.all (index 0)`, and code run by eval:
 * `evaled (eval at caller (url:40:3), <anonymous>:2:9)`, whose file and position are the eval call's.
 * The location is the last parenthesised group, found by one backward scan (no backtracking regex).
 */
const parseV8 = (text: string): Parsed => {
  const rest = text.startsWith('async ') ? text.slice(6) : text;
  if (!rest.endsWith(')')) {
    const location = parseLocation(rest);
    return location.file === null ? withNoPlace(rest.startsWith('<') ? null : rest) : located(null, location);
  }
  let depth = 0;
  let open = -1;
  for (let index = rest.length - 1; index >= 0 && open < 0; index--) {
    const char = rest[index];
    if (char == ')') depth++;
    else if (char == '(' && --depth == 0) open = index;
  }
  if (open < 0) return withNoPlace(rest);
  const fn = rest.slice(0, open).trim();
  const inside = rest.slice(open + 1, -1);
  if (!inside.startsWith('eval at ')) return located(fn, parseLocation(inside));
  // Nested evals (`eval at f (eval at g (url:1:2), <anonymous>:3:4), …`): the innermost group is the script's.
  const innermost = inside.lastIndexOf('(');
  const close = inside.indexOf(')', innermost);
  if (innermost < 0 || close < 0) return withNoPlace(fn);
  return located(fn, parseLocation(inside.slice(innermost + 1, close)));
};

/**
 * SpiderMonkey's and JavaScriptCore's frame, `fn@location`: `@url:1:2` (anonymous), `async*fn@…`
 * (SpiderMonkey's async caller), `url line 40 > eval:2:9` (SpiderMonkey's eval), `fn@[native code]`
 * and `evaled@` (JavaScriptCore: native code, eval code). `undefined` for a line that is no frame.
 */
const parseAtSign = (text: string): Parsed | undefined => {
  const at = text.indexOf('@');
  if (at < 0) return undefined;
  let fn = text.slice(0, at);
  if (fn.startsWith('async*')) fn = fn.slice(6);
  if (NOT_FUNCTIONS.has(fn)) fn = '';
  const where = text.slice(at + 1);
  if (where == '' || where == '[native code]') return withNoPlace(fn);
  const location = parseGeckoEvalLocation(where) ?? parseLocation(where);
  return location.file === null ? undefined : located(fn, location);
};

/** The lines of `stack`, at most MAX_LINES_READ, trimmed, blank ones left out; one pass of indexOf. */
const linesOf = (stack: string): string[] => {
  const text = stack.length > MAX_STACK_CHARS ? stack.slice(0, MAX_STACK_CHARS) : stack;
  const lines: string[] = [];
  for (let start = 0; start < text.length && lines.length < MAX_LINES_READ; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end).trim();
    if (line) lines.push(line);
    start = end < 0 ? text.length : end + 1;
  }
  return lines;
};

const cut = (line: string) => (line.length > MAX_LINE_LENGTH ? line.slice(0, MAX_LINE_LENGTH) : line);

/**
 * The frames of an `error.stack` from V8 (Chromium, Node), SpiderMonkey (Firefox) or JavaScriptCore
 * (Safari, WebKitGTK), innermost first and outermost call last, as the stack reads; lines that are
 * no frame (V8's message line, blank lines) are left out. A stack with any V8 line (`at …`) is read
 * as V8's, so that a message holding an `@` is not taken for a frame. Bounded: at most MAX_FRAMES
 * frames from the first MAX_LINES_READ lines, lines cut at MAX_LINE_LENGTH, linear in the text
 * (docs/source-maps.md, "Parsing stacks").
 *
 * @example
 * parseStack('TypeError: x\n    at checkout (https://shop.example/app.js:1:74)');
 * // [{ raw: 'at checkout (https://shop.example/app.js:1:74)', file: 'https://shop.example/app.js', line: 1, column: 74, function: 'checkout' }]
 * parseStack('checkout@https://shop.example/app.js:1:87\nforEach@[native code]');
 * // [{ …, function: 'checkout', line: 1, column: 87 }, { raw: 'forEach@[native code]', file: null, line: null, column: null, function: 'forEach' }]
 */
export const parseStack = (stack: string): StackFrame[] => {
  if (typeof stack != 'string') return [];
  const lines = linesOf(stack);
  const isV8 = lines.some((line) => line.startsWith('at '));
  const frames: StackFrame[] = [];
  for (const line of lines) {
    if (frames.length >= MAX_FRAMES) break;
    if (isV8 && !line.startsWith('at ')) continue;
    const raw = cut(line);
    if (line.length > MAX_LINE_LENGTH) {
      if (isV8 || line.includes('@')) frames.push({ raw, ...withNoPlace(null) });
      continue;
    }
    const parsed = isV8 ? parseV8(line.slice(3).trim()) : parseAtSign(line);
    if (parsed) frames.push({ raw, ...parsed });
  }
  return frames;
};
