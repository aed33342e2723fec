import type { AlertStore } from '../contract/alerts';
import { outboxFromRow, paramsText, ruleFromRow, statusAfter, type AlertRuleRow, type OutboxRowRecord } from '../alertRows';
import { postgresAlertReads } from './alertReads';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { run } from './rows';

// Due rows another collector is claiming are skipped, not waited for: each row goes to one claimant,
// and the claim moves its due time past the lease, so it is not due again when the lock is released.
const CLAIM = `UPDATE alert_outbox SET next_attempt_at = $1 WHERE id IN (
    SELECT id FROM alert_outbox WHERE status IN ('pending', 'retrying') AND next_attempt_at <= $2
    ORDER BY next_attempt_at, created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
  RETURNING *`;
const RECORD = 'UPDATE alert_outbox SET status = $1, tries = tries + 1, next_attempt_at = $2, last_error = $3, sent_at = $4 WHERE id = $5';

/** Ids of rows are int8: a number beyond what JavaScript counts exactly names no row. */
const rowId = (id: number) => Number.isSafeInteger(id) && id > 0;

/**
 * Alert rules and the outbox's delivery side in PostgreSQL (store/contract/alerts.ts), as
 * sqlite/alerts.ts; several collectors on one database claim due rows with FOR UPDATE SKIP LOCKED.
 * A claim commits on its own, at once, not in the group commit: it must hold its rows' locks only
 * while it takes them.
 *
 * @example
 * const alerts = postgresAlerts(pool, write);
 * await alerts.claimDue(Date.now(), { limit: 20, leaseMs: 60_000 });
 */
export const postgresAlerts = (pool: Pool, write: Write): Omit<AlertStore, 'logDelivery'> => ({
  addRule: (siteKey, rule) =>
    write({
      siteKey,
      run: async (client) =>
        ruleFromRow(
          (await run<AlertRuleRow>(
            client,
            'INSERT INTO alert_rules (site_key, kind, channels, cooldown_minutes, created_at, params) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
            [siteKey, rule.kind, JSON.stringify(rule.channels), rule.cooldown_minutes, Date.now(), paramsText(rule)],
          )).rows[0]!,
        ),
    }),
  rules: async (siteKey) => (await run<AlertRuleRow>(pool, 'SELECT * FROM alert_rules WHERE site_key = $1 ORDER BY id', [siteKey])).rows.map(ruleFromRow),
  removeRule: async (siteKey, id) =>
    rowId(id) && write({ run: async (client) => ((await run(client, 'DELETE FROM alert_rules WHERE site_key = $1 AND id = $2', [siteKey, id])).rowCount ?? 0) > 0 }),
  setEmailAlerts: (email, on) =>
    write({ run: async (client) => ((await run(client, 'UPDATE users SET alert_email = $1 WHERE email = $2', [on, email])).rowCount ?? 0) > 0 }),
  claimDue: async (now, { limit, leaseMs }) =>
    (await run<OutboxRowRecord>(pool, CLAIM, [now + leaseMs, now, limit], 'alert_claim')).rows.map(outboxFromRow).sort((a, b) => a.created_at - b.created_at),
  record: async (id, outcome, now, nextAttemptAt) => {
    const status = statusAfter(outcome.status, nextAttemptAt);
    await run(pool, RECORD, [status, status == 'retrying' ? nextAttemptAt : null, outcome.status == 'sent' ? null : outcome.error, status == 'sent' ? now : null, id], 'alert_record');
  },
  recentSends: async (siteKey, since) =>
    (await run<{ channel: string; sent_at: string | null; created_at: string; rule: string }>(
      pool,
      `SELECT channel, sent_at, created_at, rule FROM alert_outbox
       WHERE site_key = $1 AND ((status = 'sent' AND sent_at > $2) OR (rule = 'digest' AND created_at > $2))`,
      [siteKey, since],
    )).rows.map((row) => ({ channel: row.channel, sent_at: row.sent_at === null ? null : Number(row.sent_at), created_at: Number(row.created_at), digest: row.rule == 'digest' })),
  postpone: async (ids, at) => {
    // pool.query: run() binds an array as JSON text, and this is a text[].
    await pool.query('UPDATE alert_outbox SET next_attempt_at = $1 WHERE id = ANY($2::text[])', [at, [...ids]]);
  },
  digest: (heldIds, row) =>
    write({
      run: async (client) => {
        await run(
          client,
          `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
           VALUES ($1, $2, 'digest', NULL, $3, $4, 'pending', 0, $5, $5)`,
          [row.id, row.site_key, JSON.stringify(row.channel), JSON.stringify(row.payload), row.created_at],
        );
        await client.query(`UPDATE alert_outbox SET status = 'digested', next_attempt_at = NULL WHERE id = ANY($1::text[])`, [[...heldIds]]);
      },
    }),
  deliveries: async (siteKey, { limit }) =>
    (await run<OutboxRowRecord>(pool, 'SELECT * FROM alert_outbox WHERE site_key = $1 ORDER BY created_at DESC, id LIMIT $2', [siteKey, limit])).rows.map(outboxFromRow),
  ...postgresAlertReads(pool),
});
