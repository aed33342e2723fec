import type { Database } from 'better-sqlite3';
import type { AlertStore } from '../contract/alerts';
import { outboxFromRow, paramsText, ruleFromRow, statusAfter, type AlertRuleRow, type OutboxRowRecord } from '../alertRows';
import { createRaiser } from './alertRaise';
import { sqliteAlertReads } from './alertReads';
import type { Write } from './groupCommit';
import { siteCheck } from './siteCheck';

/**
 * Alert rules and the outbox's delivery side in SQLite (store/contract/alerts.ts). One process
 * delivers (an SQLite file has one collector), so a claim is one UPDATE in the group commit: it moves
 * the claimed rows' due time past the lease, which is what a crash mid-send leaves them with.
 *
 * @example
 * const alerts = sqliteAlerts(db, write);
 * await alerts.claimDue(Date.now(), { limit: 20, leaseMs: 60_000 });
 */
export const sqliteAlerts = (db: Database, write: Write): Omit<AlertStore, 'logDelivery'> => {
  const requireSite = siteCheck(db);
  const insertRule = db.prepare<[string, string, string, number, number, string | null], AlertRuleRow>(
    'INSERT INTO alert_rules (site_key, kind, channels, cooldown_minutes, created_at, params) VALUES (?, ?, ?, ?, ?, ?) RETURNING *',
  );
  const raise = createRaiser(db);
  const selectRules = db.prepare<[string], AlertRuleRow>('SELECT * FROM alert_rules WHERE site_key = ? ORDER BY id');
  const deleteRule = db.prepare('DELETE FROM alert_rules WHERE site_key = ? AND id = ?');
  const updateUser = db.prepare('UPDATE users SET alert_email = ? WHERE email = ?');
  const claim = db.prepare<[number, number, number], OutboxRowRecord>(
    `UPDATE alert_outbox SET next_attempt_at = ? WHERE id IN (
       SELECT id FROM alert_outbox WHERE status IN ('pending', 'retrying') AND next_attempt_at <= ?
       ORDER BY next_attempt_at, created_at LIMIT ?) RETURNING *`,
  );
  const update = db.prepare(
    'UPDATE alert_outbox SET status = ?, tries = tries + 1, next_attempt_at = ?, last_error = ?, sent_at = ? WHERE id = ?',
  );
  const selectRecent = db.prepare<[string, number, number], { channel: string; sent_at: number | null; created_at: number; rule: string }>(
    `SELECT channel, sent_at, created_at, rule FROM alert_outbox
     WHERE site_key = ? AND ((status = 'sent' AND sent_at > ?) OR (rule = 'digest' AND created_at > ?))`,
  );
  const updateDue = db.prepare('UPDATE alert_outbox SET next_attempt_at = ? WHERE id = ?');
  const markDigested = db.prepare(`UPDATE alert_outbox SET status = 'digested', next_attempt_at = NULL WHERE id = ?`);
  const insertDigest = db.prepare(
    `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
     VALUES (?, ?, 'digest', NULL, ?, ?, 'pending', 0, ?, ?)`,
  );
  const selectDeliveries = db.prepare<[string, number], OutboxRowRecord>(
    'SELECT * FROM alert_outbox WHERE site_key = ? ORDER BY created_at DESC, id LIMIT ?',
  );
  return {
    addRule: (siteKey, rule) =>
      write(() => {
        requireSite(siteKey);
        return ruleFromRow(insertRule.get(siteKey, rule.kind, JSON.stringify(rule.channels), rule.cooldown_minutes, Date.now(), paramsText(rule))!);
      }),
    rules: async (siteKey) => selectRules.all(siteKey).map(ruleFromRow),
    removeRule: (siteKey, id) => write(() => deleteRule.run(siteKey, id).changes > 0),
    setEmailAlerts: (email, on) => write(() => updateUser.run(on ? 1 : 0, email).changes > 0),
    claimDue: (now, { limit, leaseMs }) =>
      write(() => claim.all(now + leaseMs, now, limit).map(outboxFromRow).sort((a, b) => a.created_at - b.created_at)),
    record: (id, outcome, now, nextAttemptAt) =>
      write(() => {
        const status = statusAfter(outcome.status, nextAttemptAt);
        update.run(status, status == 'retrying' ? nextAttemptAt! : null, outcome.status == 'sent' ? null : outcome.error, status == 'sent' ? now : null, id);
      }),
    recentSends: async (siteKey, since) =>
      selectRecent.all(siteKey, since, since).map(({ rule, ...row }) => ({ ...row, digest: rule == 'digest' })),
    postpone: (ids, at) => write(() => ids.forEach((id) => updateDue.run(at, id))),
    digest: (heldIds, row) =>
      write(() => {
        insertDigest.run(row.id, row.site_key, JSON.stringify(row.channel), JSON.stringify(row.payload), row.created_at, row.created_at);
        for (const id of heldIds) markDigested.run(id);
      }),
    deliveries: async (siteKey, { limit }) => selectDeliveries.all(siteKey, limit).map(outboxFromRow),
    raise: (raised) => write(() => raise(raised)),
    ...sqliteAlertReads(db, write),
  };
};
