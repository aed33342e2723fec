import { afterEach, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

let collector: ReturnType<typeof createTestCollector>;
afterEach(() => collector.close());

const report = { error_type: 'js', error_message: 'm' };

test('over the per-IP rate a client gets 429 rate_limited with Retry-After, and nothing more is stored', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 1, perSite: 0 } });
  const statuses: number[] = [];
  let limited: Response | undefined;
  for (let i = 0; i < 4; i++) {
    const response = await collector.post('/api/error-reports', report);
    statuses.push(response.status);
    if (response.status == 429) limited = response;
  }
  // A burst of 2 (two seconds' worth), then refused.
  expect(statuses).toEqual([202, 202, 429, 429]);
  expect(limited!.headers.get('retry-after')).toBe('1');
  expect(await limited!.json()).toMatchObject({ error: { code: 'rate_limited' } });
  expect(await collector.stored('errors', 'default')).toHaveLength(2);
});

test('the per-site rate counts every client of the site together', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 0, perSite: 1 }, trustProxy: true });
  const from = (ip: string) => collector.post('/api/error-reports', report, { 'x-forwarded-for': ip });
  expect([(await from('203.0.113.1')).status, (await from('203.0.113.2')).status, (await from('203.0.113.3')).status]).toEqual([202, 202, 429]);
});

test('0 turns a limit off', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 0, perSite: 0 } });
  const statuses = await Promise.all(Array.from({ length: 60 }, () => collector.post('/api/error-reports', report).then((response) => response.status)));
  expect(new Set(statuses)).toEqual(new Set([202]));
});

test('with trustProxy the client is the last X-Forwarded-For entry (the one the proxy added), not a spoofed first one', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 1, perSite: 0 }, trustProxy: true });
  const via = (forwardedFor: string) => collector.post('/api/error-reports', report, { 'x-forwarded-for': forwardedFor });
  await via('198.51.100.7');
  await via('198.51.100.7');
  expect((await via('198.51.100.7')).status).toBe(429);
  // A client that makes up its own first entry is still 198.51.100.7 to the proxy.
  expect((await via('10.0.0.1, 198.51.100.7')).status).toBe(429);
  expect((await via('198.51.100.8')).status).toBe(202);
});

test('without trustProxy, X-Forwarded-For is ignored', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 1, perSite: 0 } });
  const via = (forwardedFor: string) => collector.post('/api/error-reports', report, { 'x-forwarded-for': forwardedFor });
  expect([(await via('198.51.100.1')).status, (await via('198.51.100.2')).status, (await via('198.51.100.3')).status]).toEqual([202, 202, 429]);
});

test('one client flooding a site key is refused while every other client of the site keeps getting 202 (floods)', async () => {
  collector = createTestCollector({ rateLimits: { perIp: 5, perSite: 40 }, trustProxy: true });
  const siteKey = await collector.addSite(['https://shop.example']);
  const from = (ip: string) =>
    collector.post(`/api/error-reports/${siteKey}`, report, { 'x-forwarded-for': ip }).then((response) => response.status);
  const polite = Array.from({ length: 6 }, (_, n) => `203.0.113.${n + 1}`);
  const politeStatuses: number[] = [];
  const floodStatuses: number[] = [];
  // 300 requests from the flooder, and between them each polite client's 5 (within its burst of 10).
  for (let round = 0; round < 5; round++) {
    for (let n = 0; n < 60; n++) floodStatuses.push(await from('198.51.100.66'));
    for (const ip of polite) politeStatuses.push(await from(ip));
  }
  expect(new Set(politeStatuses)).toEqual(new Set([202]));
  expect(floodStatuses.filter((status) => status == 429).length).toBeGreaterThan(250);
  const accepted = politeStatuses.length + floodStatuses.filter((status) => status == 202).length;
  expect(await collector.stored('errors', siteKey)).toHaveLength(accepted);
});
