import { randomUUID } from 'node:crypto';
import type { Database } from 'better-sqlite3';
import { cooldownKey, planOutbox, seesSite, type IssueTrigger } from '../../core/alerts/outboxPlan';
import type { AlertRule } from '../../core/alerts/rules';
import { ruleFromRow, type AlertRuleRow } from '../alertRows';

/**
 * The outbox of alerts (docs/alerts.md, "The outbox") written in the writer thread's transaction,
 * after the issues it folded (issueWrites.ts): a report that is stored has its alerts stored with
 * it, and a report rolled back has none. What to write is core/alerts/outboxPlan.ts' planOutbox.
 *
 * @example
 * const outbox = createOutboxWriter(db);
 * outbox.write(triggers, Date.now()); // rows written
 */
export const createOutboxWriter = (db: Database) => {
  const selectRules = db.prepare<[string], AlertRuleRow>('SELECT * FROM alert_rules WHERE site_key = ? ORDER BY id');
  const selectOptedIn = db.prepare<[], { email: string; site_keys: string | null }>('SELECT email, site_keys FROM users WHERE alert_email = 1 ORDER BY id');
  const selectName = db.prepare<[string], string>('SELECT name FROM sites WHERE site_key = ?').pluck();
  const selectLast = db.prepare<[string, string], { rule: string; at: number }>(
    'SELECT rule, max(created_at) AS at FROM alert_outbox WHERE site_key = ? AND fingerprint = ? GROUP BY rule',
  );
  const insert = db.prepare(
    `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
  );
  return {
    write(triggers: readonly IssueTrigger[], now: number): number {
      if (!triggers.length) return 0;
      const rules = new Map<string, AlertRule[]>();
      const optedIn = new Map<string, string[]>();
      const names = new Map<string, string>();
      const lastAlertAt = new Map<string, number>();
      const users = selectOptedIn.all();
      for (const { siteKey, state } of triggers) {
        if (!rules.has(siteKey)) {
          rules.set(siteKey, selectRules.all(siteKey).map(ruleFromRow));
          optedIn.set(siteKey, users.filter((user) => seesSite(user.site_keys, siteKey)).map((user) => user.email));
          names.set(siteKey, selectName.get(siteKey) ?? siteKey);
        }
        for (const { rule, at } of selectLast.all(siteKey, state.fingerprint)) lastAlertAt.set(cooldownKey(siteKey, rule, state.fingerprint), at);
      }
      const entries = planOutbox(triggers, { rules, optedIn, names, lastAlertAt }, now, randomUUID);
      for (const entry of entries) {
        insert.run(entry.id, entry.site_key, entry.rule, entry.fingerprint, JSON.stringify(entry.channel), JSON.stringify(entry.payload), now, now);
      }
      return entries.length;
    },
  };
};
