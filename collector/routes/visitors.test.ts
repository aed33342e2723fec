import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

const shop = 'https://shop.example';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const ADDRESS = '203.0.113.77';
let views = 0;

let collector: ReturnType<typeof createTestCollector>;
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

/** Sends one page view's error from a client; the proxy's address is read only with --trust-proxy. */
const pageView = (siteKey: string, page: string, client: { address: string; userAgent: string }) =>
  collector.post(
    `/api/error-reports/${siteKey}`,
    { error_type: 'javascript_error', error_message: 'cart is empty', page_url: `${shop}${page}`, session_id: `view-${++views}` },
    { origin: shop, 'user-agent': client.userAgent, 'x-forwarded-for': `198.51.100.1, ${client.address}` },
  );

const group = async (siteKey: string) => {
  const key = await collector.apiKey(siteKey);
  const response = await collector.request(`/api/v1/sites/${siteKey}/error-groups`, { headers: { authorization: `Bearer ${key}` } });
  const [first] = (await response.json()).data;
  return first as { sessions: number; visitors: number };
};

test('an error group counts visitors, not page views: one client on three pages is 1, another client makes 2', async () => {
  collector = createTestCollector({ trustProxy: true });
  const siteKey = await collector.addSite([shop], 'Shop');
  const ann = { address: ADDRESS, userAgent: FIREFOX };
  for (const page of ['/', '/cart', '/checkout']) expect((await pageView(siteKey, page, ann)).status).toBe(202);
  expect(await group(siteKey)).toMatchObject({ sessions: 3, visitors: 1 });
  await pageView(siteKey, '/', { address: '198.51.100.9', userAgent: FIREFOX });
  await pageView(siteKey, '/', { address: ADDRESS, userAgent: CHROME });
  expect(await group(siteKey)).toMatchObject({ sessions: 5, visitors: 3 });
});

test('without --trust-proxy, X-Forwarded-For is no client of its own: the connection is', async () => {
  collector = createTestCollector();
  const siteKey = await collector.addSite([shop], 'Shop');
  await pageView(siteKey, '/', { address: ADDRESS, userAgent: FIREFOX });
  await pageView(siteKey, '/cart', { address: '198.51.100.9', userAgent: FIREFOX });
  expect(await group(siteKey)).toMatchObject({ sessions: 2, visitors: 1 });
});

test("every report kind stores its client's visitor, and the address is nowhere in the database's files", async () => {
  collector = createTestCollector({ trustProxy: true });
  const siteKey = await collector.addSite([shop], 'Shop');
  const headers = { origin: shop, 'user-agent': FIREFOX, 'x-forwarded-for': ADDRESS };
  expect((await pageView(siteKey, '/', { address: ADDRESS, userAgent: FIREFOX })).status).toBe(202);
  const csp = { 'csp-report': { 'document-uri': `${shop}/`, 'effective-directive': 'img-src', 'blocked-uri': 'https://cdn.example/x.png' } };
  expect((await collector.post(`/api/csp-reports/${siteKey}`, csp, headers)).status).toBe(202);
  const session = { session_id: 's1', page_url: `${shop}/`, metrics: { LCP: { value: 1200 } } };
  expect((await collector.post(`/api/performance-sessions/${siteKey}`, session, headers)).status).toBe(202);
  const visitors = new Set<unknown>();
  for (const kind of ['errors', 'csp', 'performance'] as const) for (const record of await collector.stored(kind, siteKey)) visitors.add(record.visitor);
  expect([...visitors]).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/)]);
  const dir = dirname(collector.file);
  const files = readdirSync(dir).filter((name) => name.startsWith('sitebeacon.db'));
  expect(files).toContain('sitebeacon.db');
  for (const name of files) {
    const bytes = readFileSync(join(dir, name));
    expect(bytes.includes(ADDRESS), name).toBe(false);
    expect(bytes.includes(Buffer.from(ADDRESS, 'utf16le')), name).toBe(false);
  }
  // The user agent, stored beside the visitor, is found: the search reads where the reports are.
  expect(files.some((name) => readFileSync(join(dir, name)).includes(FIREFOX))).toBe(true);
});
