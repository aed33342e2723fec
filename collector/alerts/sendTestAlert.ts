import { randomUUID } from 'node:crypto';
import { dashboardLink } from '../core/alerts/alert';
import type { DeliveryOutcome } from '../core/alerts/outcome';
import type { AlertRule } from '../core/alerts/rules';
import { testAlert, testRuleOf } from '../core/alerts/testAlert';
import type { Store } from '../store/contract';
import { sendEmail, type Mailer } from './sendEmail';
import { sendWebhook, type SendWebhookOptions } from './sendWebhook';

/** How a test is sent: as `serve` sends alerts (its `--smtp-url`, `--mail-from`, `--allow-private-webhooks`, `--public-url`). */
export interface TestSending {
  mailer?: Mailer | undefined;
  publicUrl: () => string;
  webhooks?: Pick<SendWebhookOptions, 'allowPrivate' | 'ca' | 'timeoutMs'> | undefined;
  now?: () => number;
}

/** What one channel's test came to: the delivery's id (the alert's), where it went, and sent or failed with why. */
export interface ChannelTest {
  alert_id: string;
  channel: { type: 'email'; to: string } | { type: 'webhook'; url: string };
  status: 'sent' | 'failed';
  error: string | null;
}

/** Without `--smtp-url`: the answer a mail channel's test gets, as the delivery's retries say it. */
export const NO_SMTP = 'no SMTP server: serve --smtp-url and --mail-from send mail';

/**
 * A rule's "Send a test" (docs/alerts.md, "Sending a test"): a test alert of the rule's kind
 * (core/alerts/testAlert.ts) sent now to each of its channels, once, in parallel; each try logged
 * as it ended (store.alerts.logDelivery: `sent`, or `failed` with its error, never retried), so the
 * deliveries list shows it; resolves to each channel's outcome, in the rule's order.
 *
 * @example
 * const results = await sendTestAlert(store, { key: 'shop', name: 'Shop' }, rule, { mailer, publicUrl: () => 'https://beacon.shop.example' });
 * results[0]; // { alert_id: '…', channel: { type: 'email', to: 'owner@shop.example' }, status: 'sent', error: null }
 */
export const sendTestAlert = (store: Store, site: { key: string; name: string }, rule: AlertRule, options: TestSending): Promise<ChannelTest[]> => {
  const now = options.now ?? Date.now;
  return Promise.all(
    rule.channels.map(async (channel): Promise<ChannelTest> => {
      const createdAt = now();
      const alert = testAlert(rule, site, { id: randomUUID(), url: dashboardLink(options.publicUrl(), site.key), now: createdAt });
      const send = async (): Promise<DeliveryOutcome> => {
        if (channel.type == 'webhook') return sendWebhook(channel, alert, { ...options.webhooks, now: new Date(createdAt) });
        return options.mailer ? sendEmail(options.mailer, alert, channel.to) : { status: 'fail', error: NO_SMTP };
      };
      const outcome = await send().catch((error: unknown): DeliveryOutcome => ({ status: 'fail', error: String(error).slice(0, 300) }));
      const ended = now();
      const error = outcome.status == 'sent' ? null : outcome.error;
      await store.alerts.logDelivery({
        id: alert.id,
        site_key: site.key,
        rule: testRuleOf(rule.id),
        fingerprint: null,
        channel,
        payload: alert,
        status: outcome.status == 'sent' ? 'sent' : 'failed',
        tries: 1,
        next_attempt_at: null,
        last_error: error,
        created_at: createdAt,
        sent_at: outcome.status == 'sent' ? ended : null,
      });
      return {
        alert_id: alert.id,
        channel: channel.type == 'email' ? { type: 'email', to: channel.to } : { type: 'webhook', url: channel.url },
        status: outcome.status == 'sent' ? 'sent' : 'failed',
        error,
      };
    }),
  );
};
