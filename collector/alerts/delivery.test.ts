// Alerts end to end (docs/alerts.md, "The outbox", "Delivery"): reports into a collector on a real
// SQLite file, its outbox delivered by startAlertDelivery to a real SMTP server and a real webhook
// receiver on 127.0.0.1 (--allow-private-webhooks).
import { afterEach, beforeEach, expect, test } from 'vitest';
import { fingerprintOf } from '../core/fingerprint';
import { createSqliteStore } from '../store/sqlite';
import type { Periodic } from '../store/startPeriodic';
import { createTestCollector } from '../testing/testCollector';
import { createMailer } from './sendEmail';
import { sendWebhook } from './sendWebhook';
import { startAlertDelivery, type AlertDeliveryOptions } from './startAlertDelivery';
import { parseMime, startSmtpReceiver } from './testing/smtpReceiver';
import { startWebhookReceiver } from './testing/webhookReceiver';
import { until } from '../testing/until';

const SHOP = 'https://shop.example';
const SECRET = 'hook-secret';
const CRASH = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined' };
const SMTP_USER = { user: 'alerts', pass: 'pw' };

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let key: string;
let views = 0;
const cleanups: Array<() => Promise<unknown>> = [];
const report = (body: Record<string, unknown> = CRASH) =>
  collector.post(`/api/error-reports/${site}`, { page_url: `${SHOP}/cart`, session_id: `view-${++views}`, ...body }, { origin: SHOP });
const deliver = (options: Partial<AlertDeliveryOptions> & { store?: Parameters<typeof startAlertDelivery>[0] } = {}): Periodic => {
  const delivery = startAlertDelivery(options.store ?? collector.store, {
    publicUrl: () => 'https://beacon.shop.example',
    webhooks: { allowPrivate: true },
    intervalMs: 100,
    onError: (error) => collector.errors.push(error),
    ...options,
  });
  cleanups.push(() => delivery.stop());
  return delivery;
};
const statuses = async () => (await collector.store.alerts.deliveries(site, { limit: 100 })).map(({ status, channel }) => `${channel.type}:${status}`).sort();

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite([SHOP], 'Shop');
  key = await collector.apiKey(site);
  await collector.addUser('owner@shop.example', 'a long password', [site]);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  expect(collector.errors).toEqual([]);
  await collector.close();
});

