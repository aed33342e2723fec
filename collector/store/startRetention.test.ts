// `serve --retention-days` on the housekeeping timer (docs/retention.md; startPeriodic.ts), on a
// real SQLite store: a sweep deletes the old reports batch by batch and keeps the recent ones, and
// stop() does not wait out the pause between two batches.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_SITE_KEY } from '../core/records';
import { seedStore } from '../testing/seed';
import type { Store } from './contract';
import { createSqliteStore } from './sqlite';
import { startRetention } from './startRetention';

const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 10, 12);
let dir: string;
let store: Store;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-retention-timer-'));
  store = createSqliteStore({ file: join(dir, 'sitebeacon.db') });
  const seed = seedStore(store);
  const old = Array.from({ length: 30 }, (_, i) => ({ error_type: 'js', error_message: `old ${i}` }));
  await seed.insertErrors(DEFAULT_SITE_KEY, old, now - 3 * DAY);
  await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'recent' }], now - DAY / 2);
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const messages = async () => (await seedStore(store).stored('errors', DEFAULT_SITE_KEY)).map(({ error_message }) => error_message);

test('a sweep deletes what is older than N days in batches and keeps the rest', async () => {
  const retention = startRetention(store, { days: 1, batchSize: 10, pauseMs: 1, now: () => now });
  try {
    const deadline = Date.now() + 5000;
    while ((await messages()).length > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await retention.idle();
  } finally {
    await retention.stop();
  }
  expect(await messages()).toEqual(['recent']);
});

test('stop() during the pause between two batches ends the sweep at once', async () => {
  const batches: number[] = [];
  const counted: Store = { ...store, retention: { deleteBefore: (...args) => store.retention.deleteBefore(...args).then((deleted) => (batches.push(deleted), deleted)) } };
  const retention = startRetention(counted, { days: 1, batchSize: 10, pauseMs: 60_000, now: () => now });
  const deadline = Date.now() + 5000;
  while (!batches.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  const stopping = Date.now();
  await retention.stop();
  expect(Date.now() - stopping).toBeLessThan(1000);
  expect(batches).toEqual([10]);
  expect(await messages()).toHaveLength(21);
});
