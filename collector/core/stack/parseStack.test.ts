import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { MAX_FRAMES, MAX_LINE_LENGTH, MAX_LINES_READ, MAX_STACK_CHARS, parseStack, type StackFrame } from './parseStack';

// Real stacks, captured from the three engines by e2e/browsers/captureStacks.mjs running
// collector/fixtures/stacks/page/stacks.js (the line numbers below are that file's).
interface Capture {
  origin: string;
  stacks: Record<string, string>;
}
const capture = (browser: 'chromium' | 'firefox' | 'webkit') =>
  JSON.parse(readFileSync(new URL(`../../fixtures/stacks/${browser}.json`, import.meta.url), 'utf8')) as Capture;
const chromium = capture('chromium');
const firefox = capture('firefox');
const webkit = capture('webkit');

/** [function, file relative to the page's origin, line, column] of each frame, for short expectations. */
const brief = (frames: StackFrame[], origin: string) =>
  frames.map((frame) => [frame.function, frame.file?.startsWith(origin) ? frame.file.slice(origin.length) : frame.file, frame.line, frame.column]);
const parsed = (from: Capture, key: string) => brief(parseStack(from.stacks[key]!), from.origin);

describe('parseStack on V8 (Chromium 156)', () => {
  test('named functions, innermost first, without the message line', () => {
    expect(parsed(chromium, 'named').slice(0, 2)).toEqual([
      ['namedThrower', '/stacks.js', 4, 9],
      ['callNamed', '/stacks.js', 7, 3],
    ]);
    expect(parseStack(chromium.stacks.named!)[0]!.raw).toBe(`at namedThrower (${chromium.origin}/stacks.js:4:9)`);
  });
  test('an anonymous function has no name; native frames have no file', () => {
    expect(parsed(chromium, 'anonymous').slice(0, 3)).toEqual([
      [null, '/stacks.js', 12, 11],
      ['Array.map', null, null, null],
      ['anonymous', '/stacks.js', 11, 14],
    ]);
  });
  test('async frames, Promise.all, constructors and methods', () => {
    expect(parsed(chromium, 'async').slice(0, 2)).toEqual([
      ['asyncInner', '/stacks.js', 30, 9],
      ['asyncOuter', '/stacks.js', 33, 3],
    ]);
    expect(parsed(chromium, 'asyncAll')[1]).toEqual(['Promise.all', null, null, null]);
    expect(parsed(chromium, 'constructor')[0]).toEqual(['new Cart', '/stacks.js', 24, 11]);
    expect(parsed(chromium, 'method')[0]).toEqual(['Object.method', '/stacks.js', 18, 11]);
  });
  test('code run by eval and new Function is placed at the eval call', () => {
    expect(parsed(chromium, 'eval').slice(0, 3)).toEqual([
      ['evaled', '/stacks.js', 40, 3],
      ['eval', '/stacks.js', 40, 3],
      ['evalCaller', '/stacks.js', 40, 3],
    ]);
    expect(parsed(chromium, 'function')[0]).toEqual(['eval', '/stacks.js', 44, 3]);
  });
  test('blob: and data: URLs keep their colons', () => {
    expect(parseStack(chromium.stacks.blob!)[0]!.file).toMatch(/^blob:http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]{36}$/);
    expect(parseStack(chromium.stacks.data!)[0]).toMatchObject({ function: 'dataThrower', line: 1, column: 53 });
    expect(parseStack(chromium.stacks.data!)[0]!.file).toMatch(/^data:text\/javascript,window\.dataThrower/);
  });
  test('the minified bundle', () => {
    expect(parsed(chromium, 'bundle').slice(0, 2)).toEqual([
      ['t', '/app.min.js', 1, 74],
      ['r.checkout', '/app.min.js', 1, 234],
    ]);
  });
  test('nested evals, a bare location, `at <anonymous>`', () => {
    const stack = 'Error: x\n    at f (eval at g (eval at h (https://a.example/x.js:9:8), <anonymous>:3:4), <anonymous>:5:6)\n    at https://a.example/y.js:1:2\n    at <anonymous>';
    expect(brief(parseStack(stack), '')).toEqual([
      ['f', 'https://a.example/x.js', 9, 8],
      [null, 'https://a.example/y.js', 1, 2],
      [null, null, null, null],
    ]);
  });
});

describe('parseStack on SpiderMonkey (Firefox ESR 153)', () => {
  test('named, anonymous (`/<`) and async (`async*`) frames', () => {
    expect(parsed(firefox, 'named').slice(0, 2)).toEqual([
      ['namedThrower', '/stacks.js', 4, 9],
      ['callNamed', '/stacks.js', 7, 3],
    ]);
    expect(parsed(firefox, 'anonymous')[0]).toEqual(['anonymous/<', '/stacks.js', 12, 11]);
    expect(parsed(firefox, 'async')[1]).toEqual(['asyncOuter', '/stacks.js', 33, 9]);
    expect(parsed(firefox, 'constructor')[0]).toEqual(['Cart', '/stacks.js', 24, 11]);
  });
  test('eval and Function frames are placed at the eval call line, with no column', () => {
    expect(parsed(firefox, 'eval').slice(0, 3)).toEqual([
      ['evaled', '/stacks.js', 40, null],
      [null, '/stacks.js', 40, null],
      ['evalCaller', '/stacks.js', 40, 3],
    ]);
    expect(parsed(firefox, 'function')[0]).toEqual(['anonymous', '/stacks.js', 44, null]);
  });
  test('blob: URLs and the bundle', () => {
    expect(parseStack(firefox.stacks.blob!)[0]!.file).toMatch(/^blob:http:\/\/127\.0\.0\.1:\d+\/[0-9a-f-]{36}$/);
    expect(parsed(firefox, 'bundle').slice(0, 2)).toEqual([
      ['t', '/app.min.js', 1, 74],
      ['r.checkout', '/app.min.js', 1, 234],
    ]);
  });
});

