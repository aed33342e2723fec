/**
 * A store that cannot take writes for a reason an operator must act on: its SQLite file deleted or
 * replaced while the collector had it open (sqlite/fileIdentity.ts), or its disk full
 * (sqlite/checkWritable.ts). `reason` is what `GET /api/health` says (no path: the answer needs no
 * credentials); the message, for the log, names the file. A write refused with it is answered 503
 * by every route (http/mountRoutes.ts), never 2xx: what it was to store would be lost.
 *
 * @example
 * throw new UnhealthyStoreError('the database file was deleted', 'the database file /data/sitebeacon.db was deleted while the collector had it open: restart the collector');
 */
export class UnhealthyStoreError extends Error {
  override readonly name = 'UnhealthyStoreError';
  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}
