import type { Database } from 'better-sqlite3';
import { raisedEntries, type RaisedAlert } from '../../core/alerts/raised';
import { inCooldown } from '../../core/alerts/rules';

/**
 * Writes raised alerts (core/alerts/raised.ts) in the caller's transaction: the store's `raise`
 * (serve's periodic evaluation) and the writer thread's ingest (a new enforced CSP block). Each is
 * skipped while its rule's last alert of its subject is within the cooldown; each row is inserted
 * under its key unless one has it already. Returns the rows written.
 *
 * @example
 * const raise = createRaiser(db);
 * db.transaction(() => raise(raised))();
 */
export const createRaiser = (db: Database) => {
  const selectLast = db
    .prepare<[string, string, string], number | null>('SELECT max(created_at) FROM alert_outbox WHERE site_key = ? AND fingerprint = ? AND rule = ?')
    .pluck();
  const insert = db.prepare(
    `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  return (raised: readonly RaisedAlert[]): number => {
    let written = 0;
    for (const alert of raised) {
      const last = selectLast.get(alert.site_key, alert.subject, alert.rule) ?? undefined;
      if (inCooldown(last, alert.cooldown_minutes, alert.created_at)) continue;
      for (const entry of raisedEntries(alert)) {
        const { id, site_key, rule, fingerprint, channel, payload, created_at } = entry;
        written += insert.run(id, site_key, rule, fingerprint, JSON.stringify(channel), JSON.stringify(payload), created_at, created_at).changes;
      }
    }
    return written;
  };
};
