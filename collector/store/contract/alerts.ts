import type { Alert } from '../../core/alerts/alert';
import type { DeliveryOutcome } from '../../core/alerts/outcome';
import type { SpikeCount, VitalP75 } from '../../core/alerts/periodic';
import type { RaisedAlert } from '../../core/alerts/raised';
import type { AlertChannel, AlertRule, RuleKind, RuleParams } from '../../core/alerts/rules';

/** A delivery's state (docs/alerts.md, "The outbox"). */
export type DeliveryStatus = 'pending' | 'sent' | 'retrying' | 'failed' | 'digested';

/** One outbox row: one alert to one channel; `id` is its idempotency key. `digested`: sent within a digest (docs/alerts.md, "The digest"). */
export interface OutboxRow {
  id: string;
  site_key: string;
  rule: string;
  /** The fingerprint; a CSP block's or a vital's subject (`csp:` or `vital:` and what, core/alerts/raised.ts); null for a digest. */
  fingerprint: string | null;
  channel: AlertChannel;
  payload: Alert;
  status: DeliveryStatus;
  tries: number;
  next_attempt_at: number | null;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
}

/** A delivery as the deliveries list shows it: the channel without its secret. */
export type DeliveryView = Omit<OutboxRow, 'channel' | 'payload'> & { kind: Alert['kind']; channel: { type: 'email'; to: string } | { type: 'webhook'; url: string } };

/**
 * Alert rules and the outbox (docs/alerts.md). The outbox is written by the ingest transaction
 * that stores a report whose fold made a new issue or a regression (both stores' report writes);
 * here it is claimed and its outcomes recorded by the delivery (alerts/startAlertDelivery.ts).
 */
export interface AlertStore {
  /** Stores a rule with its kind's parameters (core/alerts/rules.ts ruleParamsProblem checks them); rejects with UnknownSiteError for an unknown site. */
  addRule(siteKey: string, rule: { kind: RuleKind; channels: AlertChannel[]; cooldown_minutes: number } & RuleParams): Promise<AlertRule>;
  /** The site's rules, oldest first, with their channels as stored (secrets included: use ruleView to show them). */
  rules(siteKey: string): Promise<AlertRule[]>;
  /** Removes the site's rule; false when it has none with this id. */
  removeRule(siteKey: string, id: number): Promise<boolean>;
  /** Turns a dashboard user's alert mail on or off (off for every user until set); false for an unknown email. */
  setEmailAlerts(email: string, on: boolean): Promise<boolean>;
  /**
   * Takes up to `limit` deliveries due at `now` (pending or retrying, `next_attempt_at <= now`),
   * oldest first, and moves their `next_attempt_at` to `now + leaseMs`: a process that dies while
   * sending leaves them to be tried again then. On PostgreSQL rows another process is claiming are
   * skipped (FOR UPDATE SKIP LOCKED): each due row goes to one claimant.
   */
  claimDue(now: number, options: { limit: number; leaseMs: number }): Promise<OutboxRow[]>;
  /** Records one try's outcome: sent; retrying until `nextAttemptAt`; failed when undefined after a retry or a fail. */
  record(id: string, outcome: DeliveryOutcome, now: number, nextAttemptAt: number | undefined): Promise<void>;
  /**
   * What the site's digest rule reads (core/alerts/digest.ts planDigest): the rows sent after `since`
   * and the digests written after it, each with its channel as stored (JSON text).
   */
  recentSends(siteKey: string, since: number): Promise<Array<{ channel: string; sent_at: number | null; created_at: number; digest: boolean }>>;
  /** Leaves claimed rows for later, without a try: held for a digest due at `at`. */
  postpone(ids: readonly string[], at: number): Promise<void>;
  /** Writes a digest's row (pending, due now) and marks the rows it stands for `digested`, in one transaction. */
  digest(heldIds: readonly string[], row: { id: string; site_key: string; channel: AlertChannel; payload: Alert; created_at: number }): Promise<void>;
  /** A site's outbox rows, newest first. */
  deliveries(siteKey: string, options: { limit: number }): Promise<OutboxRow[]>;
  /**
   * Stores a delivery already tried, as it ended (a rule's test, sent at once: docs/alerts.md,
   * "Sending a test"): never claimed, shown by `deliveries`. Rejects with UnknownSiteError for an unknown site.
   */
  logDelivery(row: OutboxRow): Promise<void>;
  /**
   * Claims, as claimDue does, up to `limit` first tries of one site and channel (channel as stored,
   * JSON text) that are due at `now` and not digests: the rows a digest stands for, whoever wrote them.
   */
  claimWaiting(siteKey: string, channel: string, now: number, options: { limit: number; leaseMs: number }): Promise<OutboxRow[]>;
  /** Every site's rules of the periodic kinds (`spike`, `vital_poor`), with their site's name. */
  periodicRules(): Promise<Array<AlertRule & { site_name: string }>>;
  /**
   * A spike rule's reading (core/alerts/periodic.ts spikeRanges): the `limit` issues with the most
   * occurrences received in `[since, until)`, each with its occurrences over the UTC days `[fromDay, toDay)`.
   */
  spikeCounts(siteKey: string, range: { since: number; until: number; fromDay: number; toDay: number; limit: number }): Promise<SpikeCount[]>;
  /** A metric's samples last updated in `[since, until)` and their p75 (core/vitals.ts p75Rank). */
  vitalP75(siteKey: string, metric: string, range: { since: number; until: number }): Promise<VitalP75>;
  /**
   * Writes raised alerts (core/alerts/raised.ts), one row per channel under its key, in one
   * transaction that first reads each one's cooldown: none is written while its rule's last alert of
   * the subject is within the cooldown, and a key already written is not written again. On
   * PostgreSQL the transaction holds an advisory lock, so collectors raising at once read each
   * other's rows. Resolves to the rows written.
   */
  raise(raised: readonly RaisedAlert[]): Promise<number>;
  /**
   * Whether anything may have alerts to deliver: a rule, a user who opted in to alert mail, or an
   * outbox row still pending or retrying. Without any, the delivery stops claiming until it checks
   * again (alerts/startAlertDelivery.ts).
   */
  active(): Promise<boolean>;
  /** Deletes up to `limit` sent, failed and digested rows created before `before`: the outbox's retention. Resolves to the rows deleted. */
  pruneOutbox(before: number, options: { limit: number }): Promise<number>;
}
