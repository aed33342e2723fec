import type { Database } from 'better-sqlite3';

interface PendingWrite {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: every write that arrives within one turn of the event loop runs in one
 * transaction, and each write's promise resolves only after that transaction has committed.
 * Throughput then depends on the number of commits, not the number of requests. When one write
 * fails the group is rolled back and each write is committed alone, so only that one fails.
 *
 * @example
 * const { write } = createGroupCommit(db);
 * await write(() => insert.run(row)); // durable here
 */
export const createGroupCommit = (db: Database) => {
  let pending: PendingWrite[] = [];
  let scheduled = false;
  const commit = () => {
    scheduled = false;
    const writes = pending;
    pending = [];
    if (!writes.length || !db.open) return;
    let values: unknown[];
    // BEGIN IMMEDIATE: the write lock is taken first, waiting out other processes (busy_timeout).
    // A deferred transaction that reads before it writes (the CSP merge looks for a stored copy
    // first) fails at once with SQLITE_BUSY when another process commits between its read and its
    // write (a stale WAL snapshot cannot be upgraded), and busy_timeout does not retry that.
    try {
      values = db.transaction(() => writes.map((write) => write.run())).immediate();
    } catch {
      for (const write of writes) {
        try {
          write.resolve(db.transaction(write.run).immediate());
        } catch (error) {
          write.reject(error);
        }
      }
      return;
    }
    writes.forEach((write, index) => write.resolve(values[index]));
  };
  /** Queues a write for the next group commit; resolves after that commit. */
  const write = <T>(run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(commit);
      }
    });
  /** Commits what is queued now (before the database closes). */
  const flush = () => {
    if (pending.length) commit();
  };
  return { write, flush };
};

export type Write = ReturnType<typeof createGroupCommit>['write'];
