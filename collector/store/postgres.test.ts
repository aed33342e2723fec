import pg from 'pg';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { DEFAULT_SITE_KEY } from '../core/records';
import { seedStore } from '../testing/seed';
import { usePostgresDatabase, type TestDatabase } from '../testing/testDatabase';
import type { Store } from './contract';
import { createPostgresStore } from './postgres';
import { migratePostgres } from './postgres/migrations';
import { createPool } from './postgres/pool';
import { POSTGRES_MIGRATIONS } from './postgres/schema';
import { SELECT_COPIES } from './postgres/cspCopies';
import { UnknownSiteError } from './unknownSiteError';
import { describeStoreContract } from '../testing/storeContract/store.contract';

const database = usePostgresDatabase('contract');

describeStoreContract('PostgreSQL', async () => {
  const schema = await database.schema('contract');
  return {
    open: () => createPostgresStore({ url: schema.url }),
    destroy: () => schema.drop(),
  };
});

// What only the PostgreSQL adapter has: its schema versions, its transactions, several processes.
const sql = async <T = Record<string, unknown>>(url: string, text: string, values: unknown[] = []) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
};

describe('PostgreSQL store', () => {
  let schema: TestDatabase;
  const stores: Store[] = [];
  const open = async () => {
    const store = await createPostgresStore({ url: schema.url });
    stores.push(store);
    return store;
  };
  beforeEach(async () => {
    schema = await database.schema('postgres_only');
  });
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    await schema?.drop();
  });

  test('collectors starting at once migrate once: one waits on the advisory lock, then finds nothing to do', async () => {
    await Promise.all([open(), open(), open(), open()]);
    const versions = await sql<{ version: number }>(schema.url, 'SELECT version FROM sitebeacon_schema ORDER BY version');
    expect(versions.map((row) => row.version)).toEqual(POSTGRES_MIGRATIONS.map((_, index) => index + 1));
    expect(await sql(schema.url, `SELECT site_key FROM sites`)).toEqual([{ site_key: DEFAULT_SITE_KEY }]);
    const pool = createPool(schema.url);
    expect(await migratePostgres(pool)).toEqual({ from: POSTGRES_MIGRATIONS.length, to: POSTGRES_MIGRATIONS.length });
    await pool.end();
  });

  test("the reports CSP copies merge into are read from csp_reports_awaiting_copy in its order: no scan of a violation's copies, no sort", async () => {
    await (await open()).close();
    const literals = ["ARRAY['default', 'default']", "ARRAY['k', 'l']", "ARRAY['beacon', 'browser']", 'ARRAY[0, 0]', 'ARRAY[1, 1]', 'ARRAY[1, 2]'];
    // On an empty table a sequential scan is as good as any: the plan that matters is the one with rows.
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      await client.query('SET enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${SELECT_COPIES.replace(/\$(\d)/g, (_, index: string) => literals[Number(index) - 1]!)}`);
      const lines = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(lines).toMatch(/Index (Only )?Scan using csp_reports_awaiting_copy on csp_reports/);
      expect(lines).not.toMatch(/Sort/);
    } finally {
      await client.end();
    }
  });

  test('a database from a newer collector is refused with both versions named, and left as it was', async () => {
    await (await open()).close();
    await sql(schema.url, 'INSERT INTO sitebeacon_schema (version) VALUES (999)');
    await expect(createPostgresStore({ url: schema.url })).rejects.toThrow(
      new RegExp(`schema version 999, newer than this collector knows \\(${POSTGRES_MIGRATIONS.length}\\)`),
    );
    expect(await sql(schema.url, 'SELECT count(*)::int AS n FROM sitebeacon_schema')).toEqual([{ n: POSTGRES_MIGRATIONS.length + 1 }]);
  });

  test('a read-only connection (a standby, default_transaction_read_only) opens a migrated database and reads, and checkWritable says why it cannot write', async () => {
    const writable = await open();
    await seedStore(writable).insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'kept' }]);
    const url = new URL(schema.url);
    url.searchParams.set('options', `${url.searchParams.get('options')} -c default_transaction_read_only=on`);
    const readOnly = await createPostgresStore({ url: url.href });
    stores.push(readOnly);
    expect((await readOnly.errors.list(DEFAULT_SITE_KEY)).data).toMatchObject([{ error_message: 'kept' }]);
    const started = performance.now();
    await expect(readOnly.checkWritable()).rejects.toThrow(/read-only transaction/);
    expect(performance.now() - started).toBeLessThan(1500);
    await expect(writable.checkWritable()).resolves.toBeUndefined();
    expect(await sql(schema.url, 'SELECT version FROM sitebeacon_schema ORDER BY version')).toHaveLength(POSTGRES_MIGRATIONS.length);
  });

  test('checkWritable rejects within about a second while the probed row is locked elsewhere, and resolves once it is free', async () => {
    const store = await open();
    const holder = new pg.Client({ connectionString: schema.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT * FROM sitebeacon_schema FOR UPDATE');
      const started = performance.now();
      await expect(store.checkWritable()).rejects.toThrow();
      expect(performance.now() - started).toBeLessThan(2500);
      await holder.query('ROLLBACK');
      await expect(store.checkWritable()).resolves.toBeUndefined();
    } finally {
      await holder.end();
    }
  });

  test('the writes of one event-loop turn commit in one transaction, the next turn in another', async () => {
    const store = await open();
    const seed = seedStore(store);
    await Promise.all(Array.from({ length: 20 }, (_, i) => seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: `a${i}` }])));
    await Promise.all(Array.from({ length: 5 }, (_, i) => seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: `b${i}` }])));
    // xmin: the id of the transaction that wrote a row.
    const transactions = await sql<{ first: string; rows: number }>(
      schema.url,
      'SELECT left(error_message, 1) AS first, count(DISTINCT xmin::text)::int AS rows FROM error_reports GROUP BY 1 ORDER BY 1',
    );
    expect(transactions).toEqual([{ first: 'a', rows: 1 }, { first: 'b', rows: 1 }]);
    const [a, b] = await sql<{ xmin: string }>(schema.url, `SELECT DISTINCT xmin::text FROM error_reports ORDER BY 1`);
    expect(a!.xmin).not.toBe(b!.xmin);
    expect(await sql(schema.url, 'SELECT sum(reports)::int AS reports, sum(count)::int AS count FROM error_groups')).toEqual([{ reports: 25, count: 25 }]);
  });

  test('writes under a rotated key leave the group: the others commit again together in one transaction, not one by one', async () => {
    const store = await open();
    const seed = seedStore(store);
    const shop = await seed.addSite([]);
    await (await open()).sites.rotateKey(shop, 'rotatedshop');
    const writes = Array.from({ length: 20 }, (_, i) =>
      i % 7 == 3
        ? seed.insertErrors(shop, [{ error_type: 'js', error_message: `lost${i}` }])
        : seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: `kept${i}` }]),
    );
    const results = await Promise.allSettled(writes);
    const rejected = results.flatMap((result) => (result.status == 'rejected' ? [result.reason] : []));
    expect(rejected).toHaveLength(3);
    for (const reason of rejected) expect(reason).toBeInstanceOf(UnknownSiteError);
    const kept = await sql<{ messages: number; transactions: number }>(
      schema.url,
      'SELECT count(*)::int AS messages, count(DISTINCT xmin::text)::int AS transactions FROM error_reports',
    );
    expect(kept).toEqual([{ messages: 17, transactions: 1 }]);
  });

  test("the beacon's copy and the browser's report of one violation at two processes at once are stored once", async () => {
    const [one, two] = [seedStore(await open()), seedStore(await open())];
    const copy = (source: 'beacon' | 'report-uri', n: number) => ({
      report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src',
      blocked_uri: `https://cdn.example/${n}.png`, line_number: 3, column_number: 7, source,
    });
    const t = Date.now();
    await Promise.all(Array.from({ length: 20 }, (_, n) => [one.insertCsp(DEFAULT_SITE_KEY, [copy('beacon', n)], t), two.insertCsp(DEFAULT_SITE_KEY, [copy('report-uri', n)], t)]).flat());
    const stored = await one.stored('csp', DEFAULT_SITE_KEY);
    expect(stored).toHaveLength(20);
    for (const record of stored) expect([...record.sources!].sort()).toEqual(['beacon', 'report-uri']);
    expect(await sql(schema.url, 'SELECT sum(reports)::int AS reports FROM csp_groups')).toEqual([{ reports: 20 }]);
  });

  test('two processes writing the same groups and sessions in opposite orders do not deadlock, and the aggregates add up', async () => {
    const [one, two] = [seedStore(await open()), seedStore(await open())];
    const messages = Array.from({ length: 8 }, (_, i) => ({ error_type: 'js', error_message: `failure ${String.fromCharCode(97 + i)}` }));
    const t = Date.UTC(2026, 5, 10, 12);
    const writes: Array<Promise<unknown>> = [];
    for (let round = 0; round < 30; round++) {
      writes.push(one.insertErrors(DEFAULT_SITE_KEY, messages, t + round), two.insertErrors(DEFAULT_SITE_KEY, [...messages].reverse(), t + round));
      for (let s = 0; s < 6; s++) {
        writes.push(
          one.upsertSession(DEFAULT_SITE_KEY, { session_id: `s${s}`, metrics: { LCP: { value: round } } }, t + round),
          two.upsertSession(DEFAULT_SITE_KEY, { session_id: `s${5 - s}`, metrics: { CLS: { value: round } } }, t + round),
        );
      }
      if (round % 5 == 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const results = await Promise.allSettled(writes);
    expect(results.filter((result) => result.status == 'rejected')).toEqual([]);
    const [{ reports, groups }] = (await sql<{ reports: number; groups: number }>(
      schema.url,
      'SELECT (SELECT sum(reports)::int FROM error_groups) AS reports, (SELECT count(*)::int FROM error_reports) AS groups',
    )) as [{ reports: number; groups: number }];
    expect(reports).toBe(30 * 16);
    expect(groups).toBe(30 * 16);
    const sessions = await seedStore(stores[0]!).stored('performance', DEFAULT_SITE_KEY);
    expect(sessions).toHaveLength(6);
    for (const session of sessions) expect(session.metrics).toEqual({ LCP: { value: 29 }, CLS: { value: 29 } });
    expect(await sql(schema.url, 'SELECT count(*)::int AS n FROM performance_metrics')).toEqual([{ n: 12 }]);
  });
});
