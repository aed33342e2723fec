import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { seedStore } from '../testing/seed';
import { createSqliteStore } from './sqlite';
import { createGroupCommit } from './sqlite/groupCommit';
import { migrate } from './sqlite/migrations';
import { SELECT_COPY_TO_MERGE_INTO } from './awaitingCopy';
import { awaitedSideOf } from '../core/cspCopies';
import { readSummary } from '../reads/readSummary';
import { describeStoreContract } from '../testing/storeContract/store.contract';

describeStoreContract('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-contract-'));
  return {
    open: async () => createSqliteStore({ file: join(dir, 'sitebeacon.db') }),
    destroy: async () => rmSync(dir, { recursive: true, force: true }),
  };
});

// What only the SQLite adapter has: the file, its mode, its schema versions.
let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-store-'));
  file = join(dir, 'sitebeacon.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a new file is migrated, in WAL mode', async () => {
  const store = createSqliteStore({ file });
  await store.close();
  const db = new Database(file, { readonly: true });
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
  db.close();
});

test('a database from a newer collector is refused with a clear message instead of being damaged', () => {
  const db = new Database(file);
  db.pragma('user_version = 999');
  db.close();
  expect(() => createSqliteStore({ file })).toThrow(/schema version 999, newer than this collector/);
});

