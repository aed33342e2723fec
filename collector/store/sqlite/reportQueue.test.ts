// The report queues of the SQLite store (docs/durability.md): the writer thread commits, answers each write
// after its commit, fails only the write that fails, and drains on close; until it is ready, the
// writes are committed on the caller's connection, in order with what follows.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import { UnknownSiteError } from '../unknownSiteError';
import { errorRows } from './errorRows';
import { migrate } from './migrations';
import { openConnection } from './openConnection';
import { sqliteReportQueue, threadedReportQueue } from './reportQueue';
import type { ReportWrite } from './reportWrites';

let dir: string;
let file: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'sitebeacon-queue-'));
  file = join(dir, 'sitebeacon.db');
  const db = openConnection(file, { sync: 'normal', cacheKiB: 1024 });
  migrate(db);
  db.close();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const errors = (siteKey: string, ...messages: string[]): ReportWrite => ({
  kind: 'errors',
  siteKey,
  rows: errorRows(messages.map((error_message) => newErrorReport({ error_type: 'js', error_message }))),
  context: { received_at: Date.now(), user_agent: 'test' },
});
/** What another connection reads, as a reader after the commit would. */
const stored = () => {
  const db = new Database(file, { readonly: true });
  try {
    const messages = (db.prepare('SELECT error_message FROM error_reports ORDER BY id').all() as Array<{ error_message: string }>).map((row) => row.error_message);
    const groups = db.prepare('SELECT SUM(reports) AS reports FROM error_groups').get() as { reports: number | null };
    return { messages, grouped: groups.reports ?? 0 };
  } finally {
    db.close();
  }
};

test('the writer thread commits each write before answering it; a write under an unknown site fails alone; close drains the queue', async () => {
  let ready!: () => void;
  const started = new Promise<void>((resolve) => (ready = resolve));
  const queue = threadedReportQueue({ file, sync: 'normal', cacheKiB: 1024 }, () => ready());
  await started;
  const [first, second] = await Promise.all([queue.submit(errors('default', 'a', 'b')), queue.submit(errors('default', 'c'))]);
  expect([first, second]).toEqual([2, 1]);
  expect(stored()).toEqual({ messages: ['a', 'b', 'c'], grouped: 3 });

  const outcomes = await Promise.allSettled([queue.submit(errors('default', 'd')), queue.submit(errors('no-such-site', 'x')), queue.submit(errors('default', 'e'))]);
  expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  // The thread's failure crosses back as the store contract's error (unknownSiteError.ts), not as SQLite's.
  const reason = (outcomes[1] as PromiseRejectedResult).reason;
  expect(reason).toBeInstanceOf(UnknownSiteError);
  expect(reason).toMatchObject({ siteKey: 'no-such-site' });
  expect(stored().messages).toEqual(['a', 'b', 'c', 'd', 'e']);

  // Submitted, not awaited: close() commits it before the thread stops.
  const last = queue.submit(errors('default', 'f'));
  await queue.close();
  await expect(last).resolves.toBe(1);
  expect(stored()).toEqual({ messages: ['a', 'b', 'c', 'd', 'e', 'f'], grouped: 6 });
});

test('before the thread is ready the writes commit on this connection, and in order with the thread\'s after it', async () => {
  const db = openConnection(file, { sync: 'normal', cacheKiB: 1024 });
  let onThread = 0;
  const queue = sqliteReportQueue(db, { file, sync: 'normal', cacheKiB: 1024 }, () => onThread++);
  // At once: the thread has not started yet.
  expect(await queue.submit(errors('default', 'early'))).toBe(1);
  expect(onThread).toBe(0);
  expect(stored().messages).toEqual(['early']);
  // Writes without a pause, then until the thread has taken over (its start is slow on a loaded
  // machine), then a few more on the thread.
  const written: string[] = ['early'];
  const submitted: Array<Promise<number>> = [];
  let tookOver = -1;
  for (let n = 0; n < 50 || (tookOver < 0 && n < 5000) || n < tookOver + 20; n++) {
    if (tookOver < 0 && onThread) tookOver = n;
    written.push(`w${n}`);
    submitted.push(queue.submit(errors('default', `w${n}`)));
    if (n % 10 == 0) await new Promise((resolve) => setTimeout(resolve, 5));
  }
  expect(onThread).toBe(1);
  expect(await Promise.all(submitted)).toEqual(submitted.map(() => 1));
  await queue.close();
  db.close();
  expect(stored()).toEqual({ messages: written, grouped: written.length });
});
