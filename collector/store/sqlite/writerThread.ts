// The writer thread (issue 18): the SQLite file's report writes, on a connection of their own, off
// the HTTP thread. Started by reportQueue.ts (built as dist/sqliteWriter.js); messages in order:
//   in:  { type: 'writes', writes: [id, ReportWrite][] }   { type: 'close' }
//   out: { type: 'ready' } (once it can write)   { type: 'done', outcomes: [id, WriteOutcome][] }
//        (after COMMIT)   { type: 'closed' }
import { parentPort, workerData } from 'node:worker_threads';
import { openConnection, type Sync } from './openConnection';
import { createReportWriter, type ReportWrite } from './reportWrites';

export interface WriterData {
  file: string;
  sync: Sync;
  cacheKiB: number;
}

export type ToWriter = { type: 'writes'; writes: Array<[number, ReportWrite]> } | { type: 'close' };
export type FromWriter =
  | { type: 'ready' }
  | { type: 'done'; outcomes: Array<[number, ReturnType<ReturnType<typeof createReportWriter>['commitGroup']>[number]]> }
  | { type: 'closed' };

const port = parentPort!;
const { file, sync, cacheKiB } = workerData as WriterData;
const db = openConnection(file, { sync, cacheKiB });
const writer = createReportWriter(db);
const post = (message: FromWriter) => port.postMessage(message);
post({ type: 'ready' });

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

port.on('message', (message: ToWriter) => {
  if (message.type == 'writes') {
    for (const write of message.writes) pending.push(write);
    if (!scheduled) {
      scheduled = true;
      setImmediate(commit);
    }
    return;
  }
  // Close: what was sent before is committed first (messages arrive in order), then the file is released.
  commit();
  db.close();
  post({ type: 'closed' });
  port.close();
});