test('a new issue: one email and one signed webhook within 5 s; a second report sends nothing; a regression after a resolve one more of each', async () => {
  const smtp = await startSmtpReceiver(SMTP_USER);
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(smtp.close, hook.close);
  expect(await collector.store.alerts.setEmailAlerts('owner@shop.example', true)).toBe(true);
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  await collector.store.alerts.addRule(site, { kind: 'regression', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  deliver({ mailer: createMailer(smtp.url, 'sitebeacon <alerts@beacon.shop.example>') });

  expect((await report()).status).toBe(202);
  await until(() => smtp.received.length == 1 && hook.requests.length == 1);
  const fingerprint = fingerprintOf(CRASH);
  const [request] = hook.requests;
  expect(request).toMatchObject({ verified: true, body: { id: request!.delivery, kind: 'new_issue', site: { key: site, name: 'Shop' }, issue: { fingerprint, title: 'TypeError: cart is undefined' } } });
  expect(request!.body.url).toBe(`https://beacon.shop.example/sites/${site}/errors/${fingerprint}`);
  expect(smtp.received[0]!.to).toEqual(['owner@shop.example']);
  expect(parseMime(smtp.received[0]!.raw).headers.get('subject')).toBe('[sitebeacon] New issue on Shop: TypeError: cart is undefined');
  await until(async () => (await statuses()).join() == 'email:sent,webhook:sent');

  // Its outbox is decided in the report's transaction: after the 202, nothing was added.
  expect((await report()).status).toBe(202);
  expect(await statuses()).toEqual(['email:sent', 'webhook:sent']);

  const resolved = await collector.request(`/api/v1/sites/${site}/issues/${fingerprint}`, {
    method: 'PATCH', body: JSON.stringify({ status: 'resolved' }), headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
  });
  expect(resolved.status).toBe(200);
  expect((await report()).status).toBe(202);
  await until(() => smtp.received.length == 2 && hook.requests.length == 2);
  expect(hook.requests[1]).toMatchObject({ verified: true, body: { kind: 'regression', issue: { fingerprint } } });
  expect(parseMime(smtp.received[1]!.raw).headers.get('subject')).toBe('[sitebeacon] Regression on Shop: TypeError: cart is undefined');
  // Nothing came between: one of each per alert.
  expect([smtp.received.length, hook.requests.length, hook.handled.size]).toEqual([2, 2, 2]);
});

test('SMTP down, then up: the mail is retried on the schedule and delivered once the server is back', async () => {
  const down = await startSmtpReceiver(SMTP_USER);
  const { port, url } = down;
  await down.close();
  await collector.store.alerts.setEmailAlerts('owner@shop.example', true);
  // The delivery's clock, moved past the first retry's 30 s instead of waiting them out.
  let skew = 0;
  deliver({ mailer: createMailer(url, 'alerts@beacon.shop.example'), now: () => Date.now() + skew });
  expect((await report()).status).toBe(202);
  await until(async () => (await statuses()).join() == 'email:retrying');
  const [retrying] = await collector.store.alerts.deliveries(site, { limit: 1 });
  expect(retrying).toMatchObject({ tries: 1, last_error: expect.stringMatching(/ECONNREFUSED/) });
  const up = await startSmtpReceiver(SMTP_USER, {}, port);
  cleanups.push(up.close);
  skew = 31_000;
  await until(() => up.received.length == 1);
  await until(async () => (await statuses()).join() == 'email:sent');
  expect((await collector.store.alerts.deliveries(site, { limit: 1 }))[0]).toMatchObject({ tries: 2, status: 'sent' });
});

test('a collector that stops between the commit and the delivery: the next one on the database delivers, once by its key', async () => {
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(hook.close);
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  // No delivery runs in this collector: its reports commit with their outbox rows, nothing is sent.
  expect((await report()).status).toBe(202);
  // Mid-send: one row claimed and posted, its outcome never recorded (the process died there).
  const [claimed] = await collector.store.alerts.claimDue(Date.now(), { limit: 1, leaseMs: 120_000 });
  expect(await sendWebhook({ url: hook.url, format: 'json', secret: SECRET }, claimed!.payload, { allowPrivate: true })).toMatchObject({ status: 'sent' });
  expect(hook.requests).toHaveLength(1);

  // The next collector process on the same file, its clock past the claim's lease.
  const next = createSqliteStore({ file: collector.file });
  cleanups.push(() => next.close());
  deliver({ store: next, now: () => Date.now() + 121_000 });
  await until(async () => (await next.alerts.deliveries(site, { limit: 10 })).every(({ status }) => status == 'sent'));
  expect(hook.requests).toHaveLength(3);
  expect(hook.handled.size).toBe(2);
  expect(hook.requests.every(({ verified }) => verified)).toBe(true);
  expect(hook.requests.filter(({ delivery }) => delivery == claimed!.id)).toHaveLength(2);
});

test('past 10 alerts in 10 minutes for a site and channel, the rest go as one digest', async () => {
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(hook.close);
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  const burst = Array.from({ length: 12 }, (_, index) => ({ ...CRASH, error_message: `widget ${String.fromCharCode(97 + index)} failed`, page_url: `${SHOP}/`, session_id: 'burst' }));
  expect((await collector.post(`/api/error-reports/${site}`, burst, { origin: SHOP })).status).toBe(202);
  deliver();
  await until(() => hook.requests.length == 11);
  const kinds = hook.requests.map(({ body }) => body.kind);
  expect(kinds.filter((kind) => kind == 'new_issue')).toHaveLength(10);
  const digest = hook.requests.find(({ body }) => body.kind == 'digest')!;
  expect(digest).toMatchObject({ verified: true, body: { id: digest.delivery, digest: { count: 2 }, url: `https://beacon.shop.example/sites/${site}` } });
  await until(async () => (await statuses()).join() == [...Array(2).fill('webhook:digested'), ...Array(11).fill('webhook:sent')].join());
});

/** A word for a number (digits would be one fingerprint: core/fingerprint.ts drops them). */
const word = (n: number) => [n % 26, Math.floor(n / 26) % 26].map((letter) => String.fromCharCode(97 + letter)).join('');

test('500 new issues in a minute: the first 10 alerts and one digest counting the other 490, not 500 messages', async () => {
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(hook.close);
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  for (let request = 0; request < 10; request++) {
    const burst = Array.from({ length: 50 }, (_, index) => ({ ...CRASH, error_message: `widget ${word(request * 50 + index)} failed`, page_url: `${SHOP}/`, session_id: `burst-${request}` }));
    expect((await collector.post(`/api/error-reports/${site}`, burst, { origin: SHOP })).status).toBe(202);
  }
  const every = async () => (await collector.store.alerts.deliveries(site, { limit: 1000 })).map(({ status }) => `webhook:${status}`);
  const delivery = deliver();
  await until(async () => (await every()).filter((status) => status == 'webhook:sent').length == 11, { ms: 15_000 });
  // A few runs more: nothing else goes.
  await delivery.idle();
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(hook.requests).toHaveLength(11);
  expect(hook.requests.filter(({ body }) => body.kind == 'new_issue')).toHaveLength(10);
  const digest = hook.requests.find(({ body }) => body.kind == 'digest')!;
  expect(digest).toMatchObject({ verified: true, body: { digest: { count: 490 } } });
  expect(digest.body.digest.headlines).toHaveLength(10);
  const counts = new Map<string, number>();
  for (const status of await every()) counts.set(status, (counts.get(status) ?? 0) + 1);
  expect(Object.fromEntries(counts)).toEqual({ 'webhook:digested': 490, 'webhook:sent': 11 });
});

test('without a rule, alert mail or unfinished delivery the delivery claims nothing; a rule added meanwhile alerts at the next check', async () => {
  const hook = await startWebhookReceiver(SECRET);
  cleanups.push(hook.close);
  const { alerts } = collector.store;
  let claims = 0;
  let checks = 0;
  const counted = {
    ...collector.store,
    alerts: { ...alerts, claimDue: (...args: Parameters<typeof alerts.claimDue>) => (claims++, alerts.claimDue(...args)), active: () => (checks++, alerts.active()) },
  };
  deliver({ store: counted, intervalMs: 20, idleCheckMs: 300 });
  expect((await report()).status).toBe(202);
  await until(() => checks >= 3);
  expect(claims).toBe(0);
  expect(await collector.store.alerts.deliveries(site, { limit: 10 })).toEqual([]);

  await collector.store.alerts.addRule(site, { kind: 'regression', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });
  expect((await report({ ...CRASH, error_message: 'checkout failed' })).status).toBe(202);
  await until(() => hook.requests.length == 1);
  expect(claims).toBeGreaterThan(0);
  expect(hook.requests[0]).toMatchObject({ verified: true, body: { kind: 'new_issue', issue: { title: 'TypeError: checkout failed' } } });
});
