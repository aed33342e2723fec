import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { migrate } from './migrations';
import { createSqliteStore } from './sqlite';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-store-'));
  file = join(dir, 'sitebeacon.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a new file is migrated, in WAL mode, with the default site', async () => {
  const store = createSqliteStore({ file });
  expect(await store.getDefaultSite()).toMatchObject({ siteKey: 'default', allowedOrigins: [] });
  await store.close();
  const db = new Database(file, { readonly: true });
  expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
  expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
  db.close();
});

test('reopening keeps what was committed and does not migrate twice', async () => {
  const first = createSqliteStore({ file });
  const site = await first.addSite({ name: 'Shop', allowedOrigins: ['https://shop.example'] });
  await first.insertErrorReports(site.siteKey, [{ error_type: 'js', error_message: 'kept' }], { receivedAt: Date.now() });
  await first.close();
  const second = createSqliteStore({ file });
  expect((await second.listErrorReports(site.siteKey)).map((record) => record.error_message)).toEqual(['kept']);
  await second.close();
});

test('a database from a newer collector is refused with a clear message instead of being damaged', () => {
  const db = new Database(file);
  db.pragma('user_version = 999');
  db.close();
  expect(() => createSqliteStore({ file })).toThrow(/schema version 999, newer than this collector/);
});

test('listing pages by cursor and limit', async () => {
  const store = createSqliteStore({ file });
  const reports = Array.from({ length: 5 }, (_, i) => ({ error_type: 'js', error_message: `m${i}` }));
  await store.insertErrorReports('default', reports, { receivedAt: Date.now() });
  const page1 = await store.listErrorReports('default', { limit: 2 });
  const page2 = await store.listErrorReports('default', { limit: 2, afterId: page1[1]!.id });
  expect([...page1, ...page2].map((record) => record.error_message)).toEqual(['m0', 'm1', 'm2', 'm3']);
  await store.close();
});

test('writes of one event-loop turn commit together; one failing write does not undo the others', async () => {
  const store = createSqliteStore({ file });
  const context = { receivedAt: Date.now() };
  const results = await Promise.allSettled([
    store.insertErrorReports('default', [{ error_type: 'js', error_message: 'a' }], context),
    // No such site: the foreign key refuses it.
    store.insertErrorReports('no-such-site', [{ error_type: 'js', error_message: 'b' }], context),
    store.insertErrorReports('default', [{ error_type: 'js', error_message: 'c' }], context),
  ]);
  expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  await store.close();
  const reopened = createSqliteStore({ file });
  expect((await reopened.listErrorReports('default')).map((record) => record.error_message)).toEqual(['a', 'c']);
  await reopened.close();
});

test('close() commits what is still queued', async () => {
  const store = createSqliteStore({ file });
  const written = store.insertErrorReports('default', [{ error_type: 'js', error_message: 'last' }], { receivedAt: Date.now() });
  await store.close();
  await expect(written).resolves.toBe(1);
  const reopened = createSqliteStore({ file });
  expect(await reopened.listErrorReports('default')).toHaveLength(1);
  await reopened.close();
});

test('a database written by an older schema (version 2) opens, and its rows get what the new one derives', () => {
  const old = new Database(file);
  migrate(old, 2);
  old.prepare("INSERT INTO error_reports (site_key, received_at, error_type, error_message) VALUES ('default', 1, 'js', 'Item 4 lost')").run();
  old.prepare("INSERT INTO csp_reports (site_key, received_at, report_type, blocked_uri) VALUES ('default', 1, 'csp-violation', 'https://cdn.example/x.png')").run();
  old
    .prepare("INSERT INTO performance_sessions (site_key, session_id, received_at, updated_at, metrics) VALUES ('default', 's', 1, 1, ?)")
    .run(JSON.stringify({ LCP: { value: 1800 } }));
  old.close();

  return (async () => {
    const store = createSqliteStore({ file });
    const [error] = await store.listErrorReports('default');
    expect(error!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect((await store.listCspReports('default'))[0]!.blocked_host).toBe('cdn.example');
    const summary = await store.summarize('default');
    expect(summary.vitals.LCP).toMatchObject({ samples: 1, p75: 1800, good: 1 });
    expect(summary.errors).toMatchObject([{ error_message: 'Item 4 lost', reports: 1, count: 1 }]);
    expect(summary.csp).toEqual([]);
    await store.close();
  })();
});
