import type { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { createReportWriter, type ReportQueue, type ReportWrite, type WriteOutcome } from './reportWrites';
import { UnknownSiteError } from '../unknownSiteError';
import { closeSqliteThread, startCheckpointThread, startSqliteThread } from './sqliteThread';
import type { FromWriter, ToWriter, WriterData } from './writerThread';

const settle = (outcome: WriteOutcome, resolve: (value: number) => void, reject: (error: unknown) => void) => {
  if (outcome.ok) return resolve(outcome.value);
  if (outcome.error.unknownSite !== undefined) return reject(new UnknownSiteError(outcome.error.unknownSite));
  reject(Object.assign(new Error(outcome.error.message), outcome.error.code ? { code: outcome.error.code } : {}));
};

/**
 * The report writes of an SQLite file on the writer thread (writerThread.ts), which has its own
 * connection (docs/durability.md): the HTTP thread never waits on SQLite for a report. The writes of one turn
 * of the event loop go over as one message; each write's promise resolves when the thread says its
 * group has committed, so a 2xx still follows the commit, and a SIGKILL loses nothing acknowledged.
 * The thread starts at once (a cold start takes a while on a loaded machine: not on the first
 * report's time), and keeps the process alive only while writes are under way.
 *
 * @example
 * const queue = threadedReportQueue({ file, sync: 'normal', cacheKiB: 4_096 });
 * await queue.submit({ kind: 'errors', siteKey, reports, context }); // committed here
 */
export const threadedReportQueue = (data: WriterData, onReady?: () => void): ReportQueue => {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve: (value: number) => void; reject: (error: unknown) => void }>();
  let outgoing: Array<[number, ReportWrite]> = [];
  let scheduled = false;

  const failAll = (error: unknown) => {
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  const start = () => {
    // A young generation far smaller than V8's default (docs/performance.md, "Memory"): the
    // thread's objects live for one commit. Measured with the soak and the CPU-per-report bench:
    // the smaller size saves memory for a little CPU per batched report (more scavenges), and with
    // the writer's small page cache it pays for the checkpoint thread's memory.
    const thread = startSqliteThread(data, { maxYoungGenerationSizeMb: 4 });
    thread.on('message', (message: FromWriter) => {
      if (message.type == 'ready') onReady?.();
      if (message.type != 'done') return;
      for (const [id, outcome] of message.outcomes) {
        const promise = waiting.get(id);
        waiting.delete(id);
        if (promise) settle(outcome, promise.resolve, promise.reject);
      }
      if (!waiting.size) thread.unref();
    });
    thread.on('error', (error) => {
      if (worker === thread) worker = undefined;
      failAll(error);
    });
    thread.on('exit', () => {
      if (worker === thread) worker = undefined;
      failAll(new Error('the SQLite writer thread stopped'));
    });
    return thread;
  };
  worker = start();
  const send = () => {
    scheduled = false;
    if (!outgoing.length) return;
    worker ??= start();
    worker.ref();
    worker.postMessage({ type: 'writes', writes: outgoing } satisfies ToWriter);
    outgoing = [];
  };
  return {
    submit(write) {
      return new Promise<number>((resolve, reject) => {
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        outgoing.push([id, write]);
        if (!scheduled) {
          scheduled = true;
          setImmediate(send);
        }
      });
    },
    async close() {
      send();
      const thread = worker;
      if (!thread) return;
      worker = undefined;
      await closeSqliteThread(thread);
    },
  };
};

/**
 * The same queue on this thread's connection, for an in-memory database (which another thread
 * cannot open): the writes of one turn of the event loop in one transaction.
 *
 * @example
 * const queue = inThreadReportQueue(db);
 */
export const inThreadReportQueue = (db: Database): ReportQueue & { flush(): void } => {
  const writer = createReportWriter(db);
  let pending: Array<{ write: ReportWrite; resolve: (value: number) => void; reject: (error: unknown) => void }> = [];
  let scheduled = false;
  const commit = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (!batch.length || !db.open) return;
    writer.commitGroup(batch.map(({ write }) => write)).forEach((outcome, index) => settle(outcome, batch[index]!.resolve, batch[index]!.reject));
  };
  return {
    submit(write) {
      return new Promise<number>((resolve, reject) => {
        pending.push({ write, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(commit);
        }
      });
    },
    /** Commits what is queued, now. */
    flush: () => commit(),
    async close() {
      commit();
    },
  };
};

/**
 * The report writes of an SQLite file: on the writer thread (threadedReportQueue) once it is ready,
 * and on this thread's connection (inThreadReportQueue) until then. The threads (the writer and the
 * checkpoint thread, sqliteThread.ts) start with the first report: a command that writes none
 * (`site add`, `export`) starts none. A thread's cold start takes from a tenth of a second to a
 * second on a loaded machine; the first reports need not wait for it, and a thread that cannot
 * start leaves the writes here. What was queued here is committed before the first write goes to
 * the thread, so writes still commit in the order they were made.
 *
 * @example
 * const queue = sqliteReportQueue(db, { file, sync: 'normal', cacheKiB: 4_096 });
 */
export const sqliteReportQueue = (db: Database, data: WriterData, onThread?: () => void): ReportQueue => {
  const here = inThreadReportQueue(db);
  let ready = false;
  let threads: { writer: ReportQueue; checkpoints: { close(): Promise<void> } } | undefined;
  const start = () => ({
    writer: threadedReportQueue(data, () => {
      here.flush();
      ready = true;
      onThread?.();
    }),
    checkpoints: startCheckpointThread(data),
  });
  let started = false;
  return {
    submit(write) {
      if (!started) {
        started = true;
        // A thread that cannot even be made (no script: a source run without `npm run build`) leaves
        // every write here, as one that fails to start does; the reports are stored either way.
        try {
          threads = start();
        } catch {
          threads = undefined;
        }
      }
      return (ready && threads ? threads.writer : here).submit(write);
    },
    async close() {
      await here.close();
      await threads?.writer.close();
      await threads?.checkpoints.close();
    },
  };
};
