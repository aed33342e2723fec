import { raisedEntries, type RaisedAlert } from '../../core/alerts/raised';
import { inCooldown } from '../../core/alerts/rules';
import type { Client, Pool } from './pool';
import { columns } from './rows';

/** Any constant: the transaction-level advisory lock under which collectors raise periodic alerts one at a time. */
const RAISE_LOCK = 0x5174_a1e7;

const LAST_ALERTS = `SELECT o.site_key, o.fingerprint, o.rule, max(o.created_at) AS at FROM alert_outbox o
  JOIN unnest($1::text[], $2::text[], $3::text[]) AS wanted (site_key, fingerprint, rule)
    ON o.site_key = wanted.site_key AND o.fingerprint = wanted.fingerprint AND o.rule = wanted.rule
  GROUP BY o.site_key, o.fingerprint, o.rule`;
const INSERT = `INSERT INTO alert_outbox (id, site_key, rule, fingerprint, channel, payload, status, tries, next_attempt_at, created_at)
  SELECT id, site_key, rule, fingerprint, channel, payload, 'pending', 0, at, at
  FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int8[]) AS v (id, site_key, rule, fingerprint, channel, payload, at)
  ON CONFLICT (id) DO NOTHING`;

/**
 * Writes raised alerts (core/alerts/raised.ts) in the caller's transaction, as sqlite/alertRaise.ts:
 * none while its rule's last alert of its subject is within the cooldown, each row under its key
 * unless one has it (a key another transaction is inserting waits for that one's end, then is
 * skipped). Resolves to the rows written.
 *
 * @example
 * await raiseIn(client, raised);
 */
export const raiseIn = async (client: Client, raised: readonly RaisedAlert[]): Promise<number> => {
  if (!raised.length) return 0;
  const key = (siteKey: string, subject: string, rule: string) => `${siteKey}\n${subject}\n${rule}`;
  const { rows } = await client.query<{ site_key: string; fingerprint: string; rule: string; at: string }>({
    name: 'alert_raise_last',
    text: LAST_ALERTS,
    values: columns(raised.map((alert) => [alert.site_key, alert.subject, alert.rule]), 3),
  });
  const last = new Map(rows.map((row) => [key(row.site_key, row.fingerprint, row.rule), Number(row.at)]));
  const entries = raised
    .filter((alert) => !inCooldown(last.get(key(alert.site_key, alert.subject, alert.rule)), alert.cooldown_minutes, alert.created_at))
    .flatMap(raisedEntries);
  if (!entries.length) return 0;
  const values = entries.map((entry) => [entry.id, entry.site_key, entry.rule, entry.fingerprint, JSON.stringify(entry.channel), JSON.stringify(entry.payload), entry.created_at]);
  return (await client.query({ name: 'alert_raise_insert', text: INSERT, values: columns(values, 7) })).rowCount ?? 0;
};

/**
 * Serve's periodic alerts (store/contract/alerts.ts raise): one transaction, under an advisory lock
 * every collector on the database takes, so that one reads the others' committed rows for its
 * cooldowns.
 *
 * @example
 * await raisePeriodic(pool, raised);
 */
export const raisePeriodic = async (pool: Pool, raised: readonly RaisedAlert[]): Promise<number> => {
  if (!raised.length) return 0;
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock($1)', [RAISE_LOCK]);
      const written = await raiseIn(client, raised);
      await client.query('COMMIT');
      return written;
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
};
