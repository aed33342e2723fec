import { getRouterParam, type H3Event } from 'h3';
import type * as v from 'valibot';
import type { AlertRule } from '../core/alerts/rules';
import type { Site } from '../core/records';
import { apiError } from '../http/apiError';
import { defineRoute, type Caller } from '../http/route';
import { alertRuleAnswer, readAlertDeliveries, readAlertRules } from '../reads/readAlerts';
import { AlertRuleInputSchema, DeliveriesQuerySchema } from '../schemas/alertRule';
import { AlertRuleListSchema, AlertRuleSchema, AlertTestSchema, DeliveryListSchema } from '../schemas/answers/alertAnswers';
import type { Store } from '../store/contract';

const TAG = 'Alerts';
const PATH = '/api/v1/sites/:site_key/alerts';
const UNKNOWN = 'unknown_alert: the site has no alert rule of this id';

/** A site's rules at most: each is evaluated on every new issue's report. */
export const MAX_RULES = 50;
/** Tests a site may send per minute (per collector): a test mails whoever a rule names, at once. */
export const TESTS_PER_MINUTE = 5;

/** How the collector sends a test and checks a webhook's target: alerts/ as `serve` configured it (app.ts). */
export interface AlertSending {
  /** Why a webhook URL is refused (a private, loopback or link-local target), or undefined. */
  refusedTarget(url: string): Promise<string | undefined>;
  /** Sends a test alert of `rule` to each of its channels now, logs each try, and says what came of it. */
  sendTest(site: { key: string; name: string }, rule: AlertRule): Promise<v.InferInput<typeof AlertTestSchema>['deliveries']>;
}

const unknownAlert = () => apiError(404, 'unknown_alert', 'the site has no alert rule of this id');

/** The path's rule id: a positive whole number; anything else is no rule. */
const ruleIdOf = (event: H3Event) => {
  const id = getRouterParam(event, 'id') ?? '';
  if (!/^[1-9]\d{0,15}$/.test(id) || !Number.isSafeInteger(Number(id))) throw unknownAlert();
  return Number(id);
};

/** A key made for one site (a WordPress plugin's, docs/access.md) manages email channels only. */
const siteScoped = (caller: Caller) => caller.apiKey?.site_key !== undefined;
const refuseWebhooks = (caller: Caller, channels: ReadonlyArray<{ type: string }>, doing: string) => {
  if (siteScoped(caller) && channels.some((channel) => channel.type == 'webhook')) {
    throw apiError(403, 'forbidden', `a site's API key may not ${doing} webhook channels: use an installation key or the dashboard`);
  }
};

const findRule = async (store: Pick<Store, 'alerts'>, site: Site, id: number) => {
  const rule = (await store.alerts.rules(site.site_key)).find((each) => each.id == id);
  if (!rule) throw unknownAlert();
  return rule;
};

/** At most TESTS_PER_MINUTE tests per site in any minute, counted in this process (no global state: one per route table). */
const testLimiter = () => {
  const sent = new Map<string, number[]>();
  return (siteKey: string, now = Date.now()) => {
    const recent = (sent.get(siteKey) ?? []).filter((at) => at > now - 60_000);
    if (recent.length >= TESTS_PER_MINUTE) {
      const retryAfter = Math.max(1, Math.ceil((recent[0]! + 60_000 - now) / 1000));
      throw apiError(429, 'rate_limited', `at most ${TESTS_PER_MINUTE} tests per site per minute`, { 'retry-after': String(retryAfter) });
    }
    sent.set(siteKey, [...recent, now]);
  };
};

/**
 * The alerts API (docs/alerts.md, "The API"): a site's rules, read and managed with an installation
 * API key or by the site's dashboard users (writes with the cookie from this collector's own Origin,
 * http/auth.ts `siteApiKey`); a site-scoped key may not name, remove or test webhooks (403), and
 * sees a webhook's origin only. A webhook to an internal address is refused (400) unless `serve
 * --allow-private-webhooks`. A test is sent at once, through alerts/ (`sending`), and logged.
 */
