// The periodic rules end to end (docs/alerts.md, "Spikes", "Poor vitals"): reports into a
// collector on a real SQLite file, serve's evaluation writing the outbox, the delivery posting to a
// real webhook receiver on 127.0.0.1.
import { afterEach, beforeEach, expect, test } from 'vitest';
import { spikeRanges } from '../core/alerts/periodic';
import { fingerprintOf } from '../core/fingerprint';
import { newErrorReport } from '../core/newReports';
import { createTestCollector } from '../testing/testCollector';
import { evaluateAlerts } from './startAlertEvaluation';
import { startAlertDelivery } from './startAlertDelivery';
import { OUTBOX_RETENTION_DAYS, startOutboxRetention } from './startOutboxRetention';
import { startWebhookReceiver } from './testing/webhookReceiver';
import { until } from '../testing/until';

const SHOP = 'https://shop.example';
const SECRET = 'hook-secret';
const CRASH = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined' };
const DAY = 86_400_000;
const HOUR = 3_600_000;

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let hook: Awaited<ReturnType<typeof startWebhookReceiver>>;
let views = 0;
const channel = () => ({ type: 'webhook', url: hook.url, format: 'json', secret: SECRET }) as const;
const report = (count: number) =>
  collector.post(`/api/error-reports/${site}`, Array.from({ length: count }, () => ({ ...CRASH, page_url: `${SHOP}/cart`, session_id: `view-${++views}` })), { origin: SHOP });
const kinds = async () => (await collector.store.alerts.deliveries(site, { limit: 100 })).map(({ payload }) => payload.kind);

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite([SHOP], 'Shop');
  hook = await startWebhookReceiver(SECRET);
});
afterEach(async () => {
  await hook.close();
  expect(collector.errors).toEqual([]);
  await collector.close();
});

test('without a periodic rule an evaluation writes nothing', async () => {
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [channel()], cooldown_minutes: 60 });
  expect(await evaluateAlerts(collector.store, Date.now(), {})).toBe(0);
});

test('a spike past its count: one alert per window from any collector, delivered signed with its window count', async () => {
  await collector.store.alerts.addRule(site, { kind: 'spike', channels: [channel()], cooldown_minutes: 60, window_minutes: 10, count: 6 });
  expect((await report(5)).status).toBe(202);
  expect(await evaluateAlerts(collector.store, Date.now(), {})).toBe(0);
  expect((await report(1)).status).toBe(202);
  const now = Date.now();
  expect(await evaluateAlerts(collector.store, now, {})).toBe(1);
  // Another collector on the database, in the same window: the same key, nothing more.
  expect(await evaluateAlerts(collector.store, now + 1000, {})).toBe(0);
  expect(await kinds()).toEqual(['spike']);
  const delivery = startAlertDelivery(collector.store, { publicUrl: () => 'https://beacon.shop.example', webhooks: { allowPrivate: true }, intervalMs: 100 });
  try {
    await until(() => hook.requests.length == 1);
  } finally {
    await delivery.stop();
  }
  const fingerprint = fingerprintOf(CRASH);
  expect(hook.requests[0]).toMatchObject({
    verified: true,
    body: { kind: 'spike', issue: { fingerprint, window_count: 6, window_minutes: 10 }, url: `https://beacon.shop.example/sites/${site}/errors/${fingerprint}` },
  });
});

test("a spike by factor: three times the issue's usual rate over the last seven days, within the cooldown once", async () => {
  const now = Date.now();
  // 1,008 a day for seven days: 7 in ten minutes is its usual rate; three times that is 21.
  for (let day = 1; day <= 7; day++) {
    await collector.store.errors.insert(site, [newErrorReport({ ...CRASH, count: 1008 })], { received_at: now - day * DAY });
  }
  await collector.store.alerts.addRule(site, { kind: 'spike', channels: [channel()], cooldown_minutes: 60, window_minutes: 10, factor: 3 });
  expect((await report(20)).status).toBe(202);
  expect(await evaluateAlerts(collector.store, Date.now(), {})).toBe(0);
  expect((await report(1)).status).toBe(202);
  const [counted] = await collector.store.alerts.spikeCounts(site, { ...spikeRanges(10, Date.now()), limit: 10 });
  expect(counted, 'the window and the baseline as the evaluation reads them').toMatchObject({ occurrences: 21, baseline: 7 * 1008 });
  expect(await evaluateAlerts(collector.store, Date.now(), {})).toBe(1);
  // The next window, within the hour's cooldown: nothing.
  expect(await evaluateAlerts(collector.store, Date.now() + 10 * 60_000, {})).toBe(0);
});

test('a vital turning poor alerts once for the hour; one poor the day before too does not', async () => {
  await collector.store.alerts.addRule(site, { kind: 'vital_poor', channels: [channel()], cooldown_minutes: 60, metric: 'LCP' });
  await collector.store.alerts.addRule(site, { kind: 'vital_poor', channels: [channel()], cooldown_minutes: 60, metric: 'CLS' });
  const hour = Math.floor(Date.now() / HOUR) * HOUR;
  // Evaluated in the next hour: the samples of this one are in its last 24 hours, not in the 24 before.
  const now = hour + HOUR + 60_000;
  for (let index = 0; index < 20; index++) {
    await collector.store.performance.upsert(site, { session_id: `lcp-${index}`, metrics: { LCP: { value: 5000 + index } } }, { received_at: hour + index });
    // CLS poor in both windows: a day ago as well as in this hour.
    await collector.store.performance.upsert(site, { session_id: `cls-${index}`, metrics: { CLS: { value: 0.4 } } }, { received_at: hour - 2 * HOUR + index });
  }
  const state = {};
  expect(await evaluateAlerts(collector.store, now, state)).toBe(1);
  expect(await evaluateAlerts(collector.store, now + 60_000, state)).toBe(0);
  // Another collector in the same hour writes the same key: nothing.
  expect(await evaluateAlerts(collector.store, now + 120_000, {})).toBe(0);
  const [row] = await collector.store.alerts.deliveries(site, { limit: 10 });
  expect(row!.payload).toMatchObject({ kind: 'vital_poor', vital: { metric: 'LCP', p75: 5014 } });
  expect(await kinds()).toEqual(['vital_poor']);
});

test(`the outbox keeps an ended delivery ${OUTBOX_RETENTION_DAYS} days, a pending one whatever its age`, async () => {
  await collector.store.alerts.addRule(site, { kind: 'new_issue', channels: [channel(), channel()], cooldown_minutes: 60 });
  await report(1);
  const [sent] = await collector.store.alerts.claimDue(Date.now(), { limit: 1, leaseMs: 0 });
  await collector.store.alerts.record(sent!.id, { status: 'sent' }, Date.now(), undefined);
  const prune = async (days: number) => {
    let started = false;
    const pruning = startOutboxRetention(collector.store, { now: () => ((started = true), Date.now() + days * DAY) });
    await until(() => started);
    await pruning.idle();
    await pruning.stop();
  };
  await prune(OUTBOX_RETENTION_DAYS - 1);
  expect((await collector.store.alerts.deliveries(site, { limit: 10 })).map(({ status }) => status).sort()).toEqual(['pending', 'sent']);
  await prune(OUTBOX_RETENTION_DAYS + 1);
  expect((await collector.store.alerts.deliveries(site, { limit: 10 })).map(({ status }) => status)).toEqual(['pending']);
});
