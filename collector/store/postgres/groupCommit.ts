import { UnknownSiteError } from '../unknownSiteError';
import { Batch } from './batch';
import { isConnectionFault } from './connectionFault';
import type { Client, Pool } from './pool';

/** One write of a group: rows it adds to the group's batch, and/or statements run after the batch. */
export interface GroupWrite<T> {
  add?: (batch: Batch) => T;
  run?: (client: Client) => Promise<T>;
  /** The site the write stores rows under (contract.ts, UnknownSiteError): if no site has it, it rejects with UnknownSiteError. */
  siteKey?: string | undefined;
}

interface PendingWrite extends GroupWrite<unknown> {
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** Deadlock and serialization failure: the transaction did nothing and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;
/**
 * Class 23, integrity constraint violation: a row under a site key that `sites` does not have (any
 * longer) fails its foreign key (23503), or first a unique column that the rotation moved to the
 * new key (23505: a WordPress install's `site_url`, registered again under the old key); unique
 * indexes are checked as the row is inserted, foreign keys at the end of the statement.
 */
const CONSTRAINT_VIOLATION = /^23/;

/** Which of `siteKeys` no site has; none when the database cannot say (the caller then falls back). */
const missingSites = async (pool: Pool, siteKeys: Set<string>) => {
  try {
    const { rows } = await pool.query<{ site_key: string }>('SELECT site_key FROM sites WHERE site_key = ANY($1::text[])', [[...siteKeys]]);
    for (const { site_key } of rows) siteKeys.delete(site_key);
    return siteKeys;
  } catch {
    return new Set<string>();
  }
};

/**
 * Group commit, as sqlite/groupCommit.ts: every write that arrives within one turn of the event
 * loop goes into one transaction (its rows into one multi-row INSERT per table, batch.ts), and each
 * write's promise resolves only after COMMIT. While a group is committing, new writes wait and go
 * together into the next group: the busier the process, the larger its groups. One group at a time
 * (`maxInFlight` 1) keeps a process's writes in the order they were made: two groups in flight
 * could commit the later one first, and an older metric value would overwrite a newer one.
 * When a group fails it is rolled back and each write is committed alone, so only the faulty one
 * fails; a deadlock with another process is retried first; a lost connection (connectionFault.ts)
 * fails the whole group at once, and the next group takes a new connection. A constraint failure (a foreign key's,
 * mostly) comes from a write under a site key that another process rotated after this one looked
 * it up (siteCache.ts keeps a site for 5 s): one query finds which of the group's keys no site has, their writes reject
 * with UnknownSiteError, and the rest commit again as one group, not one by one: one extra query
 * and transaction, not one per write (a SAVEPOINT per write would cost two round trips on every
 * write of every group instead). The site cache forgets the key on the first such rejection, so
 * this happens about once per rotated key and process.
 *
 * @example
 * const { write } = createGroupCommit(pool);
 * await write({ add: (batch) => batch.addErrors(siteKey, reports, context) }); // durable here
 */
export const createGroupCommit = (pool: Pool, { maxInFlight = 1 }: { maxInFlight?: number } = {}) => {
  let pending: PendingWrite[] = [];
  let scheduled = false;
  const inFlight = new Set<Promise<void>>();

  const transaction = async (writes: PendingWrite[]) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      // Rows go into the batch until a write has statements of its own: the batch is written
      // before them, so that rows and statements are applied in the order the writes were made.
      let batch = new Batch();
      const values: unknown[] = [];
      for (const [index, write] of writes.entries()) {
        if (write.add) values[index] = write.add(batch);
        if (!write.run) continue;
        await batch.write(client);
        batch = new Batch();
        values[index] = await write.run(client);
      }
      await batch.write(client);
      await client.query('COMMIT');
      return values;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
      throw error;
    } finally {
      client.release(broken);
    }
  };

  const attempt = async (writes: PendingWrite[]) => {
    for (let tries = 1; ; tries++) {
      try {
        return await transaction(writes);
      } catch (error) {
        if (tries >= ATTEMPTS || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  };

  const commit = async (writes: PendingWrite[]): Promise<void> => {
    let failure: unknown;
    try {
      const values = await attempt(writes);
      writes.forEach((write, index) => write.resolve(values[index]));
      return;
    } catch (error) {
      failure = error;
    }
    const siteKeys = new Set(writes.flatMap((write) => (write.siteKey === undefined ? [] : [write.siteKey])));
    const unknown =
      CONSTRAINT_VIOLATION.test((failure as { code?: string } | undefined)?.code ?? '') && siteKeys.size
        ? await missingSites(pool, siteKeys)
        : new Set<string>();
    if (unknown.size) {
      const rest: PendingWrite[] = [];
      for (const write of writes) {
        if (write.siteKey !== undefined && unknown.has(write.siteKey)) write.reject(new UnknownSiteError(write.siteKey));
        else rest.push(write);
      }
      // Every key in `unknown` is some write's: each pass commits fewer writes, so this ends.
      if (rest.length) await commit(rest);
      return;
    }
    // A lost database fails every write alike: each rejects now (answered 503, store/storeUnavailableError.ts)
    // rather than one by one, a connection attempt each, while requests pile up behind the group.
    if (writes.length == 1 || isConnectionFault(failure)) return writes.forEach((write) => write.reject(failure));
    for (const write of writes) await commit([write]);
  };

  const start = () => {
    scheduled = false;
    if (!pending.length || inFlight.size >= maxInFlight) return;
    const writes = pending;
    pending = [];
    const running = commit(writes).finally(() => {
      inFlight.delete(running);
      schedule();
    });
    inFlight.add(running);
  };

  const schedule = () => {
    if (scheduled || !pending.length || inFlight.size >= maxInFlight) return;
    scheduled = true;
    setImmediate(start);
  };

  /** Queues a write for the next group commit; resolves after that commit (to what its `add` or `run` gave, awaited). */
  const write = <T>(entry: GroupWrite<T>): Promise<Awaited<T>> =>
    new Promise<Awaited<T>>((resolve, reject) => {
      pending.push({ ...entry, resolve: resolve as (value: unknown) => void, reject });
      schedule();
    });

  /** Commits what is queued and waits for every group in flight (before the pool closes). */
  const flush = async () => {
    while (pending.length || inFlight.size) {
      if (pending.length && inFlight.size < maxInFlight) start();
      await Promise.race(inFlight);
    }
  };
  return { write, flush };
};

export type Write = ReturnType<typeof createGroupCommit>['write'];
