import type { Database } from 'better-sqlite3';
import type { AlertStore } from '../contract/alerts';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';

/**
 * `logDelivery` in SQLite (store/contract/alerts.ts): a delivery tried already (a test) written as it
 * ended, in the group commit; no due time, so the delivery never claims it.
 *
 * @example
 * const logDelivery = sqliteLogDelivery(db, write);
 * await logDelivery({ ...row, status: 'sent', tries: 1, sent_at: Date.now() });
 */
export const sqliteLogDelivery = (db: Database, write: Write): AlertStore['logDelivery'] => {
  const requireSite = siteCheck(db);
  const insert = db.prepare(
    `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, last_error, created_at, sent_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
  );
  return (row) =>
    write(() => {
      requireSite(row.site_key);
      insert.run(row.id, row.site_key, row.rule, row.fingerprint, JSON.stringify(row.channel), JSON.stringify(row.payload), row.status, row.tries, row.last_error, row.created_at, row.sent_at);
    });
};