export const alertRoutes = ({ store, sending }: { store: Pick<Store, 'alerts'>; sending: AlertSending }) => {
  const limitTests = testLimiter();
  return [
    defineRoute({
      method: 'GET',
      path: PATH,
      tag: TAG,
      summary: "The site's alert rules, oldest first: kind, channels (a webhook as signed, never its secret) and cooldown",
      auth: 'siteApiKey',
      responses: { 200: { description: 'The rules', schema: AlertRuleListSchema } },
      handle: ({ site, ...caller }) => readAlertRules(store, site!, { siteScoped: siteScoped(caller) }),
    }),
    defineRoute({
      method: 'POST',
      path: PATH,
      tag: TAG,
      summary: `Adds an alert rule: { kind, channels: [{ type: "email", to } | { type: "webhook", url, format?, secret? }], cooldown_minutes? } (at most ${MAX_RULES} per site)`,
      auth: 'siteApiKey',
      body: { schema: AlertRuleInputSchema, maxBytes: 16_384 },
      responses: {
        201: { description: 'The rule as stored (a webhook as signed)', schema: AlertRuleSchema },
        400: 'invalid_request: a field out of bounds (named), or a webhook to a private, loopback or link-local address',
        403: "forbidden: a webhook channel from a site's API key",
        409: `too_many_rules: the site has ${MAX_RULES} rules`,
      },
      async handle({ site, event, body, ...caller }) {
        refuseWebhooks(caller, body.channels, 'add');
        // Resolved at once, not in turn: a rule's check waits for one name's bound, not ten.
        const refusals = await Promise.all(body.channels.map((channel) => (channel.type == 'webhook' ? sending.refusedTarget(channel.url) : undefined)));
        const index = refusals.findIndex((refused) => refused !== undefined);
        if (index >= 0) throw apiError(400, 'invalid_request', `channels.${index}.url: ${refusals[index]}`);
        if ((await store.alerts.rules(site!.site_key)).length >= MAX_RULES) {
          throw apiError(409, 'too_many_rules', `a site has at most ${MAX_RULES} alert rules: remove one first`);
        }
        const rule = await store.alerts.addRule(site!.site_key, body);
        event.res.status = 201;
        return alertRuleAnswer(rule, { siteScoped: siteScoped(caller) });
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: `${PATH}/:id`,
      tag: TAG,
      summary: 'Removes an alert rule; alerts it already wrote to the outbox are still delivered',
      auth: 'siteApiKey',
      responses: { 204: 'Removed', 403: "forbidden: a rule with a webhook, from a site's API key", 404: UNKNOWN },
      async handle({ site, event, ...caller }) {
        const rule = await findRule(store, site!, ruleIdOf(event));
        refuseWebhooks(caller, rule.channels, 'remove');
        if (!(await store.alerts.removeRule(site!.site_key, rule.id))) throw unknownAlert();
        event.res.status = 204;
        return null;
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${PATH}/:id/test`,
      tag: TAG,
      summary: `Sends a test alert of the rule's kind to each of its channels now, once, and says what came of each; logged with the deliveries (at most ${TESTS_PER_MINUTE} per site per minute)`,
      auth: 'siteApiKey',
      responses: {
        200: { description: "Each channel's outcome, in the rule's order", schema: AlertTestSchema },
        403: "forbidden: a rule with a webhook, from a site's API key",
        404: UNKNOWN,
      },
      async handle({ site, event, ...caller }) {
        const rule = await findRule(store, site!, ruleIdOf(event));
        refuseWebhooks(caller, rule.channels, 'test');
        limitTests(site!.site_key);
        return { rule_id: rule.id, deliveries: await sending.sendTest({ key: site!.site_key, name: site!.name }, rule) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${PATH}/deliveries`,
      tag: TAG,
      summary: "The site's latest alert deliveries, newest first (50 unless limit says, at most 100): alert id, rule, channel, status, tries, last error, times",
      auth: 'siteApiKey',
      query: DeliveriesQuerySchema,
      responses: { 200: { description: 'The deliveries', schema: DeliveryListSchema } },
      handle: ({ site, query, ...caller }) => readAlertDeliveries(store, site!, { limit: query.limit, siteScoped: siteScoped(caller) }),
    }),
  ];
};
