import { ruleView, type AlertRuleView } from '../core/alerts/rules';
import { deliveryRule } from '../core/alerts/testAlert';
import type { Site } from '../core/records';
import type { Store } from '../store/contract';

/** Who reads: a site-scoped API key (a WordPress plugin's, docs/access.md) sees a webhook's origin only. */
export interface AlertReader {
  siteScoped: boolean;
}

/** A webhook URL as a site-scoped key sees it: its origin, the rest hidden (a chat service's webhook URL is its credential). */
const shownUrl = (url: string, { siteScoped }: AlertReader) => (siteScoped ? `${new URL(url).origin}/…` : url);

const iso = (time: number) => new Date(time).toISOString();

/**
 * A rule as the alerts API answers it (docs/alerts.md, "The API"): a webhook `signed`, never its
 * secret (core/alerts/rules.ts ruleView), its URL cut to its origin for a site-scoped key.
 *
 * @example
 * alertRuleAnswer(rule, { siteScoped: false }); // { id: 3, kind: 'new_issue', channels: [...], cooldown_minutes: 60, created_at: '2026-…' }
 */
export const alertRuleAnswer = (rule: Parameters<typeof ruleView>[0], reader: AlertReader) => {
  const { site_key: _site, created_at, channels, ...view }: AlertRuleView = ruleView(rule);
  return {
    ...view,
    channels: channels.map((channel) => (channel.type == 'webhook' ? { ...channel, url: shownUrl(channel.url, reader) } : channel)),
    created_at: iso(created_at),
  };
};

/**
 * `GET /api/v1/sites/{site_key}/alerts`: the site's rules, oldest first.
 *
 * @example
 * await readAlertRules(store, site, { siteScoped: false }); // { data: [{ id: 3, kind: 'new_issue', ... }] }
 */
export const readAlertRules = async (store: Pick<Store, 'alerts'>, site: Site, reader: AlertReader) => ({
  data: (await store.alerts.rules(site.site_key)).map((rule) => alertRuleAnswer(rule, reader)),
});

/**
 * `GET /api/v1/sites/{site_key}/alerts/deliveries`: the site's latest `limit` deliveries, newest
 * first: each one's alert id (the idempotency key), rule (and whether it was a test), channel
 * (without a secret), status, tries and last error, times as ISO strings.
 *
 * @example
 * await readAlertDeliveries(store, site, { limit: 50, siteScoped: false }); // { data: [{ alert_id, rule: '3', status: 'sent', ... }] }
 */
export const readAlertDeliveries = async (store: Pick<Store, 'alerts'>, site: Site, query: { limit: number } & AlertReader) => ({
  data: (await store.alerts.deliveries(site.site_key, { limit: query.limit })).map((row) => ({
    alert_id: row.id,
    ...deliveryRule(row.rule),
    kind: row.payload.kind,
    channel: row.channel.type == 'email' ? { type: 'email' as const, to: row.channel.to } : { type: 'webhook' as const, url: shownUrl(row.channel.url, query) },
    status: row.status,
    tries: row.tries,
    last_error: row.last_error,
    next_attempt_at: row.next_attempt_at === null ? null : iso(row.next_attempt_at),
    created_at: iso(row.created_at),
    sent_at: row.sent_at === null ? null : iso(row.sent_at),
  })),
});
