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
  counted = { ...store.sourceMaps, packed: (siteKey, release, url) => (reads.push(url), store.sourceMaps.packed(siteKey, release, url)) };
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

test('a script URL uploaded from one build only is mapped by its debug ID for a report without a release; a release without its map is no_map', async () => {
  const ID = '0ae942fd-a409-4fc6-a82c-91eb9fcbbf72';
  const hashed = STACK.replaceAll('app.min.js', 'app.3f2a.js');
  await store.sourceMaps.put(site, { release: '1.0', url: '~/app.3f2a.js', debug_id: ID, text: MAP });
  const [noRelease, otherRelease] = await eventFrames(counted, site, [{ release: null, stack: hashed }, { release: '2.0', stack: hashed }]);
  expect(noRelease![0]!.original).toMatchObject({ file: 'src/format.js', line: 3, function: 'formatTotal' });
  expect(otherRelease![0]!.unmapped).toBe('no_map');
  // Two builds served app.min.js: its debug IDs disagree, so only the report's release can choose its map.
  await store.sourceMaps.put(site, { release: '1.0', url: '~/app.min.js', debug_id: ID, text: MAP });
  await store.sourceMaps.put(site, { release: '1.1', url: '~/app.min.js', debug_id: '9f0c3a52-1b7e-4f8e-a0d1-2c3b4d5e6f70', text: MAP });
  const [ambiguous, wrongRelease, own] = await eventFrames(counted, site, [
    { release: null, stack: STACK },
    { release: '2.0', stack: STACK },
    { release: '1.1', stack: STACK },
  ]);
  expect(ambiguous![0]!.unmapped).toBe('no_release');
  expect(wrongRelease![0]!.unmapped).toBe('no_map');
  expect(own![0]!.original).toMatchObject({ file: 'src/format.js', line: 3 });
});
