import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createCollector } from '../app';
import { fingerprintOf } from '../core/fingerprint';
import { hashApiKey, newApiKey } from '../core/keys';
import type { Store } from '../store/contract';
import { openStore } from '../store/openStore';
import { createSqliteStore } from '../store/sqlite';
import { buildStackApp } from '../testing/buildStackApp';
import { seedStore } from '../testing/seed';
import { createTestDatabase } from '../testing/testDatabase';
import { sourceMapsOf } from './sourceMapsOf';

const SHOP = 'https://shop.example';
const SCRIPT = `${SHOP}/app.min.js`;
const ERROR = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'checkout total has no currency' };

/** Two builds of the same sources (testing/buildStackApp.ts), run as the page runs them: the stack of `checkout([])` thrown by each. */
const builds: Array<{ code: string; map: string; stack: string }> = [];
let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-grouping-'));
  for (const next of [false, true]) {
    const { bundle, map } = await buildStackApp(join(dir, next ? 'next' : 'first'), { next });
    const code = readFileSync(bundle, 'utf8');
    let stack = '';
    try {
      runInNewContext(`${code}\nshopApp.checkout([])`, {}, { filename: SCRIPT, displayErrors: false });
    } catch (error) {
      stack = (error as Error).stack!;
    }
    builds.push({ code, map: readFileSync(map, 'utf8'), stack });
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A store each test, reopened as a restarted collector would open it: a real SQLite file, a database of the run's PostgreSQL. */
const STORES: Array<[name: string, open: () => Promise<{ open: () => Promise<Store>; drop: () => Promise<void> }>]> = [
  [
    'SQLite',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'sitebeacon-grouping-db-')), 'db');
      return { open: async () => createSqliteStore({ file }), drop: async () => rmSync(file, { force: true }) };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase('grouping');
      return { open: () => openStore(database.url), drop: () => database.drop() };
    },
  ],
];

describe.each(STORES)('one issue across releases on %s (docs/grouping.md, "Across releases")', { timeout: 60_000 }, (_name, makeStore) => {
  const collectorOn = async (store: Store, site?: string) => {
    const app = createCollector({ store, beaconFile: 'dist/beacon.min.js', links: { appUrl: () => 'http://127.0.0.1:8787' }, rateLimits: { perIp: 0, perSite: 0 } });
    const siteKey = site ?? (await seedStore(store).addSite([SHOP], 'Shop'));
    const key = newApiKey();
    await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'test', site_key: siteKey });
    const post = async (path: string, body: unknown, headers: Record<string, string>) =>
      app.fetch(new Request(`http://collector.test${path}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } }));
    return {
      site: siteKey,
      upload: async (release: string, map: string) => expect((await post(`/api/v1/sites/${siteKey}/sourcemaps`, { release, url: '~/app.min.js', map }, { authorization: `Bearer ${key}` })).status).toBe(201),
      report: async (release: string, stack: string) => expect((await post(`/api/error-reports/${siteKey}`, { ...ERROR, stack, release, page_url: `${SHOP}/cart` }, { origin: SHOP })).status).toBe(202),
      /** The place the first frame of the issue's newest event maps to: what its fingerprint is made of. */
      mappedPlace: async (fingerprint: string) => {
        const response = await app.fetch(new Request(`http://collector.test/api/v1/sites/${siteKey}/issues/${fingerprint}/events`, { headers: { authorization: `Bearer ${key}` } }));
        const { items } = (await response.json()) as { items: Array<{ frames: Array<{ original: { file: string; line: number } | null }> }> };
        const { file, line } = items[0]!.frames[0]!.original!;
        return { source: file, line };
      },
      issues: async () => {
        const response = await app.fetch(new Request(`http://collector.test/api/v1/sites/${siteKey}/issues?status=all`, { headers: { authorization: `Bearer ${key}` } }));
        return ((await response.json()) as { items: Array<{ fingerprint: string; occurrences: number }> }).items.map(({ fingerprint, occurrences }) => ({ fingerprint, occurrences })).sort((a, b) => a.fingerprint.localeCompare(b.fingerprint));
      },
    };
  };
  const minified = (stack: string) => fingerprintOf({ ...ERROR, stack });

  test('the builds differ: other names, other lines and columns', () => {
    expect(builds[0]!.stack.split('\n')[1]).toMatch(new RegExp(`^    at t \\(${SCRIPT}:1:\\d+\\)$`));
    expect(builds[1]!.stack.split('\n')[1]).not.toContain('at t (');
    expect(builds[1]!.stack.split('\n')[1]).toContain(`${SCRIPT}:2:`);
    expect(minified(builds[0]!.stack)).not.toBe(minified(builds[1]!.stack));
  });

  test('without maps, two issues; with both maps, the two releases\' throws are one; a report before its map keeps its own', async () => {
    const { open, drop } = await makeStore();
    const store = await open();
    try {
      const shop = await collectorOn(store);
      await shop.report('1.0', builds[0]!.stack);
      await shop.report('2.0', builds[1]!.stack);
      expect(await shop.issues()).toHaveLength(2);
      await shop.upload('1.0', builds[0]!.map);
      await shop.upload('2.0', builds[1]!.map);
      await shop.report('1.0', builds[0]!.stack);
      await shop.report('2.0', builds[1]!.stack);
      await shop.report('2.0', builds[1]!.stack);
      const issues = await shop.issues();
      const merged = issues.find(({ occurrences }) => occurrences == 3)!;
      const place = await shop.mappedPlace(merged.fingerprint);
      expect(place).toEqual({ source: expect.stringMatching(/(^|\/)src\/format\.js$/), line: 3 });
      const mapped = fingerprintOf({ ...ERROR, stack: builds[0]!.stack }, place);
      expect(issues).toEqual(
        [
          { fingerprint: minified(builds[0]!.stack), occurrences: 1 },
          { fingerprint: minified(builds[1]!.stack), occurrences: 1 },
          { fingerprint: mapped, occurrences: 3 },
        ].sort((a, b) => a.fingerprint.localeCompare(b.fingerprint)),
      );
    } finally {
      await store.close();
      await drop();
    }
  });

  test('after a restart, a release\'s first report waits for its maps: every report is grouped by the source, none keeps its minified fingerprint', async () => {
    const { open, drop } = await makeStore();
    const first = await open();
    const shop = await collectorOn(first);
    await shop.upload('1.0', builds[0]!.map);
    await shop.report('1.0', builds[0]!.stack);
    await shop.upload('2.0', builds[1]!.map);
    const before = await shop.issues();
    await first.close();
    const store = await open();
    try {
      // A restarted collector on the same database: its ingest has seen no release, its map thread compiled nothing.
      const again = await collectorOn(store, shop.site);
      expect(sourceMapsOf(store.sourceMaps).index.size()).toEqual({ maps: 0 });
      await again.report('2.0', builds[1]!.stack);
      await again.report('1.0', builds[0]!.stack);
      await again.report('2.0', builds[1]!.stack);
      const issues = await again.issues();
      const place = await again.mappedPlace(before[0]!.fingerprint);
      expect(place).toEqual({ source: expect.stringMatching(/(^|\/)src\/format\.js$/), line: 3 });
      expect(before).toEqual([{ fingerprint: fingerprintOf({ ...ERROR, stack: builds[0]!.stack }, place), occurrences: 1 }]);
      expect(issues).toEqual([{ fingerprint: before[0]!.fingerprint, occurrences: 4 }]);
    } finally {
      await store.close();
      await drop();
    }
  });
});
