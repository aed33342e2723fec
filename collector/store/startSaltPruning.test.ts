// serve's salt pruning on the housekeeping timer (docs/visitors.md, "The salt"), on a real SQLite
// store, with its clock and interval injected: old salts go with no report arriving, a failed
// prune is reported and the next one runs, and stop() ends the timer.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { visitorDay } from '../core/visitorHash';
import type { Store } from './contract';
import { createSqliteStore } from './sqlite';
import { startSaltPruning } from './startSaltPruning';
import { until as untilHolds } from '../testing/until';

const DAY = 86_400_000;
let dir: string;
let store: Store;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-salt-pruning-'));
  store = createSqliteStore({ file: join(dir, 'sitebeacon.db') });
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const until = (what: string, condition: () => boolean | Promise<boolean>) => untilHolds(condition, { what, everyMs: 10 });

test('salts become older than yesterday while no report arrives: the next prune deletes them; the day before and the day are kept', async () => {
  let now = Date.UTC(2026, 5, 10, 12);
  const today = visitorDay(now);
  // The last reports came yesterday and today.
  const yesterday = Buffer.from(await store.visitorSalts.salt(today - 1));
  const current = Buffer.from(await store.visitorSalts.salt(today));
  const prunes: Array<{ day: number; deleted: number }> = [];
  const pruning = startSaltPruning(
    { salt: store.visitorSalts.salt, prune: async (day) => store.visitorSalts.prune(day).then((deleted) => (prunes.push({ day, deleted }), deleted)) },
    { intervalMs: 20, now: () => now },
  );
  try {
    await until('the prune at start', () => prunes.length > 0);
    expect(prunes[0]).toEqual({ day: today, deleted: 0 });
    expect(Buffer.from(await store.visitorSalts.salt(today - 1))).toEqual(yesterday);
    // Two days on, and still no report: both are older than yesterday now.
    now += 2 * DAY;
    await until('a prune on the new day', () => prunes.some(({ day }) => day == today + 2));
    expect(prunes.find(({ day }) => day == today + 2)).toEqual({ day: today + 2, deleted: 2 });
    await pruning.idle();
    // Deleted: asked again, the day has a new salt, not the one it had.
    expect(Buffer.from(await store.visitorSalts.salt(today))).not.toEqual(current);
  } finally {
    await pruning.stop();
  }
  // Stopped: no prune after stop().
  const count = prunes.length;
  await new Promise((resolve) => setTimeout(resolve, 100));
  expect(prunes.length).toBe(count);
});

test('a failed prune goes to onError and the next one runs: a database outage ends nothing', async () => {
  const errors: unknown[] = [];
  let fail = true;
  let done = 0;
  const pruning = startSaltPruning(
    {
      salt: (day) => store.visitorSalts.salt(day),
      prune: async (day) => {
        if (fail) throw new Error('database unavailable');
        return store.visitorSalts.prune(day).finally(() => done++);
      },
    },
    { intervalMs: 20, onError: (error) => errors.push(error) },
  );
  try {
    await until('a failed prune', () => errors.length > 0);
    fail = false;
    await until('a prune after the outage', () => done > 0);
  } finally {
    await pruning.stop();
  }
  expect(errors[0]).toEqual(new Error('database unavailable'));
});

test('the next prune is due just after UTC midnight when that comes before the hour', async () => {
  const beforeMidnight = Date.UTC(2026, 5, 10, 23, 59, 59, 500);
  const days: number[] = [];
  let now = beforeMidnight;
  const pruning = startSaltPruning({ salt: store.visitorSalts.salt, prune: async (day) => (days.push(day), 0) }, { now: () => now });
  try {
    await until('the prune at start', () => days.length == 1);
    now = beforeMidnight + 1000;
    // Due 1.5 s after the start (0.5 s to midnight, then 1 s), not in an hour.
    await until('the prune after midnight', () => days.length == 2);
  } finally {
    await pruning.stop();
  }
  expect(days).toEqual([visitorDay(beforeMidnight), visitorDay(beforeMidnight) + 1]);
});
