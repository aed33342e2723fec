import type { AlertStore } from '../contract/alerts';
import { outboxFromRow, ruleFromRow, type AlertRuleRow, type OutboxRowRecord } from '../alertRows';
import { raisePeriodic } from './alertRaise';
import type { Pool } from './pool';
import { run } from './rows';

// As claimDue (alerts.ts): rows another collector is claiming are skipped.
const CLAIM_WAITING = `UPDATE alert_outbox SET next_attempt_at = $1 WHERE id IN (
    SELECT id FROM alert_outbox WHERE status = 'pending' AND tries = 0 AND rule <> 'digest' AND site_key = $2 AND channel = $3 AND next_attempt_at <= $4
    ORDER BY created_at LIMIT $5 FOR UPDATE SKIP LOCKED)
  RETURNING *`;
const PERIODIC_RULES = `SELECT r.*, s.name AS site_name FROM alert_rules r JOIN sites s ON s.site_key = r.site_key
  WHERE r.kind IN ('spike', 'vital_poor') ORDER BY r.id`;
const WINDOW_COUNTS = `SELECT fingerprint, sum(coalesce(count, 1)) AS occurrences FROM error_reports
  WHERE site_key = $1 AND received_at >= $2 AND received_at < $3 GROUP BY fingerprint ORDER BY occurrences DESC, fingerprint LIMIT $4`;
const BASELINES = `SELECT fingerprint, sum(count) AS baseline FROM error_groups
  WHERE site_key = $1 AND fingerprint = ANY($2::text[]) AND day >= $3 AND day < $4 GROUP BY fingerprint`;
// As sqlite/alertReads.ts: the range's sessions by their index, then each one's metric. percentile_disc
// is the nearest rank (core/vitals.ts p75Rank).
const P75 = `SELECT count(*) AS samples, percentile_disc(0.75) WITHIN GROUP (ORDER BY m.value) AS p75
  FROM performance_sessions s JOIN performance_metrics m ON m.session_row = s.id AND m.name = $2
  WHERE s.site_key = $1 AND s.updated_at >= $3 AND m.updated_at >= $3 AND m.updated_at < $4`;
const ACTIVE = `SELECT EXISTS (SELECT 1 FROM alert_rules) OR EXISTS (SELECT 1 FROM users WHERE alert_email )
  OR EXISTS (SELECT 1 FROM alert_outbox WHERE status IN ('pending', 'retrying')) AS active`;
const PRUNE = `DELETE FROM alert_outbox WHERE id IN (
  SELECT id FROM alert_outbox WHERE status IN ('sent', 'failed', 'digested') AND created_at < $1 LIMIT $2)`;

/**
 * What serve's periodic alert evaluation reads in PostgreSQL, as sqlite/alertReads.ts, and its
 * writes: raise (alertRaise.ts), the digest's claim of a channel's waiting rows, the outbox's retention.
 *
 * @example
 * const reads = postgresAlertReads(pool);
 * await reads.spikeCounts('shop', { since, until, fromDay, toDay, limit: 100 });
 */
export const postgresAlertReads = (pool: Pool): Pick<AlertStore, 'claimWaiting' | 'periodicRules' | 'spikeCounts' | 'vitalP75' | 'raise' | 'pruneOutbox' | 'active'> => ({
  claimWaiting: async (siteKey, channel, now, { limit, leaseMs }) =>
    (await run<OutboxRowRecord>(pool, CLAIM_WAITING, [now + leaseMs, siteKey, channel, now, limit], 'alert_claim_waiting')).rows
      .map(outboxFromRow)
      .sort((a, b) => a.created_at - b.created_at),
  periodicRules: async () =>
    (await run<AlertRuleRow & { site_name: string }>(pool, PERIODIC_RULES, [], 'alert_periodic_rules')).rows.map((row) => ({ ...ruleFromRow(row), site_name: row.site_name })),
  spikeCounts: async (siteKey, { since, until, fromDay, toDay, limit }) => {
    const counts = (await run<{ fingerprint: string; occurrences: string }>(pool, WINDOW_COUNTS, [siteKey, since, until, limit], 'alert_window_counts')).rows;
    if (!counts.length) return [];
    // pool.query: run() binds an array as JSON text, and this is a text[].
    const baselines = await pool.query<{ fingerprint: string; baseline: string }>({
      name: 'alert_baselines', text: BASELINES, values: [siteKey, counts.map(({ fingerprint }) => fingerprint), fromDay, toDay],
    });
    const byFingerprint = new Map(baselines.rows.map((row) => [row.fingerprint, Number(row.baseline)]));
    return counts.map(({ fingerprint, occurrences }) => ({ fingerprint, occurrences: Number(occurrences), baseline: byFingerprint.get(fingerprint) ?? 0 }));
  },
  vitalP75: async (siteKey, metric, { since, until }) => {
    const [row] = (await run<{ samples: string; p75: number | null }>(pool, P75, [siteKey, metric, since, until], 'alert_vital_p75')).rows;
    const samples = Number(row!.samples);
    return { samples, p75: samples ? row!.p75! : undefined };
  },
  raise: (raised) => raisePeriodic(pool, raised),
  pruneOutbox: async (before, { limit }) => (await run(pool, PRUNE, [before, limit], 'alert_prune')).rowCount ?? 0,
  active: async () => (await run<{ active: boolean }>(pool, ACTIVE, [], 'alert_active')).rows[0]!.active,
});
