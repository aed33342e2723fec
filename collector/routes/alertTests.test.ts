import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createMailer } from '../alerts/sendEmail';
import { NO_SMTP } from '../alerts/sendTestAlert';
import { parseMime, startSmtpReceiver } from '../alerts/testing/smtpReceiver';
import { startWebhookReceiver } from '../alerts/testing/webhookReceiver';
import { createTestCollector } from '../testing/testCollector';
import { TESTS_PER_MINUTE } from './alerts';

// "Send a test" and the deliveries list (docs/alerts.md, "Sending a test"): a real SMTP server and a
// real webhook receiver on 127.0.0.1 (the collector allows private webhooks), a real SQLite file.

const SHOP = 'https://shop.example';
const SECRET = 'hook-secret';
const SMTP_USER = { user: 'alerts', pass: 'smtp-pass' };

interface TestAnswer {
  rule_id: number;
  deliveries: Array<{ alert_id: string; channel: Record<string, string>; status: string; error: string | null }>;
}
interface Delivery {
  alert_id: string; rule: string; test: boolean; kind: string; channel: Record<string, string>; status: string;
  tries: number; last_error: string | null; next_attempt_at: string | null; created_at: string; sent_at: string | null;
}

describe('alert tests and deliveries', { timeout: 60_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
  let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
  let site: string;
  let key: string;

  const call = (method: string, path: string, body?: unknown, siteKey = site, apiKey = key, on = collector) =>
    on.request(`/api/v1/sites/${siteKey}/alerts${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
    });
  const addRule = async (body: unknown, on = collector, siteKey = site, apiKey = key) => {
    const response = await call('POST', '', body, siteKey, apiKey, on);
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: number }).id;
  };
  const deliveries = async (query = '', on = collector, siteKey = site, apiKey = key) => {
    const response = await call('GET', `/deliveries${query}`, undefined, siteKey, apiKey, on);
    expect(response.status, await response.clone().text()).toBe(200);
    return ((await response.json()) as { data: Delivery[] }).data;
  };

  beforeEach(async () => {
    smtp = await startSmtpReceiver(SMTP_USER);
    hook = await startWebhookReceiver(SECRET);
    collector = createTestCollector({ alerts: { mailer: createMailer(smtp.url, 'sitebeacon <alerts@beacon.shop.example>'), allowPrivateWebhooks: true } });
    site = await collector.addSite([SHOP], 'Shop');
    key = await collector.apiKey();
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
    await smtp.close();
    await hook.close();
  });

  test('a test goes to every channel now, marked a test, signed; each delivery is logged sent with one try', async () => {
    const id = await addRule({ kind: 'new_issue', channels: [{ type: 'email', to: 'owner@shop.example' }, { type: 'webhook', url: hook.url, secret: SECRET }] });
    const response = await call('POST', `/${id}/test`);
    expect(response.status).toBe(200);
    const answer = (await response.json()) as TestAnswer;
    expect(answer).toEqual({
      rule_id: id,
      deliveries: [
        { alert_id: expect.any(String), channel: { type: 'email', to: 'owner@shop.example' }, status: 'sent', error: null },
        { alert_id: expect.any(String), channel: { type: 'webhook', url: hook.url }, status: 'sent', error: null },
      ],
    });
    // The mail, as serve sends alerts, says it is a test.
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.to).toEqual(['owner@shop.example']);
    const mail = parseMime(smtp.received[0]!.raw);
    expect(mail.headers.get('subject')).toBe(`[sitebeacon] Test: New issue on Shop: sitebeacon test alert of rule ${id}: nothing went wrong`);
    expect(mail.headers.get('auto-submitted')).toBe('auto-generated');
    // The webhook: signed under the channel's secret, of the rule's kind, `test: true`, linking to the site.
    expect(hook.requests).toHaveLength(1);
    expect(hook.requests[0]).toMatchObject({
      verified: true,
      delivery: answer.deliveries[1]!.alert_id,
      body: { id: answer.deliveries[1]!.alert_id, kind: 'new_issue', test: true, site: { key: site, name: 'Shop' }, url: `http://127.0.0.1:8787/sites/${site}` },
    });

    const logged = await deliveries();
    expect(logged.map(({ alert_id, rule, test, kind, channel, status, tries, last_error }) => ({ alert_id, rule, test, kind, channel, status, tries, last_error })).sort((a, b) => String(a.channel.type).localeCompare(String(b.channel.type)))).toEqual([
      { alert_id: answer.deliveries[0]!.alert_id, rule: String(id), test: true, kind: 'new_issue', channel: { type: 'email', to: 'owner@shop.example' }, status: 'sent', tries: 1, last_error: null },
      { alert_id: answer.deliveries[1]!.alert_id, rule: String(id), test: true, kind: 'new_issue', channel: { type: 'webhook', url: hook.url }, status: 'sent', tries: 1, last_error: null },
    ]);
    expect(logged.every(({ sent_at, created_at }) => sent_at !== null && sent_at >= created_at)).toBe(true);
    expect(JSON.stringify(logged)).not.toContain(SECRET);
    // A test is not an alert: the delivery never claims it again.
    expect(await collector.store.alerts.claimDue(Date.now() + 86_400_000, { limit: 10, leaseMs: 1000 })).toEqual([]);
  });

  test('what fails is said per channel and logged failed, never retried: a receiver that refuses, a closed port, a collector without SMTP', async () => {
    const closed = await startWebhookReceiver('other');
    await closed.close();
    // The receiver answers 401 to a request signed under another secret.
    const id = await addRule({
      kind: 'spike', window_minutes: 10, count: 100,
      channels: [{ type: 'webhook', url: hook.url, secret: 'not-the-receivers' }, { type: 'webhook', url: closed.url, format: 'discord' }, { type: 'email', to: 'nobody@shop.example' }],
    });
    const answer = (await (await call('POST', `/${id}/test`)).json()) as TestAnswer;
    expect(answer.deliveries.map(({ status, error }) => [status, error])).toEqual([
      ['failed', expect.stringMatching(/^HTTP 401/)],
      ['failed', expect.stringMatching(/ECONNREFUSED/)],
      ['sent', null],
    ]);
    expect(hook.requests[0]!.body).toMatchObject({ kind: 'spike', test: true, issue: { window_minutes: 10 } });
    const logged = await deliveries();
    expect(logged.filter(({ status }) => status == 'failed').map(({ tries, last_error, sent_at, next_attempt_at }) => ({ tries, failed: !!last_error, sent_at, next_attempt_at }))).toEqual([
      { tries: 1, failed: true, sent_at: null, next_attempt_at: null },
      { tries: 1, failed: true, sent_at: null, next_attempt_at: null },
    ]);

    const mailless = createTestCollector({ alerts: { allowPrivateWebhooks: true } });
    try {
      const shop = await mailless.addSite([SHOP], 'Shop');
      const installation = await mailless.apiKey();
      const rule = await addRule({ kind: 'regression', channels: [{ type: 'email', to: 'owner@shop.example' }] }, mailless, shop, installation);
      const refused = (await (await call('POST', `/${rule}/test`, undefined, shop, installation, mailless)).json()) as TestAnswer;
      expect(refused.deliveries).toEqual([{ alert_id: expect.any(String), channel: { type: 'email', to: 'owner@shop.example' }, status: 'failed', error: NO_SMTP }]);
      expect((await deliveries('', mailless, shop, installation))[0]).toMatchObject({ status: 'failed', last_error: NO_SMTP, test: true });
      expect(mailless.errors).toEqual([]);
    } finally {
      await mailless.close();
    }
  });

  test(`at most ${TESTS_PER_MINUTE} tests per site per minute (429 with Retry-After); an unknown rule is 404, another site's rule too`, async () => {
    const id = await addRule({ kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, secret: SECRET }] });
    for (let i = 0; i < TESTS_PER_MINUTE; i++) expect((await call('POST', `/${id}/test`)).status).toBe(200);
    const limited = await call('POST', `/${id}/test`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(hook.requests).toHaveLength(TESTS_PER_MINUTE);
    expect(await deliveries()).toHaveLength(TESTS_PER_MINUTE);

    const other = await collector.addSite(['https://other.example'], 'Other');
    const otherRule = await addRule({ kind: 'new_issue', channels: [{ type: 'email', to: 'x@other.example' }] }, collector, other);
    for (const path of [`/${otherRule}/test`, '/999/test', '/abc/test']) {
      const response = await call('POST', path);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('unknown_alert');
    }
    expect(smtp.received).toEqual([]);
  });

  test('deliveries: newest first, bounded by limit (1 to 100), outbox rows as they stand (pending, retrying with the next try)', async () => {
    const id = await addRule({ kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, secret: SECRET }] });
    for (let i = 0; i < 3; i++) {
      expect((await call('POST', `/${id}/test`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const all = await deliveries();
    expect(all).toHaveLength(3);
    expect([...all].sort((a, b) => b.created_at.localeCompare(a.created_at))).toEqual(all);
    expect(await deliveries('?limit=2')).toEqual(all.slice(0, 2));
    for (const limit of ['0', '101', 'x', '-1']) {
      const response = await call('GET', `/deliveries?limit=${limit}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain('limit');
    }
    // A real alert's row, pending, then retrying: the list says so, with its next try.
    const now = Date.now() + 1000;
    await collector.store.alerts.logDelivery({
      id: 'real-1', site_key: site, rule: String(id), fingerprint: 'ab12ab12ab12ab12', channel: { type: 'webhook', url: hook.url, format: 'json', secret: SECRET },
      payload: { id: 'real-1', kind: 'new_issue', site: { key: site, name: 'Shop' }, url: '', created_at: new Date(now).toISOString() },
      status: 'pending', tries: 1, next_attempt_at: null, last_error: null, created_at: now, sent_at: null,
    });
    expect((await deliveries('?limit=1'))[0]).toMatchObject({ alert_id: 'real-1', status: 'pending', test: false });
    await collector.store.alerts.record('real-1', { status: 'retry', error: 'HTTP 503: busy' }, now, now + 120_000);
    expect((await deliveries('?limit=1'))[0]).toEqual({
      alert_id: 'real-1', rule: String(id), test: false, kind: 'new_issue', channel: { type: 'webhook', url: hook.url }, status: 'retrying', tries: 2,
      last_error: 'HTTP 503: busy', next_attempt_at: new Date(now + 120_000).toISOString(), created_at: new Date(now).toISOString(), sent_at: null,
    });
  });
});
