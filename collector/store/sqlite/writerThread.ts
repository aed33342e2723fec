// The SQLite file's threads (issue 18), built as dist/sqliteWriter.js and started by reportQueue.ts,
// each with a connection of its own, off the HTTP thread:
// - `writer`: the report writes. Messages, in order:
//     in:  { type: 'writes', writes: [id, ReportWrite][] }   { type: 'close' }
//     out: { type: 'ready' } (once it can write)   { type: 'done', outcomes: [id, WriteOutcome][] }
//          (after COMMIT)   { type: 'closed' }
// - `checkpoints`: the WAL's checkpoints (checkpoints.ts). in: { type: 'close' }; out: { type: 'closed' }.
import { parentPort, workerData } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { runCheckpoints } from './checkpoints';
import { openConnection, type Sync } from './openConnection';
import { createReportWriter, type ReportWrite } from './reportWrites';

export interface WriterData {
  file: string;
  sync: Sync;
  cacheKiB: number;
  /** What the thread does; `writer` by default. */
  role?: 'writer' | 'checkpoints';
}

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

if (role == 'checkpoints') {
  const stop = runCheckpoints(db);
  port.on('message', () => close(stop));
} else {
  serveWrites(db);
}
