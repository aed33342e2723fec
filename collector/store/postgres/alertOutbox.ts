import { randomUUID } from 'node:crypto';
import { cooldownKey, planOutbox, seesSite, type IssueTrigger } from '../../core/alerts/outboxPlan';
import type { AlertRule } from '../../core/alerts/rules';
import { ruleFromRow, type AlertRuleRow } from '../alertRows';
import type { Client } from './pool';
import { columns } from './rows';

const RULES = 'SELECT * FROM alert_rules WHERE site_key = ANY($1::text[]) ORDER BY id';
const OPTED_IN = 'SELECT email, site_keys FROM users WHERE alert_email ORDER BY id';
const NAMES = 'SELECT site_key, name FROM sites WHERE site_key = ANY($1::text[])';
const LAST_ALERTS = `SELECT o.site_key, o.fingerprint, o.rule, max(o.created_at) AS at FROM alert_outbox o
  JOIN unnest($1::text[], $2::text[]) AS wanted (site_key, fingerprint) ON o.site_key = wanted.site_key AND o.fingerprint = wanted.fingerprint
  GROUP BY o.site_key, o.fingerprint, o.rule`;
const INSERT = `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
  SELECT id, site_key, rule, fingerprint, channel, payload, 'pending', 0, at, at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[]) AS v (id, site_key, rule, fingerprint, channel, payload, at)`;

/**
 * The outbox of alerts (docs/alerts.md, "The outbox") written in the batch's transaction, after
 * its issues were folded with their rows locked (issueWrites.ts), as the SQLite writer thread does
 * (sqlite/alertOutbox.ts): the issue's lock orders two collectors' folds of one issue, so its
 * cooldown reads the other's outbox row once that has committed.
 *
 * @example
 * await writeOutbox(client, triggers, Date.now());
 */
export const writeOutbox = async (client: Client, triggers: readonly IssueTrigger[], now: number): Promise<number> => {
  if (!triggers.length) return 0;
  const siteKeys = [...new Set(triggers.map(({ siteKey }) => siteKey))];
  const rules = new Map<string, AlertRule[]>(siteKeys.map((siteKey) => [siteKey, []]));
  for (const row of (await client.query<AlertRuleRow>({ name: 'alert_rules', text: RULES, values: [siteKeys] })).rows) {
    rules.get(row.site_key)?.push(ruleFromRow(row));
  }
  const users = (await client.query<{ email: string; site_keys: string | null }>({ name: 'alert_opted_in', text: OPTED_IN })).rows;
  const optedIn = new Map(siteKeys.map((siteKey) => [siteKey, users.filter((user) => seesSite(user.site_keys, siteKey)).map((user) => user.email)]));
  const names = new Map((await client.query<{ site_key: string; name: string }>({ name: 'alert_site_names', text: NAMES, values: [siteKeys] })).rows.map((row) => [row.site_key, row.name]));
  const wanted = new Map(triggers.map(({ siteKey, state }) => [`${siteKey}\n${state.fingerprint}`, [siteKey, state.fingerprint]]));
  const last = await client.query<{ site_key: string; fingerprint: string; rule: string; at: string }>({
    name: 'alert_last', text: LAST_ALERTS, values: columns([...wanted.values()], 2),
  });
  const lastAlertAt = new Map(last.rows.map((row) => [cooldownKey(row.site_key, row.rule, row.fingerprint), Number(row.at)]));
  const entries = planOutbox(triggers, { rules, optedIn, names, lastAlertAt }, now, randomUUID);
  if (entries.length) {
    const rows = entries.map((entry) => [entry.id, entry.site_key, entry.rule, entry.fingerprint, JSON.stringify(entry.channel), JSON.stringify(entry.payload), now]);
    await client.query({ name: 'alert_outbox_insert', text: INSERT, values: columns(rows, 7) });
  }
  return entries.length;
};
