import { dashboardLink } from '../core/alerts/alert';
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
  /** How long a claimed delivery is left to its claimant before it is due again (a crash mid-send). */
  leaseMs?: number;
  /** Deliveries per run. */
  batchSize?: number;
  now?: () => number;
  onError?: (error: unknown) => void;
}

/** Sends one delivery once: by mail or webhook, its link under the public URL. */
const sendOnce = async (row: OutboxRow, options: AlertDeliveryOptions, now: Date): Promise<DeliveryOutcome> => {
  const alert = { ...row.payload, url: dashboardLink(options.publicUrl(), row.site_key, row.fingerprint ?? undefined) };
  const { channel } = row;
  if (channel.type == 'email') {
    // Tried again as an SMTP server that is down would be: a collector restarted with --smtp-url delivers.
    if (!options.mailer) return { status: 'retry', error: 'no SMTP server: serve --smtp-url and --mail-from send mail' };
    return sendEmail(options.mailer, alert, channel.to);
  }
  return sendWebhook({ url: channel.url, format: channel.format, secret: channel.secret }, alert, { ...options.webhooks, now });
};

/**
 * Delivers the outbox (docs/alerts.md, "Delivery"): every `intervalMs` (on serve's housekeeping
 * timer, store/startPeriodic.ts) it claims the due deliveries (store/contract/alerts.ts claimDue:
 * on PostgreSQL each goes to one collector), sends each, and records `sent`, `retrying` until
 * core/alerts/schedule.ts nextAttempt, or `failed` after a `fail` or the last try. A collector
 * killed between the commit and the send leaves the row pending: the next start sends it, under
 * the same idempotency key.
 *
 * @example
 * const delivery = startAlertDelivery(store, { mailer, publicUrl: () => 'https://beacon.shop.example' });
 * await delivery.stop();
 */
export const startAlertDelivery = (store: Store, options: AlertDeliveryOptions): Periodic => {
  const { intervalMs = 1000, leaseMs = 120_000, batchSize = 20, now = Date.now, onError = () => {} } = options;
  const run = async (stopping: AbortSignal) => {
    while (!stopping.aborted) {
      const claimed = await store.alerts.claimDue(now(), { limit: batchSize, leaseMs });
      await Promise.all(
        claimed.map(async (row) => {
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
