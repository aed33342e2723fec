import { Worker, type ResourceLimits } from 'node:worker_threads';
import type { FromWriter, ToWriter, WriterData } from './writerThread';

/**
 * Where the threads' script is: dist/sqliteWriter.js, as rollup emits it from writerThread.ts
 * (rollup.config.mjs puts its URL here); under vitest, the bundle
 * collector/testing/buildSqliteWriter.ts makes of the same sources before the tests (vitest.config.ts).
 */
declare const __SITEBEACON_SQLITE_WRITER_URL__: string | undefined;

/**
 * The threads' script. Sources run without a bundler (Playwright's loader runs sitebeacon/playwright's
 * collector from them in this repository's e2e tests) have no URL defined: they use the built one,
 * dist/sqliteWriter.js (`npm run build`), as the sources' layout places it.
 */
const writerUrl = () =>
  typeof __SITEBEACON_SQLITE_WRITER_URL__ == 'string'
    ? new URL(__SITEBEACON_SQLITE_WRITER_URL__)
    : new URL('../../../dist/sqliteWriter.js', import.meta.url);

/**
 * Starts one of the SQLite file's threads (writerThread.ts), unref'd: it keeps the process alive
 * only when its owner refs it.
 *
 * @example
 * const thread = startSqliteThread({ file, sync: 'normal', cacheKiB: 1024, role: 'checkpoints' }, { maxYoungGenerationSizeMb: 1 });
 */
export const startSqliteThread = (data: WriterData, resourceLimits: ResourceLimits) => {
  const thread = new Worker(writerUrl(), { workerData: data, resourceLimits });
  thread.unref();
  return thread;
};

/** Asks a thread to commit what it has and close its file; resolves once it has, or has ended. */
export const closeSqliteThread = async (thread: Worker) => {
  thread.ref();
  await new Promise<void>((resolve) => {
    thread.on('message', (message: FromWriter) => message.type == 'closed' && resolve());
    thread.once('exit', () => resolve());
    thread.postMessage({ type: 'close' } satisfies ToWriter);
  });
  await thread.terminate();
};

/**
 * The checkpoint thread of an SQLite file (checkpoints.ts): small, as it only asks SQLite to
 * checkpoint ten times a second. A thread that fails leaves the connections' own automatic
 * checkpoint (openConnection.ts) to bound the WAL.
 *
 * @example
 * const checkpoints = startCheckpointThread({ file, sync: 'normal' });
 * await checkpoints.close();
 */
export const startCheckpointThread = ({ file, sync }: Pick<WriterData, 'file' | 'sync'>) => {
  const thread = startSqliteThread({ file, sync, cacheKiB: 256, role: 'checkpoints' }, { maxYoungGenerationSizeMb: 1, maxOldGenerationSizeMb: 16 });
  let ended = false;
  thread.once('exit', () => (ended = true));
  thread.on('error', () => {});
  return { close: async () => (ended ? undefined : closeSqliteThread(thread)) };
};
