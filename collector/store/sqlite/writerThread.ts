// The SQLite file's threads (docs/performance.md, "The writer thread"), built as dist/sqliteWriter.js and started by reportQueue.ts,
// each with a connection of its own, off the HTTP thread:
// - `writer`: the report writes. Messages, in order:
//     in:  { type: 'writes', writes: [id, ReportWrite][] }   { type: 'close' }
//     out: { type: 'ready' } (once it can write)   { type: 'done', outcomes: [id, WriteOutcome][] }
//          (after COMMIT)   { type: 'closed' }
// - `checkpoints`: the WAL's checkpoints (checkpoints.ts). in: { type: 'close' }; out: { type: 'closed' }.
// - `reader`: the report reads (reads.ts, readThread.ts), on a connection that may not write
//   (`query_only`). Messages, answered in the order they arrive:
//     in:  { type: 'read', id, concern, method, args }   { type: 'close' }
//     out: { type: 'ready' }   { type: 'read', id, ok, value | message }   { type: 'closed' }
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { runCheckpoints } from './checkpoints';
import { openConnection, type Sync } from './openConnection';
import { registerP75 } from './p75';
import { sqliteReads, type SqliteReads } from './reads';
import { createReportWriter, type ReportWrite } from './reportWrites';

export interface WriterData {
  file: string;
  sync: Sync;
  cacheKiB: number;
  /** What the thread does; `writer` by default. */
  role?: 'writer' | 'checkpoints' | 'reader';
}

/** A read for the reader thread: a method of one concern of SqliteReads, and its arguments. */
export type ToReader = { type: 'read'; id: number; concern: keyof SqliteReads; method: string; args: unknown[] } | { type: 'close' };
export type FromReader =
  | { type: 'ready' }
  | { type: 'read'; id: number; ok: true; value: unknown }
  | { type: 'read'; id: number; ok: false; message: string; code?: string }
  | { type: 'closed' };

export type ToWriter = { type: 'writes'; writes: Array<[number, ReportWrite]> } | { type: 'close' };
export type FromWriter =
  | { type: 'ready' }
  | { type: 'done'; outcomes: Array<[number, ReturnType<ReturnType<typeof createReportWriter>['commitGroup']>[number]]> }
  | { type: 'closed' };

const port = parentPort!;
const post = (message: FromWriter) => port.postMessage(message);
const { file, sync, cacheKiB, role = 'writer' } = workerData as WriterData;
const db = openConnection(file, { sync, cacheKiB });

/** Commits what is pending, closes the file, says so and ends the thread. */
const close = (commitPending: () => void) => {
  commitPending();
  db.close();
  post({ type: 'closed' });
  port.close();
};

const serveWrites = (db: Database) => {
  const writer = createReportWriter(db);
  let pending: Array<[number, ReportWrite]> = [];
  let scheduled = false;
  /**
   * Every write that arrived while the last commit ran (messages are delivered between turns) goes
   * into the next one: the busier the collector, the larger the groups.
   */
  const commit = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (!batch.length) return;
    const outcomes = writer.commitGroup(batch.map(([, write]) => write));
    post({ type: 'done', outcomes: batch.map(([id], index) => [id, outcomes[index]!]) });
  };
  post({ type: 'ready' });
  port.on('message', (message: ToWriter) => {
    if (message.type == 'writes') {
      for (const write of message.writes) pending.push(write);
      if (!scheduled) {
        scheduled = true;
        setImmediate(commit);
      }
      return;
    }
    // What was sent before the close is committed first (messages arrive in order).
    close(commit);
  });
};

/**
 * The reader's nice value, above the process's: where the cores are busy, the HTTP and writer
 * threads (ingest) get them first, and the reads what is left; on an idle machine the reads run at
 * full speed all the same. Linux only: there a thread's nice value is its own (setpriority(2),
 * "BUGS"), and `setPriority(n)` without a pid is the calling thread's; elsewhere it would be the
 * whole process's.
 */
const READER_NICE = 10;

const serveReads = (db: Database) => {
  if (process.platform == 'linux') {
    try {
      setPriority(READER_NICE);
    } catch {
      // Not allowed (a seccomp policy): the reads keep the process's priority.
    }
  }
  db.pragma('query_only = ON');
  registerP75(db);
  const reads = sqliteReads(db) as unknown as Record<string, Record<string, (...args: unknown[]) => Promise<unknown>>>;
  const answer = (message: FromReader) => port.postMessage(message);
  answer({ type: 'ready' });
  port.on('message', (message: ToReader) => {
    if (message.type == 'close') return close(() => {});
    const { id, concern, method, args } = message;
    // Each read runs to its end within this call (better-sqlite3 is synchronous): one at a time.
    reads[concern]![method]!(...args).then(
      (value) => answer({ type: 'read', id, ok: true, value }),
      (error: { message?: string; code?: string }) =>
        answer({ type: 'read', id, ok: false, message: String(error?.message ?? error), ...(error?.code ? { code: error.code } : {}) }),
    );
  });
};

if (role == 'reader') {
  serveReads(db);
} else if (role == 'checkpoints') {
  const stop = runCheckpoints(db);
  port.on('message', () => close(stop));
} else {
  serveWrites(db);
}
