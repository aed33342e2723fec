import { StoreUnavailableError } from '../storeUnavailableError';
import type { Store } from '../contract';

/** Socket errors of a server that is gone, unreachable or refusing connections. */
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs of a database that is there but cannot serve now (PostgreSQL's documentation, Appendix A,
 * "PostgreSQL Error Codes"): class 08, connection exception; 57P01 admin_shutdown (a fast shutdown, or
 * `pg_terminate_backend`), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting
 * down), 57P05 idle session timeout; 53300 too_many_connections; 25006 read_only_sql_transaction (a
 * standby, as during a failover: health reports the same, checkWritable.ts).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[1235]|53300|25006)$/;

/**
 * `pg`'s own words for a connection that ended or could not be used (it gives them no code): the
 * server closed it, it broke earlier, or no connection came within the pool's connection timeout.
 */
const DRIVER_MESSAGES = /^(Connection terminated|Client has encountered a connection error|Client was closed|timeout exceeded when trying to connect)/;

/**
 * Whether an error of the PostgreSQL driver says the database is unreachable or dropped the
 * connection, rather than that the statement was wrong: a request that failed so may succeed as
 * it is once the database is back.
 *
 * @example
 * isConnectionFault(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // true
 * isConnectionFault(Object.assign(new Error('syntax error'), { code: '42601' })); // false
 */
export const isConnectionFault = (error: unknown): boolean => {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError) return error.errors.some(isConnectionFault); // every address of a host refused
  const code = (error as { code?: unknown }).code;
  if (typeof code == 'string' && (SOCKET_ERRORS.has(code) || UNAVAILABLE_STATES.test(code))) return true;
  return DRIVER_MESSAGES.test(error.message);
};

const translate = (error: unknown): never => {
  throw isConnectionFault(error) ? new StoreUnavailableError(error) : error;
};

/**
 * The store with every call's connection faults (isConnectionFault) rejected as
 * StoreUnavailableError, the one rejection routes answer 503 `database_unavailable`. Every method
 * of every part, as siteCache.ts wraps them: a method added later is covered too.
 *
 * @example
 * return withConnectionFaults({ ...parts, checkWritable, close });
 */
export const withConnectionFaults = (store: Store): Store => {
  const wrap = (method: (...args: unknown[]) => unknown, self: object) => (...args: unknown[]) => {
    const result = method.apply(self, args);
    return result instanceof Promise ? result.catch(translate) : result;
  };
  return Object.fromEntries(
    Object.entries(store).map(([name, part]: [string, unknown]) => {
      if (typeof part == 'function') return [name, name == 'close' ? part : wrap(part as (...args: unknown[]) => unknown, store)];
      if (typeof part != 'object' || part === null) return [name, part];
      return [name, Object.fromEntries(Object.entries(part).map(([key, value]: [string, unknown]) => [key, typeof value == 'function' ? wrap(value as (...args: unknown[]) => unknown, part) : value]))];
    }),
  ) as unknown as Store;
};
