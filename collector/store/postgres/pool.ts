import pg from 'pg';

/** int8 (COUNT, ids, ms times) and numeric (SUM of int8) as JS numbers: every value we keep is below 2^53. */
const NUMBER_TYPES = new Set([pg.types.builtins.INT8, pg.types.builtins.NUMERIC]);

/**
 * A connection pool for one collector process. Its own type parsers (not pg's global ones), so
 * that nothing else in the process sees its choices. An idle connection's error (the server
 * restarted) removes that connection only: the next query opens a new one.
 *
 * @example
 * const pool = createPool('postgres://sitebeacon@db.internal/sitebeacon');
 */
export const createPool = (url: string, { max = 10 }: { max?: number } = {}) => {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    application_name: 'sitebeacon',
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        NUMBER_TYPES.has(oid) ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', () => {
    // pg has already removed the broken idle client; a query on it would have thrown to its caller.
  });
  return pool;
};

export type Pool = pg.Pool;
export type Client = pg.PoolClient;
