import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { SourceMapStore, Store } from '../store/contract';
import { createSqliteStore } from '../store/sqlite';
import { STACK_APP_BUNDLE } from '../testing/buildStackApp';
import { seedStore } from '../testing/seed';
import { eventFrames, mapUrlsOf, MAX_MAP_LOOKUPS } from './eventFrames';

const MAP = readFileSync(join(STACK_APP_BUNDLE, 'app.min.js.map'), 'utf8');
const STACK = 'TypeError: checkout total has no currency\n    at t (https://shop.example/app.min.js:1:74)\n    at r.checkout (https://shop.example/app.min.js:1:234)';

let dir: string;
let store: Store;
let site: string;
/** The store's maps, with the texts read from it counted. */
let counted: SourceMapStore;
let reads: string[];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-frames-'));
  store = createSqliteStore({ file: join(dir, 'db') });
  site = await seedStore(store).addSite(['https://shop.example']);
  reads = [];
  counted = { ...store.sourceMaps, text: (siteKey, release, url) => (reads.push(url), store.sourceMaps.text(siteKey, release, url)) };
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the URLs a map may be stored under: as named, then ~/ with the query, then ~/ and the path', () => {
  expect(mapUrlsOf('https://shop.example/assets/app.js?v=7')).toEqual(['https://shop.example/assets/app.js?v=7', '~/assets/app.js?v=7', '~/assets/app.js']);
  expect(mapUrlsOf('http://127.0.0.1:40243/app.min.js')).toEqual(['http://127.0.0.1:40243/app.min.js', '~/app.min.js']);
  expect(mapUrlsOf('blob:https://shop.example/1f0c')).toEqual(['blob:https://shop.example/1f0c']);
});

test('a map is read from the store once, then served from the one cache of this store', async () => {
  await store.sourceMaps.put(site, { release: '1.0', url: '~/app.min.js', debug_id: null, text: MAP });
  const [first] = await eventFrames(counted, site, [{ release: '1.0', stack: STACK }]);
  expect(first![0]!.original).toMatchObject({ file: 'src/format.js', line: 3, function: 'formatTotal' });
  expect(reads).toEqual(['https://shop.example/app.min.js', '~/app.min.js']);
  reads = [];
  const [again] = await eventFrames(counted, site, [{ release: '1.0', stack: STACK }, { release: null, stack: STACK }]);
  expect(reads).toEqual(['https://shop.example/app.min.js']);
  expect(again![0]!.original).toEqual(first![0]!.original);
});

test(`at most ${MAX_MAP_LOOKUPS} texts are read for a page, whatever the stacks name`, async () => {
  const stack = Array.from({ length: 100 }, (_, index) => `    at f (https://shop.example/s${index}.js:1:1)`).join('\n');
  const [frames] = await eventFrames(counted, site, [{ release: '1.0', stack: `Error: x\n${stack}` }]);
  expect(reads).toHaveLength(MAX_MAP_LOOKUPS);
  expect(frames!.map((frame) => frame.unmapped)).toEqual(frames!.map(() => 'no_map'));
});
