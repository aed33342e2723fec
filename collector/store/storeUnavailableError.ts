/**
 * The rejection of any store call that failed because the database could not be reached or lost
 * the connection (a PostgreSQL server stopped, restarting, or ending the collector's backend), not
 * because of what was asked. Nothing that rejects with it was acknowledged; a write may or may not
 * have committed (a connection lost during COMMIT cannot tell). Every route answers it 503
 * `database_unavailable` with `Retry-After` (http/mountRoutes.ts): the request may simply be sent
 * again, and the store reconnects by itself once the database is back (README, "Several
 * collectors on PostgreSQL").
 *
 * @example
 * await store.errors.insert(siteKey, reports, context).catch((error) => {
 *   if (error instanceof StoreUnavailableError) return retryLater(); // error.cause: the driver's error
 *   throw error;
 * });
 */
export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  constructor(cause: unknown) {
    super(`the database is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}
