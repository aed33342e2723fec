import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { hashApiKey, newApiKey } from '../core/keys';
import { createSqliteStore } from '../store/sqlite';
import { buildStackApp } from '../testing/buildStackApp';
import { seedStore } from '../testing/seed';
import { spawnCollector, type CollectorProcess } from '../testing/spawnCollector';

const SHOP = 'https://shop.example';
const ERROR = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'checkout total has no currency' };
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

let dir: string;
let map: string;
let stack: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-restart-grouping-'));
  const built = await buildStackApp(join(dir, 'app'));
  map = readFileSync(built.map, 'utf8');
  try {
    runInNewContext(`${readFileSync(built.bundle, 'utf8')}\nshopApp.checkout([])`, {}, { filename: `${SHOP}/app.min.js`, displayErrors: false });
  } catch (error) {
    stack = (error as Error).stack!;
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// docs/grouping.md, "Across releases": a release not seen since the collector started waits for its maps.
test('a real restart of `sitebeacon serve` on the same SQLite file: the first report after it is grouped with the one before, by the source', { timeout: 90_000 }, async () => {
  const db = join(dir, 'sitebeacon.db');
  const store = createSqliteStore({ file: db });
  const site = await seedStore(store).addSite([SHOP], 'Shop');
  const key = newApiKey();
  await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'test', site_key: site });
  await store.close();
  const auth = { authorization: `Bearer ${key}` };
  const report = (collector: CollectorProcess) =>
    fetch(`${collector.url}/api/error-reports/${site}`, {
      method: 'POST',
      headers: { origin: SHOP, 'content-type': 'application/json', 'user-agent': CHROME },
      body: JSON.stringify({ ...ERROR, stack, release: '1.0', page_url: `${SHOP}/cart` }),
    });
  const issues = async (collector: CollectorProcess) =>
    ((await (await fetch(`${collector.url}/api/v1/sites/${site}/issues?status=all`, { headers: auth })).json()) as { items: Array<{ fingerprint: string; occurrences: number }> }).items.map(
      ({ fingerprint, occurrences }) => ({ fingerprint, occurrences }),
    );
  const args = ['--rate-limit', '0', '--site-rate-limit', '0', '--log-level', 'silent'];
  const first = await spawnCollector({ db, args });
  let before: Array<{ fingerprint: string; occurrences: number }>;
  try {
    const uploaded = await fetch(`${first.url}/api/v1/sites/${site}/sourcemaps`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ release: '1.0', url: '~/app.min.js', map }),
    });
    expect(uploaded.status).toBe(201);
    expect((await report(first)).status).toBe(202);
    before = await issues(first);
    expect(before).toEqual([{ fingerprint: expect.any(String), occurrences: 1 }]);
  } finally {
    await first.stop();
  }
  const second = await spawnCollector({ db, args });
  try {
    expect((await report(second)).status).toBe(202);
    expect(await issues(second)).toEqual([{ fingerprint: before[0]!.fingerprint, occurrences: 2 }]);
    // Mapped, not minified: the issue's event names the source's file.
    const events = (await (await fetch(`${second.url}/api/v1/sites/${site}/issues/${before[0]!.fingerprint}/events?limit=1`, { headers: auth })).json()) as {
      items: Array<{ frames: Array<{ original: { file: string; line: number } | null }> }>;
    };
    expect(events.items[0]!.frames[0]!.original).toMatchObject({ file: expect.stringMatching(/(^|\/)src\/format\.js$/), line: 3 });
  } finally {
    await second.stop();
  }
});
