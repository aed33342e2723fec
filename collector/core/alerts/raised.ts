import { createHash } from 'node:crypto';
import type { Alert } from './alert';
import type { OutboxEntry } from './outboxPlan';
import type { AlertChannel } from './rules';

/**
 * One alert a rule raised about one subject (docs/alerts.md, "Rule kinds"), before the store checks
 * its cooldown in the transaction that writes it: a spike of an issue, a new enforced CSP block, a
 * vital turned poor.
 */
export interface RaisedAlert {
  site_key: string;
  /** The rule's id. */
  rule: string;
  /**
   * What the cooldown counts per, stored in the outbox's `fingerprint`: an issue's fingerprint,
   * `csp:` and the directive and host, `vital:` and the metric.
   */
  subject: string;
  /** The start (ms) of the window the alert is of, 0 for an alert raised once per subject: part of its key. */
  window: number;
  cooldown_minutes: number;
  channels: AlertChannel[];
  /** The alert every channel gets, but its id (each channel's row has its own). */
  alert: Omit<Alert, 'id'>;
  created_at: number;
}

/**
 * A raised alert's idempotency key on one channel: the same for every collector that raises it
 * for the same rule, subject and window, so that several collectors on one database write one
 * outbox row (the store inserts it only when no row has the key).
 *
 * @example
 * raisedKey(raised, 0); // 'spike-5d41402abc4b2a76b9719d911017c592'
 */
export const raisedKey = (raised: RaisedAlert, channel: number): string =>
  `${raised.alert.kind}-${createHash('sha256').update(JSON.stringify([raised.site_key, raised.rule, raised.subject, raised.window, channel])).digest('hex').slice(0, 32)}`;

/**
 * The outbox rows of a raised alert: one per channel, each under its key.
 *
 * @example
 * raisedEntries(raised).map(({ id }) => id); // ['spike-5d41...', 'spike-7e2a...']
 */
export const raisedEntries = (raised: RaisedAlert): OutboxEntry[] =>
  raised.channels.map((channel, index) => {
    const id = raisedKey(raised, index);
    return { id, site_key: raised.site_key, rule: raised.rule, fingerprint: raised.subject, channel, payload: { ...raised.alert, id }, created_at: raised.created_at };
  });