describe('parseStack on JavaScriptCore (WebKitGTK 2.50)', () => {
  test('named, anonymous and native frames', () => {
    expect(parsed(webkit, 'named').slice(0, 3)).toEqual([
      ['namedThrower', '/stacks.js', 4, 18],
      ['callNamed', '/stacks.js', 7, 15],
      [null, '/stacks.js', 65, 14],
    ]);
    expect(parsed(webkit, 'native').slice(0, 2)).toEqual([
      ['inForEach', '/stacks.js', 49, 20],
      ['forEach', null, null, null],
    ]);
  });
  test('eval code has no file; `eval code` and `global code` are no function', () => {
    expect(parsed(webkit, 'eval').slice(0, 4)).toEqual([
      ['evaled', null, null, null],
      [null, null, null, null],
      ['eval', null, null, null],
      ['evalCaller', '/stacks.js', 40, 7],
    ]);
    expect(brief(parseStack('global code@https://a.example/x.js:3:1'), '')).toEqual([[null, 'https://a.example/x.js', 3, 1]]);
  });
  test('the bundle: its checkout frame is gone (a proper tail call in strict code)', () => {
    expect(parsed(webkit, 'bundle').slice(0, 2)).toEqual([
      ['t', '/app.min.js', 1, 87],
      [null, '/stacks.js', 89, 56],
    ]);
  });
});

describe('parseStack on hostile text', () => {
  test('a message with an @ in a V8 stack is no frame; text with no frame gives none', () => {
    expect(parseStack('Error: mail a@b.example:1:2 refused\n    at f (https://a.example/x.js:1:2)')).toHaveLength(1);
    expect(parseStack('just a message')).toEqual([]);
    expect(parseStack('')).toEqual([]);
    expect(parseStack(42 as unknown as string)).toEqual([]);
  });
  test(`at most ${MAX_FRAMES} frames; a line over ${MAX_LINE_LENGTH} characters is cut and says nothing`, () => {
    expect(parseStack('f@https://a.example/x.js:1:2\n'.repeat(500))).toHaveLength(MAX_FRAMES);
    const [long] = parseStack(`at f (https://a.example/${'a'.repeat(5000)}.js:1:2)`);
    expect(long).toEqual({ raw: `at f (https://a.example/${'a'.repeat(MAX_LINE_LENGTH - 24)}`, file: null, line: null, column: null, function: null });
  });
  // The work is capped by what is read, not measured (speed is `npm run bench`'s): no line over
  // MAX_LINE_LENGTH is parsed, at most MAX_LINES_READ lines and MAX_STACK_CHARS characters are read
  // (text past them changes nothing), and what comes out is bounded. Locations are found by
  // indexOf and one backward scan (no regular expression), so each line's parse is linear in it.
  const odd = ['at ((((((((((((((((((((', '@:::::::::::::::::::', 'at eval at (((( ,,,, ::::', ' line  > eval:1:', 'x@y line 1 > ', '\t\r'];
  const shapes = [
    ...odd.map((line) => `${line}\n`.repeat(Math.ceil((MAX_STACK_CHARS + 1000) / (line.length + 1)))),
    '('.repeat(16_384),
    `at ${'('.repeat(16_000)}${')'.repeat(300)}`,
    `${'@'.repeat(16_384)}:1:2`,
  ];
  const FRAME = '\nf@https://a.example/late.js:1:2';
  test.each(shapes.map((stack) => [stack.slice(0, 24), stack]))('odd text (%j…): bounded output, nothing read past the bounds', (_, stack) => {
    const frames = parseStack(stack);
    expect(frames.length).toBeLessThanOrEqual(MAX_FRAMES);
    for (const frame of frames) expect(frame.raw.length).toBeLessThanOrEqual(MAX_LINE_LENGTH);
    // A line over the bound is not parsed: it says nothing.
    for (const frame of frames) if (frame.raw.length == MAX_LINE_LENGTH) expect(frame).toMatchObject({ file: null, line: null, column: null, function: null });
    // A frame after MAX_STACK_CHARS characters, or after MAX_LINES_READ lines, is never seen.
    const padded = stack.length >= MAX_STACK_CHARS ? stack : stack + ' '.repeat(MAX_STACK_CHARS - stack.length);
    expect(parseStack(padded + FRAME)).toEqual(parseStack(padded.slice(0, MAX_STACK_CHARS)));
  });
  test(`lines past the first ${MAX_LINES_READ} are not read, whatever they hold`, () => {
    const messages = 'message\n'.repeat(MAX_LINES_READ);
    expect(parseStack(messages + FRAME.slice(1))).toEqual([]);
    expect(parseStack('message\n'.repeat(MAX_LINES_READ - 1) + FRAME.slice(1))).toHaveLength(1);
  });
});
