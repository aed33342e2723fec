import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createTestCollector } from '../testing/testCollector';

describe('performance sessions', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let siteKey: string;
  const shop = 'https://shop.example';
  beforeEach(async () => {
    collector = createTestCollector();
    siteKey = await collector.addSite([shop]);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });
  const path = () => `/api/performance-sessions/${siteKey}`;
  const send = (method: 'POST' | 'PUT', body: unknown) =>
    collector.request(path(), { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: shop } });

  test('a POST creates the session; a PUT with the same session_id updates it, each metric keeping its latest value', async () => {
    const first = await send('POST', {
      session_id: 's1',
      page_url: 'https://shop.example/cart',
      navigation_type: 'navigate',
      started_at: 1795000000000,
      metrics: { LCP: { value: 1234, rating: 'good', id: 'v5-1', attribution: { element: 'img' } }, TTFB: { value: 80, rating: 'good' } },
    });
    expect(first.status).toBe(202);
    expect(first.headers.get('access-control-allow-origin')).toBe(shop);
    expect((await send('PUT', { session_id: 's1', metrics: { LCP: { value: 2600, rating: 'needs-improvement' }, CLS: { value: 0.02, rating: 'good' } } })).status).toBe(202);
    expect((await send('POST', { session_id: 's1', metrics: { INP: { value: 72, rating: 'good' } } })).status).toBe(202);

    const sessions = await collector.stored('performance', siteKey);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      session_id: 's1',
      page_url: 'https://shop.example/cart',
      navigation_type: 'navigate',
      started_at: 1795000000000,
      metrics: {
        LCP: { value: 2600, rating: 'needs-improvement' },
        TTFB: { value: 80, rating: 'good' },
        CLS: { value: 0.02, rating: 'good' },
        INP: { value: 72, rating: 'good' },
      },
    });
    // web-vitals attribution is not stored.
    expect(sessions[0]!.metrics.LCP).toEqual({ value: 2600, rating: 'needs-improvement' });
  });

  test('the preflight allows POST and PUT', async () => {
    const response = await collector.request(path(), { method: 'OPTIONS', headers: { origin: shop, 'access-control-request-method': 'PUT' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe('POST, PUT');
  });

  test.each([
    ['no session_id', { metrics: {} }],
    ['no metrics', { session_id: 's' }],
    ['a negative value', { session_id: 's', metrics: { LCP: { value: -1 } } }],
    ['an unknown rating', { session_id: 's', metrics: { LCP: { value: 1, rating: 'great' } } }],
    ['a metric name that is not a name', { session_id: 's', metrics: { 'LCP; DROP TABLE': { value: 1 } } }],
  ])('%s is 400 invalid_report, nothing stored', async (_name, body) => {
    const response = await send('POST', body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'invalid_report' } });
    expect(await collector.stored('performance', siteKey)).toEqual([]);
  });

  test('the unkeyed path does not exist for sessions (spec: keyed only)', async () => {
    const response = await collector.post('/api/performance-sessions', { session_id: 's', metrics: {} });
    expect(response.status).toBe(404);
  });
});
