import type { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';
import { READ_METHODS, sqliteReads, type SqliteReads } from './reads';
import { closeSqliteThread, startSqliteThread } from './sqliteThread';
import type { FromReader, ToReader, WriterData } from './writerThread';

type Concern = keyof SqliteReads;
type Read = { concern: Concern; method: string; args: unknown[]; resolve: (value: unknown) => void; reject: (error: unknown) => void };

/**
 * The report reads of an SQLite file on the reader thread (writerThread.ts, role `reader`): a
 * connection of its own, so that a read of a large site (a summary, the error groups of months of
 * reports) never holds the HTTP thread, and ingest goes on meanwhile (README, "Running it for
 * real"). Each read is a message; its promise resolves with what the same method returns on this
 * thread (the store contract suite runs through it). In WAL mode a read sees every commit made
 * before it started, the writer thread's included: a write's promise resolves after its commit.
 *
 * The thread starts with the first read (a command that reads nothing starts none); the reads sent
 * meanwhile wait in its port. A thread that cannot start (no script: a source run without
 * `npm run build`; a file it cannot open) leaves them, and every read after, to this thread's
 * connection `db`: the answers are the same, only the thread differs.
 *
 * @example
 * const { reads, close } = sqliteReadThread(db, { file, sync: 'normal', cacheKiB: 16_384 });
 * const groups = await reads.errors.groups(siteKey, { since, limit: 20 });
 * await close();
 */
export const sqliteReadThread = (db: Database, data: WriterData): { reads: SqliteReads; close(): Promise<void> } => {
  const here = sqliteReads(db) as unknown as Record<Concern, Record<string, (...args: unknown[]) => Promise<unknown>>>;
  let worker: Worker | undefined;
  let started = false;
  let ready = false;
  let closed = false;
  let nextId = 0;
  const waiting = new Map<number, Read>();

  const readHere = ({ concern, method, args, resolve, reject }: Read) => here[concern][method]!(...args).then(resolve, reject);
  /** The thread has stopped: the reads it had not answered are made here if it never started, failed otherwise. */
  const stopped = (thread: Worker, error: unknown) => {
    if (worker !== thread) return;
    worker = undefined;
    const unanswered = [...waiting.values()];
    waiting.clear();
    for (const read of unanswered) (ready ? read.reject(error) : readHere(read));
  };
  const start = () => {
    started = true;
    try {
      // The thread's objects live for one read: a small young generation, as the writer's.
      worker = startSqliteThread({ ...data, role: 'reader' }, { maxYoungGenerationSizeMb: 8 });
    } catch {
      return;
    }
    const thread = worker;
    thread.on('message', (message: FromReader) => {
      if (message.type == 'ready') ready = true;
      if (message.type != 'read') return;
      const read = waiting.get(message.id);
      waiting.delete(message.id);
      if (!waiting.size) thread.unref();
      if (!read) return;
      if (message.ok) read.resolve(message.value);
      else read.reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
    });
    thread.on('error', (error) => stopped(thread, error));
    thread.on('exit', () => stopped(thread, new Error('the SQLite reader thread stopped')));
  };
  const read = (concern: Concern, method: string, args: unknown[]) => {
    if (!started && !closed) start();
    const thread = worker;
    return new Promise<unknown>((resolve, reject) => {
      if (!thread) return void readHere({ concern, method, args, resolve, reject });
      const id = nextId++;
      waiting.set(id, { concern, method, args, resolve, reject });
      thread.ref();
      // Arguments and answers are plain data (site keys, options, rows): a structured clone keeps them.
      thread.postMessage({ type: 'read', id, concern, method, args } satisfies ToReader);
    });
  };
  const reads = Object.fromEntries(
    (Object.keys(READ_METHODS) as Concern[]).map((concern) => [
      concern,
      Object.fromEntries(READ_METHODS[concern].map((method) => [method, (...args: unknown[]) => read(concern, method, args)])),
    ]),
  ) as unknown as SqliteReads;
  return {
    reads,
    async close() {
      closed = true;
      const thread = worker;
      worker = undefined;
      // What was asked before the close is answered first (messages arrive in order).
      if (thread) await closeSqliteThread(thread);
    },
  };
};
