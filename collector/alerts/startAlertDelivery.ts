import { randomUUID } from 'node:crypto';
import { dashboardLink } from '../core/alerts/alert';
import { ALERT_RATE, digestAlert, planDigest } from '../core/alerts/digest';
import type { DeliveryOutcome } from '../core/alerts/outcome';
import { nextAttempt } from '../core/alerts/schedule';
import type { Store } from '../store/contract';
import type { OutboxRow } from '../store/contract/alerts';
import { startPeriodic, type Periodic } from '../store/startPeriodic';
import { sendEmail, type Mailer } from './sendEmail';
import { sendWebhook, type SendWebhookOptions } from './sendWebhook';

export interface AlertDeliveryOptions {
  /** `--smtp-url` and `--mail-from`; without them mail deliveries are retried, then given up. */
  mailer?: Mailer | undefined;
  /** The dashboard's URL (`--public-url`), for each alert's link. */
  publicUrl: () => string;
  /** `--allow-private-webhooks`, and the test's CA for a receiver's certificate. */
  webhooks?: Pick<SendWebhookOptions, 'allowPrivate' | 'ca' | 'timeoutMs'>;
  /** How often the outbox is looked at: alerts leave within this of their report's commit. */
  intervalMs?: number;
  /**
   * How often the delivery asks whether anything may alert at all (store alerts.active): while
   * nothing may (no rule, no user's alert mail, no delivery unfinished), it does not claim.
   */
  idleCheckMs?: number;
  /** How long a claimed delivery is left to its claimant before it is due again (a crash mid-send). */
  leaseMs?: number;
  /** Deliveries per run. */
  batchSize?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/**
 * Sends one delivery once: by mail or webhook, its link under the public URL: the issue's page for
 * an alert of an issue, else the site's (a CSP block's or a vital's row keeps its subject where an
 * issue's keeps its fingerprint: core/alerts/raised.ts).
 */
const sendOnce = async (row: OutboxRow, options: AlertDeliveryOptions, now: Date): Promise<DeliveryOutcome> => {
  const alert = { ...row.payload, url: dashboardLink(options.publicUrl(), row.site_key, row.payload.issue?.fingerprint) };
  const { channel } = row;
  if (channel.type == 'email') {
    // Tried again as an SMTP server that is down would be: a collector restarted with --smtp-url delivers.
    if (!options.mailer) return { status: 'retry', error: 'no SMTP server: serve --smtp-url and --mail-from send mail' };
    return sendEmail(options.mailer, alert, channel.to);
  }
  return sendWebhook({ url: channel.url, format: channel.format, secret: channel.secret }, alert, { ...options.webhooks, now });
};

/** The most rows one digest stands for: it counts them; past this, the next digest takes the rest. */
const DIGEST_ROWS = 10_000;

/**
 * The claimed rows to send now, after the site's rate (docs/alerts.md, "The digest"), per site and
 * channel: a first try past 10 in 10 minutes is held. Held rows become one digest row when
 * core/alerts/digest.ts planDigest says it is time (sent at the next run), with every other first
 * try of the site and channel then due (store claimWaiting: a burst of 500 is one digest, not one per
 * claimed batch), else wait for that time. Retries and digests themselves always go.
 */
const underRate = async (store: Store, claimed: OutboxRow[], now: number, leaseMs: number): Promise<OutboxRow[]> => {
  const send: OutboxRow[] = [];
  const waiting = new Map<string, OutboxRow[]>();
  for (const row of claimed) {
    if (row.tries > 0 || row.rule == 'digest') send.push(row);
    else {
      const key = `${row.site_key}\n${JSON.stringify(row.channel)}`;
      waiting.set(key, [...(waiting.get(key) ?? []), row]);
    }
  }
  const recent = new Map<string, Awaited<ReturnType<Store['alerts']['recentSends']>>>();
  for (const rows of waiting.values()) {
    const { site_key: siteKey, channel } = rows[0]!;
    if (!recent.has(siteKey)) recent.set(siteKey, await store.alerts.recentSends(siteKey, now - ALERT_RATE.windowMs));
    const mine = recent.get(siteKey)!.filter((sent) => sent.channel == JSON.stringify(channel));
    const digests = mine.filter(({ digest }) => digest).map(({ created_at }) => created_at);
    const plan = planDigest({
      waiting: rows.map(({ payload }) => payload),
      sentAt: mine.flatMap(({ sent_at }) => (sent_at === null ? [] : [new Date(sent_at)])),
      lastDigestAt: digests.length ? new Date(Math.max(...digests)) : undefined,
      now: new Date(now),
    });
    send.push(...rows.slice(0, plan.send.length));
    const held = rows.slice(plan.send.length);
    if (!held.length || !plan.digestAt) continue;
    if (plan.digestAt.getTime() > now) {
      await store.alerts.postpone(held.map(({ id }) => id), plan.digestAt.getTime());
      continue;
    }
    held.push(...(await store.alerts.claimWaiting(siteKey, JSON.stringify(channel), now, { limit: DIGEST_ROWS, leaseMs })));
    const id = randomUUID();
    const payload = digestAlert(held.map(({ payload }) => payload), { id, url: '', now: new Date(now) });
    await store.alerts.digest(held.map(({ id }) => id), { id, site_key: siteKey, channel, payload, created_at: now });
  }
  return send;
};

/**
 * Delivers the outbox (docs/alerts.md, "Delivery"): every `intervalMs` (on serve's housekeeping
 * timer, store/startPeriodic.ts) it claims the due deliveries (store/contract/alerts.ts claimDue:
 * on PostgreSQL each goes to one collector), sends each, and records `sent`, `retrying` until
 * core/alerts/schedule.ts nextAttempt, or `failed` after a `fail` or the last try; past a site's
 * rate, first tries wait for a digest (underRate). Every `idleCheckMs` it asks the store whether
 * anything may alert (a rule, a user's alert mail, an unfinished delivery); until the next time it
 * asks, a "no" leaves the database alone: a collector without alerts claims nothing every second,
 * and a rule added meanwhile delivers its first alert at the next check. A collector
 * killed between the commit and the send leaves the row pending: the next start sends it, under
 * the same idempotency key.
 *
 * @example
 * const delivery = startAlertDelivery(store, { mailer, publicUrl: () => 'https://beacon.shop.example' });
 * await delivery.stop();
 */
export const startAlertDelivery = (store: Store, options: AlertDeliveryOptions): Periodic => {
  const { intervalMs = 1000, idleCheckMs = 30_000, leaseMs = 120_000, batchSize = 20, now = Date.now, onError = () => {} } = options;
  let checkedAt = -Infinity;
  let quiet = false;
  const run = async (stopping: AbortSignal) => {
    if (now() - checkedAt >= idleCheckMs) {
      quiet = !(await store.alerts.active());
      checkedAt = now();
    }
    if (quiet) return;
    while (!stopping.aborted) {
      const claimed = await store.alerts.claimDue(now(), { limit: batchSize, leaseMs });
      const sending = await underRate(store, claimed, now(), leaseMs);
      await Promise.all(
        sending.map(async (row) => {
          const tried = new Date(now());
          const outcome = await sendOnce(row, options, tried).catch((error: unknown): DeliveryOutcome => ({ status: 'retry', error: String(error) }));
          const next = outcome.status == 'retry' ? nextAttempt(row.tries + 1, tried, outcome.retryAfterSeconds) : undefined;
          await store.alerts.record(row.id, outcome, now(), next?.getTime());
        }),
      );
      if (claimed.length < batchSize) return;
    }
  };
  return startPeriodic(run, { delayMs: () => intervalMs, onError });
};
