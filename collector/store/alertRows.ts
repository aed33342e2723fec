import type { AlertChannel, AlertRule, RuleKind, RuleParams } from '../core/alerts/rules';
import type { DeliveryStatus, DeliveryView, OutboxRow } from './contract/alerts';

/** An `alert_rules` row as both stores read it (PostgreSQL's int8 as a string or number). */
export interface AlertRuleRow {
  id: number | string;
  site_key: string;
  kind: string;
  channels: string;
  cooldown_minutes: number;
  created_at: number | string;
  /** The kind's parameters, a JSON object (core/alerts/rules.ts RuleParams), or null. */
  params: string | null;
}

/** The rule of a row. */
export const ruleFromRow = (row: AlertRuleRow): AlertRule => ({
  id: Number(row.id),
  site_key: row.site_key,
  kind: row.kind as RuleKind,
  channels: JSON.parse(row.channels) as AlertChannel[],
  cooldown_minutes: Number(row.cooldown_minutes),
  created_at: Number(row.created_at),
  ...(row.params ? (JSON.parse(row.params) as RuleParams) : {}),
});

/** A rule's parameters as stored: the ones given, as JSON, or null when there are none. */
export const paramsText = ({ window_minutes, factor, count, metric }: RuleParams): string | null => {
  const params = Object.fromEntries(Object.entries({ window_minutes, factor, count, metric }).filter(([, value]) => value !== undefined));
  return Object.keys(params).length ? JSON.stringify(params) : null;
};

/** An `alert_outbox` row as both stores read it. */
export interface OutboxRowRecord {
  id: string;
  site_key: string;
  rule: string;
  fingerprint: string | null;
  channel: string;
  payload: string;
  status: string;
  tries: number;
  next_attempt_at: number | string | null;
  last_error: string | null;
  created_at: number | string;
  sent_at: number | string | null;
}

const time = (value: number | string | null) => (value === null ? null : Number(value));

/** The outbox row of a record. */
export const outboxFromRow = (row: OutboxRowRecord): OutboxRow => ({
  id: row.id,
  site_key: row.site_key,
  rule: row.rule,
  fingerprint: row.fingerprint,
  channel: JSON.parse(row.channel) as AlertChannel,
  payload: JSON.parse(row.payload) as OutboxRow['payload'],
  status: row.status as DeliveryStatus,
  tries: Number(row.tries),
  next_attempt_at: time(row.next_attempt_at),
  last_error: row.last_error,
  created_at: Number(row.created_at),
  sent_at: time(row.sent_at),
});

/**
 * A delivery as the deliveries list shows it: its channel without a webhook's secret.
 *
 * @example
 * deliveryView(row).channel; // { type: 'webhook', url: 'https://hooks.shop.example/' }
 */
export const deliveryView = ({ channel, payload, ...row }: OutboxRow): DeliveryView => ({
  ...row,
  kind: payload.kind,
  channel: channel.type == 'email' ? { type: 'email', to: channel.to } : { type: 'webhook', url: channel.url },
});

/** The status a try's outcome leaves. */
export const statusAfter = (outcome: 'sent' | 'retry' | 'fail', nextAttemptAt: number | undefined): DeliveryStatus =>
  outcome == 'sent' ? 'sent' : outcome == 'retry' && nextAttemptAt !== undefined ? 'retrying' : 'failed';
