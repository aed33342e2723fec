// `sitebeacon serve` in this process (main(), as the serve thread runs it) deletes the visitor
// salts older than yesterday with no report arriving (docs/visitors.md, "The salt"): at start,
// and just after UTC midnight on a clock injected through vitest's Date, on both stores.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { visitorDay } from '../core/visitorHash';
import { main } from '../main';
import { openStore } from '../store/openStore';
import { usePostgresDatabase } from '../testing/testDatabase';
import { until as untilHolds } from '../testing/until';

const DAY = 86_400_000;
const database = usePostgresDatabase('salt_pruning');
const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Each store: its `serve` flags, and the raw salt table, written and read beside the collector. */
const stores = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-salt-pruning-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'sitebeacon.db');
    const sql = <T>(run: (db: Database.Database) => T) => {
      const db = new Database(file);
      try {
        return run(db);
      } finally {
        db.close();
      }
    };
    return {
      location: file,
      flags: ['--db', file],
      insert: async (day: number) => void sql((db) => db.prepare('INSERT INTO visitor_salts (day, salt) VALUES (?, ?)').run(day, randomBytes(32))),
      days: async () => sql((db) => db.prepare<[], { day: number }>('SELECT day FROM visitor_salts ORDER BY day').all()).map(({ day }) => Number(day)),
    };
  },
  PostgreSQL: async () => {
    const schema = await database.schema('salts');
    cleanups.push(() => schema.drop());
    const sql = async (text: string, values: unknown[] = []) => {
      const client = new pg.Client({ connectionString: schema.url });
      await client.connect();
      try {
        return (await client.query<{ day: number }>(text, values)).rows;
      } finally {
        await client.end();
      }
    };
    return {
      location: schema.url,
      flags: ['--database-url', schema.url],
      insert: async (day: number) => void (await sql('INSERT INTO visitor_salts (day, salt) VALUES ($1, $2)', [day, randomBytes(32)])),
      days: async () => (await sql('SELECT day FROM visitor_salts ORDER BY day')).map(({ day }) => Number(day)),
    };
  },
};

/** `serve FLAGS --port 0 --json` in this process, stopped gracefully after the test. */
const serve = async (flags: string[]) => {
  // serve's graceful stop ends the process once the store is closed: here it only returns.
  const exited = vi.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
  const err: string[] = [];
  let graceful: (() => void) | undefined;
  const code = await main(['serve', ...flags, '--port', '0', '--json', '--log-level', 'error'], {
    out: () => {},
    err: (line) => err.push(line),
    env: {},
    onStop: (stop) => (graceful = stop),
  });
  if (code || !graceful) throw new Error(`serve exited ${code}: ${err.join('\n')}`);
  cleanups.push(async () => {
    graceful!();
    while (!exited.mock.calls.length) await new Promise((resolve) => setTimeout(resolve, 10));
  });
  return { err };
};

const until = (what: string, condition: () => boolean | Promise<boolean>) => untilHolds(condition, { what, ms: 10_000, everyMs: 20 });

describe.each(Object.entries(stores))('serve on %s', (_name, makeStore) => {
  test("deletes a salt of three days ago at start, with no report, and keeps yesterday's and today's", async () => {
    const salts = await makeStore();
    await (await openStore(salts.location)).close();
    const today = visitorDay(Date.now());
    for (const day of [today - 3, today - 1, today]) await salts.insert(day);
    const { err } = await serve(salts.flags);
    await until('the salt of three days ago deleted', async () => !(await salts.days()).includes(today - 3));
    expect(await salts.days()).toEqual([today - 1, today]);
    expect(err).toEqual([]);
  });

  test('deletes the salt of the day before yesterday just after UTC midnight, with no report', async () => {
    const salts = await makeStore();
    await (await openStore(salts.location)).close();
    // Only Date is faked: timers and sockets run as they do. 23:59:59 UTC, one second to midnight.
    const beforeMidnight = (visitorDay(Date.now()) + 1) * DAY - 1000;
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(beforeMidnight);
    const today = visitorDay(beforeMidnight);
    for (const day of [today - 1, today]) await salts.insert(day);
    const { err } = await serve(salts.flags);
    // The prune at start keeps both; the next is due a second after midnight (store/startSaltPruning.ts).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await salts.days()).toEqual([today - 1, today]);
    vi.setSystemTime(beforeMidnight + 1500);
    await until("yesterday's salt deleted once it is the day before yesterday", async () => !(await salts.days()).includes(today - 1));
    expect(await salts.days()).toEqual([today]);
    expect(err).toEqual([]);
  });
});
