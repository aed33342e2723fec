import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { buildStackApp, STACK_APP_BUNDLE } from '../../testing/buildStackApp';
import { parseSourceMap, type ParsedSourceMap } from './parseSourceMap';
import { parseStack } from './parseStack';
import { symbolicate, type MapLookup } from './symbolicate';

// The shop bundle the browsers ran (e2e/browsers/captureStacks.mjs) and their stacks of its error.
const bundleMap = parseSourceMap(readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8')) as ParsedSourceMap;
const stackOf = (browser: string) =>
  (JSON.parse(readFileSync(new URL(`../../fixtures/stacks/${browser}.json`, import.meta.url), 'utf8')) as { stacks: Record<string, string> }).stacks.bundle!;
const onlyTheBundle: MapLookup = (file) => (file.endsWith('/app.min.js') ? bundleMap : 'no_map');

const THROW_LINE = "    throw new TypeError('checkout total has no currency');";

describe('symbolicate on the real bundle', () => {
  test.each(['chromium', 'firefox'])('%s: the minified `t` is formatTotal at src/format.js:3, called from src/cart.js:5', (browser) => {
    const [thrower, checkout, page] = symbolicate(parseStack(stackOf(browser)), onlyTheBundle);
    expect(thrower).toMatchObject({ function: 't', unmapped: null, in_app: true });
    expect(thrower!.original).toEqual({
      file: 'src/format.js',
      line: 3,
      column: 11,
      function: 'formatTotal',
      context: {
        pre: ['export function formatTotal(total, currency) {', '  if (currency === undefined) {'],
        line: THROW_LINE,
        post: ['  }', '  const rounded = Math.round(total * 100) / 100;', '  return `${currency.symbol}${rounded.toFixed(currency.digits ?? 2)}`;'],
      },
    });
    expect(checkout!.original).toMatchObject({ file: 'src/cart.js', line: 5, column: 10, context: { line: '  return formatTotal(total, items.currency);' } });
    expect(page).toMatchObject({ original: null, unmapped: 'no_map', in_app: true });
  });

  test('WebKit: the same line; no caller in the bundle to name the function (its tail call left no frame)', () => {
    const [thrower] = symbolicate(parseStack(stackOf('webkit')), onlyTheBundle);
    expect(thrower!.original).toMatchObject({ file: 'src/format.js', line: 3, function: null, context: { line: THROW_LINE } });
  });

  test('a fresh rollup + terser build with debug IDs, run in Node, maps back to formatTotal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'stack-app-'));
    try {
      const { bundle, map } = await buildStackApp(dir);
      const code = readFileSync(bundle, 'utf8');
      const mapText = readFileSync(map, 'utf8');
      const debugId = (JSON.parse(mapText) as { debugId: string }).debugId;
      expect(debugId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(code).toContain(`//# debugId=${debugId}`);
      const url = 'https://shop.example/assets/app.min.js';
      const shopApp = runInNewContext(`${code}\nshopApp`, {}, { filename: url }) as { refund: (items: unknown[]) => string };
      let stack = '';
      try {
        shopApp.refund([{ price: 3, quantity: 2 }]);
      } catch (error) {
        stack = (error as Error).stack!;
      }
      const frames = symbolicate(parseStack(stack), (file) => (file == url ? parseSourceMap(mapText) : 'no_map'));
      expect(frames[0]!.original).toMatchObject({ file: expect.stringMatching(/src\/format\.js$/), line: 3, function: 'formatTotal' });
      expect(frames[1]!.original).toMatchObject({ file: expect.stringMatching(/src\/cart\.js$/), line: 10 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('symbolicate: why a frame is not mapped', () => {
  const frames = parseStack(stackOf('chromium'));
  test('each reason the lookup gives is the frame\'s; a frame with no file has no map and is not in_app', () => {
    for (const reason of ['no_release', 'no_map', 'map_invalid'] as const) {
      expect(symbolicate(frames, () => reason).map((frame) => frame.unmapped)).toEqual(frames.map(() => reason));
    }
    const [native] = symbolicate(parseStack('f@[native code]'), () => bundleMap);
    expect(native).toMatchObject({ original: null, unmapped: 'no_map', in_app: false });
  });
  test('a position the map does not cover is outside_map', () => {
    const outside = parseStack('at f (https://shop.example/app.min.js:99:1)\nat g (https://shop.example/app.min.js:1:1)\nat h (https://shop.example/app.min.js:1:999999)');
    expect(symbolicate(outside, () => bundleMap).map((frame) => frame.unmapped)).toEqual(['outside_map', 'outside_map', null]);
  });
  test('the lookup is asked once per file, and one that throws counts as no map', () => {
    const asked: string[] = [];
    symbolicate(frames, (file) => (asked.push(file), 'no_map'));
    expect(asked).toEqual([...new Set(frames.map((frame) => frame.file).filter(Boolean))]);
    const thrown = symbolicate(frames, () => {
      throw new Error('storage down');
    });
    expect(thrown.every((frame) => frame.unmapped == 'no_map')).toBe(true);
  });
});
