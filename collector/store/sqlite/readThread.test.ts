// The reader thread of the SQLite store (readThread.ts): the report reads are answered on a
// connection of its own, the same as this thread's would answer them; a thread that cannot open
// the file leaves them to this thread's connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import { createSqliteStore } from '../sqlite';
import { openConnection } from './openConnection';
import { registerP75 } from './p75';
import { sqliteReadThread } from './readThread';
import { sqliteReads } from './reads';

let dir: string;
let file: string;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-reader-'));
  file = join(dir, 'sitebeacon.db');
  const store = createSqliteStore({ file });
  await store.sites.create({ site_key: 'pk_a', name: 'A', allowed_origins: [] });
  const reports = ['Item 4 lost', 'Item 4 lost', 'Cart is empty'].map((error_message) => newErrorReport({ error_type: 'js', error_message }));
  await store.errors.insert('pk_a', reports, { received_at: Date.now(), user_agent: 'test' });
  await store.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const openHere = () => {
  const db = openConnection(file, { sync: 'normal', cacheKiB: 1024 });
  registerP75(db);
  return db;
};

test('reads are answered on the thread’s own connection: the same answers, with this thread’s connection closed', async () => {
  const db = openHere();
  const expected = {
    groups: await sqliteReads(db).errors.groups('pk_a', { limit: 10 }),
    list: await sqliteReads(db).errors.list('pk_a'),
  };
  expect(expected.groups.map((group) => group.reports)).toEqual([2, 1]);
  const { reads, close } = sqliteReadThread(db, { file, sync: 'normal', cacheKiB: 1024 });
  expect(await reads.errors.groups('pk_a', { limit: 10 })).toEqual(expected.groups);
  db.close();
  expect(await reads.errors.groups('pk_a', { limit: 10 })).toEqual(expected.groups);
  expect(await reads.errors.list('pk_a')).toEqual(expected.list);
  expect(await reads.errors.latest('pk_a', 'no such fingerprint')).toBeUndefined();
  await close();
});

test('a reader thread that cannot open the file leaves every read to this thread’s connection', async () => {
  const notADirectory = join(dir, 'plain-file');
  writeFileSync(notADirectory, '');
  const db = openHere();
  const expected = await sqliteReads(db).errors.groups('pk_a', { limit: 10 });
  const { reads, close } = sqliteReadThread(db, { file: join(notADirectory, 'sitebeacon.db'), sync: 'normal', cacheKiB: 1024 });
  expect(await reads.errors.groups('pk_a', { limit: 10 })).toEqual(expected);
  expect(await reads.errors.groups('pk_a', { limit: 10 })).toEqual(expected);
  await close();
  db.close();
});
