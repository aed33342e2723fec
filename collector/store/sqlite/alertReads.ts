import type { Database } from 'better-sqlite3';
import { p75Rank } from '../../core/vitals';
import type { AlertStore } from '../contract/alerts';
import { outboxFromRow, ruleFromRow, type AlertRuleRow, type OutboxRowRecord } from '../alertRows';
import type { Write } from './groupCommit';

/**
 * What serve's periodic alert evaluation reads in SQLite (store/contract/alerts.ts: periodicRules,
 * spikeCounts, vitalP75), the digest's claim of a channel's waiting rows, and the outbox's
 * retention (docs/alerts.md, "The outbox").
 *
 * @example
 * const reads = sqliteAlertReads(db, write);
 * await reads.spikeCounts('shop', { since, until, fromDay, toDay, limit: 100 });
 */
export const sqliteAlertReads = (
  db: Database,
  write: Write,
): Pick<AlertStore, 'claimWaiting' | 'periodicRules' | 'spikeCounts' | 'vitalP75' | 'pruneOutbox' | 'active'> => {
  const claimWaiting = db.prepare<[number, string, string, number, number], OutboxRowRecord>(
    `UPDATE alert_outbox SET next_attempt_at = ? WHERE id IN (
       SELECT id FROM alert_outbox WHERE status = 'pending' AND tries = 0 AND rule <> 'digest' AND site_key = ? AND channel = ? AND next_attempt_at <= ?
       ORDER BY created_at LIMIT ?) RETURNING *`,
  );
  const periodicRules = db.prepare<[], AlertRuleRow & { site_name: string }>(
    `SELECT r.*, s.name AS site_name FROM alert_rules r JOIN sites s ON s.site_key = r.site_key
     WHERE r.kind IN ('spike', 'vital_poor') ORDER BY r.id`,
  );
  const windowCounts = db.prepare<[string, number, number, number], { fingerprint: string; occurrences: number }>(
    `SELECT fingerprint, sum(coalesce(count, 1)) AS occurrences FROM error_reports
     WHERE site_key = ? AND received_at >= ? AND received_at < ? GROUP BY fingerprint ORDER BY occurrences DESC, fingerprint LIMIT ?`,
  );
  const baseline = db
    .prepare<[string, string, number, number], number>('SELECT coalesce(sum(count), 0) FROM error_groups WHERE site_key = ? AND fingerprint = ? AND day >= ? AND day < ?')
    .pluck();
  // The range's sessions by their index (a metric updated in it is of a session updated since its
  // start), then each one's metric by its key: the work is the range's, not the site's whole history.
  const values = db
    .prepare<[string, string, number, number, number], number>(
      `SELECT m.value FROM performance_sessions s JOIN performance_metrics m ON m.session_row = s.id AND m.name = ?
       WHERE s.site_key = ? AND s.updated_at >= ? AND m.updated_at >= ? AND m.updated_at < ?`,
    )
    .pluck();
  const active = db.prepare<[], number>(
    `SELECT EXISTS (SELECT 1 FROM alert_rules) OR EXISTS (SELECT 1 FROM users WHERE alert_email = 1)
  OR EXISTS (SELECT 1 FROM alert_outbox WHERE status IN ('pending', 'retrying')) AS active`,
  ).pluck();
  const prune = db.prepare(
    `DELETE FROM alert_outbox WHERE id IN (
       SELECT id FROM alert_outbox WHERE status IN ('sent', 'failed', 'digested') AND created_at < ? LIMIT ?)`,
  );
  return {
    claimWaiting: (siteKey, channel, now, { limit, leaseMs }) =>
      write(() => claimWaiting.all(now + leaseMs, siteKey, channel, now, limit).map(outboxFromRow).sort((a, b) => a.created_at - b.created_at)),
    periodicRules: async () => periodicRules.all().map((row) => ({ ...ruleFromRow(row), site_name: row.site_name })),
    spikeCounts: async (siteKey, { since, until, fromDay, toDay, limit }) =>
      windowCounts.all(siteKey, since, until, limit).map(({ fingerprint, occurrences }) => ({
        fingerprint,
        occurrences,
        baseline: baseline.get(siteKey, fingerprint, fromDay, toDay)!,
      })),
    vitalP75: async (siteKey, metric, { since, until }) => {
      const sorted = Float64Array.from(values.all(metric, siteKey, since, since, until)).sort();
      return { samples: sorted.length, p75: sorted.length ? sorted[p75Rank(sorted.length)] : undefined };
    },
    pruneOutbox: (before, { limit }) => write(() => prune.run(before, limit).changes),
    active: async () => active.get() == 1,
  };
};