test('a database written by an older schema (version 2) opens, and its rows get what the new one derives', async () => {
  const old = new Database(file);
  migrate(old, 2);
  old.prepare("INSERT INTO error_reports (site_key, received_at, error_type, error_message) VALUES ('default', 1, 'js', 'Item 4 lost')").run();
  old.prepare("INSERT INTO csp_reports (site_key, received_at, report_type, blocked_uri) VALUES ('default', 1, 'csp-violation', 'https://cdn.example/x.png')").run();
  old
    .prepare("INSERT INTO performance_sessions (site_key, session_id, received_at, updated_at, metrics) VALUES ('default', 's', 1, 1, ?)")
    .run(JSON.stringify({ LCP: { value: 1800 } }));
  old.close();

  const store = createSqliteStore({ file });
  const seed = seedStore(store);
  const [error] = await seed.stored('errors', 'default');
  expect(error!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  expect((await seed.stored('csp', 'default'))[0]!.blocked_host).toBe('cdn.example');
  const summary = await readSummary(store, { site_key: 'default' });
  expect(summary.vitals.LCP).toMatchObject({ samples: 1, p75: 1800, good: 1 });
  expect(summary.errors).toMatchObject([{ error_message: 'Item 4 lost', reports: 1, count: 1 }]);
  expect(summary.csp).toEqual([]);
  await store.close();
});

test('checkWritable rejects, within a second, while another connection holds the write lock, and resolves once it is released', async () => {
  const store = createSqliteStore({ file });
  const other = new Database(file);
  other.exec('BEGIN IMMEDIATE');
  const started = performance.now();
  await expect(store.checkWritable()).rejects.toThrow(/locked|busy/i);
  expect(performance.now() - started).toBeLessThan(1000);
  other.exec('ROLLBACK');
  other.close();
  await expect(store.checkWritable()).resolves.toBeUndefined();
  // The probe left no transaction open: writes go on.
  await seedStore(store).insertErrors('default', [{ error_type: 'js', error_message: 'after the probe' }]);
  expect((await store.errors.list('default')).data).toHaveLength(1);
  await store.close();
});

test("a write that reads before it writes is not failed by another process's commit in between: the write lock is taken at BEGIN", async () => {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE t (v INTEGER)');
  // Another process on the same file (the CLI adding a site while the collector stores reports).
  const other = new Database(file);
  other.pragma('busy_timeout = 0');
  const { write } = createGroupCommit(db);
  let otherCommitted = false;
  const written = write(() => {
    db.prepare('SELECT count(*) FROM t').get();
    try {
      other.prepare('INSERT INTO t VALUES (1)').run();
      otherCommitted = true;
    } catch {
      // Locked out until this transaction commits: what BEGIN IMMEDIATE guarantees.
    }
    db.prepare('INSERT INTO t VALUES (2)').run();
  });
  await expect(written).resolves.toBeUndefined();
  expect(otherCommitted).toBe(false);
  expect(db.prepare('SELECT v FROM t').all()).toEqual([{ v: 2 }]);
  other.close();
  db.close();
});

test("a site changed through another connection is seen from the next turn of the event loop on; this store's own changes at once", async () => {
  const store = createSqliteStore({ file });
  await store.sites.put({ site_key: 'shop', name: 'Shop', allowed_origins: ['https://a.example'] });
  expect((await store.sites.get('shop'))!.allowed_origins).toEqual(['https://a.example']);
  // Another process (the CLI) changes the site and rotates another one's key.
  await store.sites.put({ site_key: 'blog', name: 'Blog', allowed_origins: [] });
  expect(await store.sites.get('blog')).toBeDefined();
  const other = createSqliteStore({ file });
  await other.sites.put({ site_key: 'shop', name: 'Shop', allowed_origins: ['https://b.example'] });
  await other.sites.rotateKey('blog', 'blog2');
  await other.close();
  await new Promise((resolve) => setImmediate(resolve));
  expect((await store.sites.get('shop'))!.allowed_origins).toEqual(['https://b.example']);
  expect(await store.sites.get('blog')).toBeUndefined();
  // Its own change, within the same turn.
  await store.sites.put({ site_key: 'shop', name: 'Shop', allowed_origins: ['https://c.example'] });
  expect((await store.sites.get('shop'))!.allowed_origins).toEqual(['https://c.example']);
  await store.close();
});

test('a key rotation comes after the reports submitted before it, which stay with the site', async () => {
  const store = createSqliteStore({ file });
  await store.sites.put({ site_key: 'shop', name: 'Shop', allowed_origins: [] });
  const seed = seedStore(store);
  const inserted = seed.insertErrors('shop', [{ error_type: 'js', error_message: 'before the rotation' }]);
  const rotated = store.sites.rotateKey('shop', 'shop2');
  await expect(inserted).resolves.toBe(1);
  await rotated;
  expect((await store.errors.list('shop2')).data.map((report) => report.error_message)).toEqual(['before the rotation']);
  await store.close();
});

test("the report a CSP copy merges into is found through csp_reports_awaiting_copy, in its order: no scan of the violation's copies, no sort", () => {
  const db = new Database(file);
  migrate(db);
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${SELECT_COPY_TO_MERGE_INTO}`).all('default', 'k', 'beacon', 0, 1) as Array<{ detail: string }>;
  db.close();
  expect(plan.map((step) => step.detail)).toEqual([expect.stringMatching(/^SEARCH csp_reports USING INDEX csp_reports_awaiting_copy \(site_key=\? AND violation_key=\? AND awaiting=\? AND received_at>\? AND received_at<\?\)$/)]);
});

test('schema version 10 works out the side each stored violation awaits from its sources, as core/cspCopies.ts does', () => {
  const db = new Database(file);
  migrate(db, 9);
  const insert = db.prepare("INSERT INTO csp_reports (site_key, received_at, report_type, violation_key, sources) VALUES ('default', 1, 'csp-violation', ?, ?)");
  const cases: Array<[string | null, string[] | null]> = [
    ['k', ['beacon']], ['k', ['report-uri']], ['k', ['report-to']], ['k', ['beacon', 'report-to']], ['k', ['report-uri', 'beacon']], ['k', null], [null, ['beacon']],
  ];
  for (const [key, sources] of cases) insert.run(key, sources && JSON.stringify(sources));
  migrate(db);
  const awaiting = db.prepare('SELECT awaiting FROM csp_reports ORDER BY id').pluck().all();
  db.close();
  expect(awaiting).toEqual(cases.map(([key, sources]) => (key && sources ? (awaitedSideOf(sources) ?? null) : null)));
  expect(awaiting).toEqual(['browser', 'beacon', 'beacon', null, null, null, null]);
});
