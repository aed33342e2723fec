import type { Pool } from './pool';

/** How long the probe may take (a lost server, a lock held elsewhere): then it says so. */
const PROBE_MS = 1000;

// Rewrites the schema's newest version row with itself, then rolls back: it needs a connection, a
// transaction that may write (not a read-only one, not a standby), the privilege to write the
// store's tables and their row lock, and it changes nothing.
const PROBE = `UPDATE sitebeacon_schema SET version = version WHERE version = (SELECT max(version) FROM sitebeacon_schema)`;

/**
 * Resolves when the database takes a write now (contract.ts, Store.checkWritable), rejects with
 * PostgreSQL's reason ("cannot execute UPDATE in a read-only transaction", a refused connection)
 * or after PROBE_MS without an answer. A probe that outlives its answer returns its connection
 * when it ends. `GET /api/health` runs it, so a load balancer takes away a collector that cannot
 * store what it would acknowledge.
 *
 * @example
 * await checkWritable(pool); // throws 'no answer from PostgreSQL within 1000 ms' when the server is gone
 */
export const checkWritable = async (pool: Pool) => {
  const probe = (async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL statement_timeout = ${PROBE_MS}`);
      await client.query(`SET LOCAL lock_timeout = ${PROBE_MS}`);
      await client.query(PROBE);
    } finally {
      await client.query('ROLLBACK').catch((error: Error) => (broken = error));
      client.release(broken);
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from PostgreSQL within ${PROBE_MS} ms`)), PROBE_MS);
  });
  try {
    await Promise.race([probe, late]);
  } finally {
    clearTimeout(timer);
    // A probe that lost the race may still fail: handled here, not an unhandled rejection.
    probe.catch(() => {});
  }
};
