// A collector killed between the decision and the delivery (docs/alerts.md, "The outbox",
// "Delivery"): `sitebeacon serve` processes, one SIGKILLed after its report's outbox row committed
// and before the alert reached the receiver (down at first), then a new one on the same database
// delivers it; the receiver sees it once, by its Sitebeacon-Delivery key. On an SQLite file and on
// PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import type { Store } from '../store/contract';
import { openStore } from '../store/openStore';
import { spawnCollector, type CollectorProcess } from '../testing/spawnCollector';
import { usePostgresDatabase } from '../testing/testDatabase';
import { startWebhookReceiver } from './testing/webhookReceiver';
import { until } from '../testing/until';

const SHOP = 'https://shop.example';
const SECRET = 'hook-secret';
const database = usePostgresDatabase('killed');
const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const databases: Record<string, () => Promise<string>> = {
  SQLite: async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-killed-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    return join(dir, 'sitebeacon.db');
  },
  PostgreSQL: async () => {
    const { url, drop } = await database.schema('killed');
    cleanups.push(drop);
    return url;
  },
};

test.each(Object.keys(databases))('%s: a collector SIGKILLed after the commit, before the delivery: the next one delivers it, once by its key', async (name) => {
  const db = await databases[name]!();
  // The receiver is down at first: its port is known, nothing listens there.
  const down = await startWebhookReceiver(SECRET);
  const { port, url } = down;
  await down.close();

  const store: Store = await openStore(db);
  cleanups.push(() => store.close());
  const site = (await store.sites.create({ site_key: 'killed-shop', name: 'Shop', allowed_origins: [SHOP] })).site_key;
  await store.alerts.addRule(site, { kind: 'new_issue', channels: [{ type: 'webhook', url, format: 'json', secret: SECRET }], cooldown_minutes: 60 });

  const args = ['--allow-private-webhooks', '--log-level', 'silent'];
  const first: CollectorProcess = await spawnCollector({ db, args });
  cleanups.push(() => first.stop('SIGKILL'));
  const response = await fetch(`${first.url}/api/error-reports/${site}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: SHOP },
    body: JSON.stringify({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined', page_url: `${SHOP}/cart` }),
  });
  expect(response.status).toBe(202);
  // Stored with its alert's row; the first try refused (the receiver is down): retried 30 s later.
  await until(async () => (await store.alerts.deliveries(site, { limit: 10 })).some(({ status }) => status == 'retrying'), { ms: 10_000 });
  expect(await first.stop('SIGKILL')).toBeNull();
  expect(first.child.signalCode).toBe('SIGKILL');
  const [row] = await store.alerts.deliveries(site, { limit: 10 });
  expect(row).toMatchObject({ status: 'retrying', tries: 1, last_error: expect.stringMatching(/ECONNREFUSED/) });

  const hook = await startWebhookReceiver(SECRET, port);
  cleanups.push(hook.close);
  const second = await spawnCollector({ db, args });
  cleanups.push(() => second.stop());
  await until(() => hook.requests.length > 0, { ms: 45_000 });
  await until(async () => (await store.alerts.deliveries(site, { limit: 10 }))[0]!.status == 'sent', { ms: 10_000 });
  expect(hook.requests).toHaveLength(1);
  expect(hook.requests[0]).toMatchObject({ delivery: row!.id, verified: true, body: { id: row!.id, kind: 'new_issue', issue: { title: 'TypeError: cart is undefined' } } });
  expect((await store.alerts.deliveries(site, { limit: 10 })).map(({ id, status, tries }) => ({ id, status, tries }))).toEqual([{ id: row!.id, status: 'sent', tries: 2 }]);
  expect(await second.stop()).toBe(0);
}, 120_000);
