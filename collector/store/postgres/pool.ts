import pg from 'pg';

/** int8 (COUNT, ids, ms times) and numeric (SUM of int8) as JS numbers: every value we keep is below 2^53. */
const NUMBER_TYPES = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);

/** How long a request waits for a connection (a new one, or a free one of the pool) before it is answered 503. */
const CONNECT_TIMEOUT_MS = 5000;

/**
 * A connection pool for one collector process. Its own type parsers (not pg's global ones), so
 * that nothing else in the process sees its choices.
 *
 * Database faults never end the process (README, "Several collectors on PostgreSQL"):
 * `pg` emits 'error' on a client whose connection breaks (the server stopped or restarted,
 * `pg_terminate_backend`), and an 'error' event without a listener is thrown by Node. The pool
 * listens on its idle clients (its own 'error' event, here); a checked-out client gets a listener
 * of its own when it connects, for a break between two of its queries. Either way pg marks the
 * client unusable: its caller's next query rejects, it is discarded on release, and the next
 * request opens a new connection, so the pool reconnects by itself once the server is back. Without a
 * connection within CONNECT_TIMEOUT_MS (an unreachable host) a request fails instead of hanging.
 *
 * @example
 * const pool = createPool('postgres://sitebeacon@db.internal/sitebeacon');
 */
export const createPool = (url: string, { max = 10 }: { max?: number } = {}) => {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'sitebeacon',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // A server that vanishes without closing the connection (a host down, a network cut) is
    // noticed by the kernel's keepalive probes, from 10 s of silence on, rather than never.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        NUMBER_TYPES.has(oid) ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {
    // pg has already removed the broken idle client; a query on it would have thrown to its caller.
  });
  pool.on('connect', (client) => {
    client.on('error', () => {
      // A checked-out client's query in progress rejects to its caller, and its next one rejects
      // too; the caller releases it broken (or pg sees it is not queryable) and it is discarded.
    });
  });
  return pool;
};

export type Pool = pg.Pool;
export type Client = pg.PoolClient;
