import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { SourceMapStore, Store } from '../store/contract';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { createIngestIndex, MAX_RELEASE_CHECKS, RELEASE_CHECK_MS } from './ingestIndex';
import { createMapWorker } from './mapWorker';

// Column 1 of line 1 is a library's code, column 2 the app's line 7 (docs/grouping.md, "Across releases").
const MAP = JSON.stringify({ version: 3, sources: ['../node_modules/lib/index.js', './src/app.js'], names: [], mappings: 'AAAA,CCMA' });
const at = (column: number, file = 'https://shop.example/app.min.js') => `    at f (${file}:1:${column})`;

let dir: string;
let store: Store;
let site: string;
let lists: string[];
let maps: SourceMapStore;
let worker: ReturnType<typeof createMapWorker>;
let now: number;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-ingest-index-'));
  store = createSqliteStore({ file: join(dir, 'db') });
  site = await seedStore(store).addSite(['https://shop.example']);
  lists = [];
  maps = { ...store.sourceMaps, list: (siteKey, release) => (lists.push(release), store.sourceMaps.list(siteKey, release)) };
  worker = createMapWorker();
  now = 1_000_000;
});
afterEach(async () => {
  await worker.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a release not seen yet waits for its maps; a library frame is passed over for the next; a first in-app frame without a map gives none; a release is listed once a minute', async () => {
  await store.sourceMaps.put(site, { release: '1.0', url: '~/app.min.js', debug_id: null, text: MAP });
  const index = createIngestIndex(maps, worker, () => now);
  const report = { release: '1.0', stack: `Error: x\n${at(1)}\n${at(2)}` };
  expect(await index.originalOf(site, report)).toEqual({ source: 'src/app.js', line: 7 });
  expect(await index.originalOf(site, { release: '1.0', stack: `Error: x\n${at(1, 'https://shop.example/other.js')}\n${at(2)}` })).toBeNull();
  expect(await index.originalOf(site, { release: '1.0', stack: `Error: x\n${at(5, 'chrome-extension://abc/x.js')}\n${at(2)}` })).toEqual({ source: 'src/app.js', line: 7 });
  expect(lists).toEqual(['1.0']);
  now += RELEASE_CHECK_MS + 1;
  await index.originalOf(site, report);
  await index.settled();
  expect(lists).toEqual(['1.0', '1.0']);
  expect(index.size()).toEqual({ maps: 1 });
  index.deleted(site, '1.0');
  expect(await index.originalOf(site, report)).toBeNull();
  expect(index.size()).toEqual({ maps: 0 });
});

test(`at most ${MAX_RELEASE_CHECKS} releases are checked at once: the others wait for a later report`, async () => {
  const index = createIngestIndex(maps, worker, () => now);
  const answers = Array.from({ length: 20 }, (_, release) => index.originalOf(site, { release: `r${release}`, stack: `Error: x\n${at(2)}` }));
  expect(lists).toHaveLength(MAX_RELEASE_CHECKS);
  expect(await Promise.all(answers)).toEqual(answers.map(() => null));
  await index.settled();
  await index.originalOf(site, { release: 'r19', stack: `Error: x\n${at(2)}` });
  await index.settled();
  expect(lists).toHaveLength(MAX_RELEASE_CHECKS + 1);
  expect(index.size()).toEqual({ maps: 0 });
});
