import { p75Rank } from '../../core/vitals';
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
const SAMPLES = 'SELECT count(*) AS samples FROM performance_metrics WHERE site_key = $1 AND name = $2 AND updated_at >= $3 AND updated_at < $4';
const VALUE_AT = `SELECT value FROM performance_metrics WHERE site_key = $1 AND name = $2 AND updated_at >= $3 AND updated_at < $4
  ORDER BY value LIMIT 1 OFFSET $5`;
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
export const postgresAlertReads = (pool: Pool): Pick<AlertStore, 'claimWaiting' | 'periodicRules' | 'spikeCounts' | 'vitalP75' | 'raise' | 'pruneOutbox'> => ({
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
    const samples = Number((await run<{ samples: string }>(pool, SAMPLES, [siteKey, metric, since, until], 'alert_vital_samples')).rows[0]!.samples);
    if (!samples) return { samples, p75: undefined };
    const { rows } = await run<{ value: number }>(pool, VALUE_AT, [siteKey, metric, since, until, p75Rank(samples)], 'alert_vital_p75');
    return { samples, p75: rows[0]?.value };
  },
  raise: (raised) => raisePeriodic(pool, raised),
  pruneOutbox: async (before, { limit }) => (await run(pool, PRUNE, [before, limit], 'alert_prune')).rowCount ?? 0,
});
