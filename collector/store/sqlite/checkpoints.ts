import type { Database } from 'better-sqlite3';

/** How often the WAL is checkpointed, without waiting for anyone (PASSIVE). */
const EVERY_MS = 100;
/**
 * WAL frames past which the checkpoint waits for the writer (RESTART) so that the WAL starts over.
 * PASSIVE checkpoints copy the WAL into the database while the writer goes on, but under a steady
 * stream of commits the WAL is never found all copied, and only then can it start over: without
 * this it would grow without end. 64 MiB: a restart every few seconds at the ingest bench's rates.
 */
const RESTART_FRAMES = 16_384;

/**
 * Checkpoints of the SQLite file, on a connection and a thread of their own (the checkpoint role
 * of writerThread.ts; docs/performance.md, "The writer thread"): a checkpoint fsyncs the WAL and
 * the database, which takes long on a slow disk, and inside the writer's commits, as SQLite's
 * automatic checkpoint runs it, it held every report of the commits behind it (p99) and took much
 * of the writer's time (measured with bench/cpuPerReport.mjs, batches of 50). Runs until the function it returns is called.
 *
 * @example
 * const stop = runCheckpoints(db);
 */
export const runCheckpoints = (db: Database, { everyMs = EVERY_MS, restartFrames = RESTART_FRAMES } = {}) => {
  const timer = setInterval(() => {
    try {
      const [result] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
      if (result && result.log > restartFrames) db.pragma('wal_checkpoint(RESTART)');
    } catch {
      // Busy or failing now (a lock held elsewhere, a full disk): the next turn tries again, and
      // the connections' own automatic checkpoint (openConnection.ts) bounds the WAL meanwhile.
    }
  }, everyMs);
  return () => clearInterval(timer);
};
