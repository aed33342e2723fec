import Database from 'better-sqlite3';
import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

const shop = 'https://shop.example';
const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const CHROME_ANDROID_TABLET = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

let collector: ReturnType<typeof createTestCollector>;
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

const crash = { error_type: 'javascript_error', error_message: 'cart is empty', page_url: `${shop}/cart`, release: '2.4.1', environment: 'production' };

test('an error report stores its client as parsed at ingest, hints included, with its release and environment (docs/issues.md)', async () => {
  collector = createTestCollector();
  const siteKey = await collector.addSite([shop], 'Shop');
  // Chromium on an Android tablet: its user agent says nothing of a phone, and its hints say `?0`.
  const hints = { 'sec-ch-ua': '"Chromium";v="131", "Google Chrome";v="131", "Not_A Brand";v="24"', 'sec-ch-ua-mobile': '?0', 'sec-ch-ua-platform': '"Android"' };
  expect((await collector.post(`/api/error-reports/${siteKey}`, crash, { origin: shop, 'user-agent': CHROME_ANDROID_TABLET, ...hints })).status).toBe(202);
  expect((await collector.post(`/api/error-reports/${siteKey}`, crash, { origin: shop, 'user-agent': CHROME_WINDOWS })).status).toBe(202);
  const [issue] = (await collector.store.issues.list(siteKey, { status: 'all', sort: 'last_seen', limit: 10 })).rows;
  const fingerprint = issue!.fingerprint;
  const { rows } = await collector.store.issues.events(siteKey, fingerprint, { limit: 10 });
  expect(rows.map(({ browser, os, device, release, environment }) => ({ browser, os, device, release, environment }))).toEqual([
    { browser: 'Chrome', os: 'Windows', device: 'desktop', release: '2.4.1', environment: 'production' },
    { browser: 'Chrome', os: 'Android', device: 'tablet', release: '2.4.1', environment: 'production' },
  ]);
  expect(await collector.store.issues.get(siteKey, fingerprint)).toMatchObject({ first_release: '2.4.1', last_release: '2.4.1', status: 'unresolved' });
});

test("a known bot's report is stored flagged and left out of the issues' counts unless asked for", async () => {
  collector = createTestCollector();
  const siteKey = await collector.addSite([shop], 'Shop');
  expect((await collector.post(`/api/error-reports/${siteKey}`, crash, { origin: shop, 'user-agent': GOOGLEBOT })).status).toBe(202);
  expect((await collector.store.issues.list(siteKey, { status: 'all', sort: 'last_seen', limit: 10 })).rows).toEqual([]);
  const { rows } = await collector.store.issues.list(siteKey, { status: 'all', sort: 'last_seen', limit: 10, includeBots: true });
  expect(rows).toMatchObject([{ reports: 1, error_message: 'cart is empty' }]);
});

test("a performance session stores its release, environment, device and bot: the page views issues' shares are of", async () => {
  collector = createTestCollector();
  const siteKey = await collector.addSite([shop], 'Shop');
  const session = { session_id: 's1', page_url: `${shop}/`, release: '2.4.1', environment: 'staging', metrics: { LCP: { value: 1200 } } };
  expect((await collector.post(`/api/performance-sessions/${siteKey}`, session, { origin: shop, 'user-agent': IPHONE })).status).toBe(202);
  // A later submission of the same page view keeps the first one's client, as its visitor.
  const later = { session_id: 's1', page_url: `${shop}/`, metrics: { CLS: { value: 0.01 } } };
  expect((await collector.post(`/api/performance-sessions/${siteKey}`, later, { origin: shop, 'user-agent': GOOGLEBOT })).status).toBe(202);
  const db = new Database(collector.file, { readonly: true });
  try {
    expect(db.prepare('SELECT release, environment, device, bot FROM performance_sessions WHERE site_key = ?').all(siteKey)).toEqual([
      { release: '2.4.1', environment: 'staging', device: 'mobile', bot: 0 },
    ]);
  } finally {
    db.close();
  }
});
