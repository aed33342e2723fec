// Several collectors on one PostgreSQL database (docs/alerts.md, "Delivery"): each runs the delivery,
// and each outbox row reaches the receiver once.
import { afterEach, expect, test } from 'vitest';
import { newErrorReport } from '../core/newReports';
import type { Store } from '../store/contract';
import { createPostgresStore } from '../store/postgres';
import type { Periodic } from '../store/startPeriodic';
import { seedStore } from '../testing/seed';
import { usePostgresDatabase } from '../testing/testDatabase';
import { startAlertDelivery } from './startAlertDelivery';
import { startWebhookReceiver } from './testing/webhookReceiver';
import { until } from '../testing/until';

const database = usePostgresDatabase('alerts');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

test('three collectors delivering one outbox send each row once', async () => {
  const { url, drop } = await database.schema('alerts');
  cleanups.push(drop);
  const hook = await startWebhookReceiver('s3cret');
  cleanups.push(hook.close);
  const stores: Store[] = [];
  for (let index = 0; index < 3; index++) {
    const store = await createPostgresStore({ url });
    stores.push(store);
    cleanups.push(() => store.close());
  }
  const site = await seedStore(stores[0]!).addSite([]);
  await stores[0]!.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url: hook.url, format: 'json', secret: 's3cret' }], cooldown_minutes: 60 });
  // Eight new issues from each collector: 24 rows, past the site's rate, so some go as digests; every
  // key reaches the receiver once, and every alert is either sent or counted in a digest. The rate
  // itself is each collector's reading of what was sent (docs/alerts.md, "The digest"): not asserted here.
  for (const [index, store] of stores.entries()) {
    const reports = Array.from({ length: 8 }, (_, n) => newErrorReport({ error_type: 'javascript_error', error_message: `failure in ${'abc'[index]}${'abcdefgh'[n]}` }));
    await store.errors.insert(site, reports, { received_at: Date.now() });
  }
  const deliveries: Periodic[] = stores.map((store) => startAlertDelivery(store, { publicUrl: () => 'https://beacon.shop.example', webhooks: { allowPrivate: true }, intervalMs: 50 }));
  cleanups.push(() => Promise.all(deliveries.map((delivery) => delivery.stop())));
  await until(async () => (await stores[0]!.alerts.deliveries(site, { limit: 100 })).every(({ status }) => status == 'sent' || status == 'digested'), { ms: 10_000 });
  const rows = await stores[0]!.alerts.deliveries(site, { limit: 100 });
  const sent = rows.filter(({ status }) => status == 'sent').map(({ id }) => id).sort();
  expect(hook.requests.map(({ delivery }) => delivery).sort()).toEqual(sent);
  expect(hook.requests.every(({ verified }) => verified)).toBe(true);
  const alerts = hook.requests.filter(({ body }) => body.kind == 'new_issue').length;
  const digested = hook.requests.filter(({ body }) => body.kind == 'digest').reduce((sum, { body }) => sum + body.digest.count, 0);
  expect(digested).toBeGreaterThan(0);
  expect(alerts + digested).toBe(24);
});
