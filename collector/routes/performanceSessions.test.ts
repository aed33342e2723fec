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
    // A metric is replaced whole by its later value: the first LCP's fields (and its attribution) are gone.
    expect(sessions[0]!.metrics.LCP).toEqual({ value: 2600, rating: 'needs-improvement' });
  });

  test('every field web-vitals reports is kept, and the short part of the attribution, bounded; null means absent; URLs lose their fragment', async () => {
    const lcp = {
      value: 1234.5,
      rating: 'good',
      delta: 1234.5,
      id: 'v6-1795416501619-5386288552280',
      navigationType: 'navigate',
      navigationId: 0,
      navigationInteractionId: 7,
      navigationStartTime: 0,
      navigationURL: 'https://shop.example/cart?step=2#top',
      entries: [{ name: 'largest-contentful-paint', startTime: 1234 }],
      name: 'LCP',
      attribution: {
        target: `main > img.${'hero'.repeat(400)}`,
        url: 'https://cdn.example/hero.png#frag',
        timeToFirstByte: 100,
        lcpEntry: { size: 1 },
      },
    };
    const inp = { value: 240, rating: 'needs-improvement', id: 'v6-2', delta: 240, navigationId: null, attribution: { interactionTarget: '#buy', eventTarget: '#buy-v3', longAnimationFrameEntries: [{}] } };
    const cls = { value: 0.02, rating: null, attribution: { largestShiftTarget: 'div.banner', largestShiftEntry: {} } };
    const ttfb = { value: 80, attribution: null };
    expect((await send('POST', { session_id: 's2', metrics: { LCP: lcp, INP: inp, CLS: cls, TTFB: ttfb } })).status).toBe(202);
    const [session] = await collector.stored('performance', siteKey);
    expect(session!.metrics.LCP).toEqual({
      value: 1234.5,
      rating: 'good',
      id: 'v6-1795416501619-5386288552280',
      delta: 1234.5,
      navigationType: 'navigate',
      navigationId: 0,
      navigationInteractionId: 7,
      navigationStartTime: 0,
      navigationURL: 'https://shop.example/cart?step=2',
      attribution: { target: lcp.attribution.target.slice(0, 1000), url: 'https://cdn.example/hero.png' },
    });
    expect(session!.metrics.INP).toEqual({ value: 240, rating: 'needs-improvement', id: 'v6-2', delta: 240, attribution: { interactionTarget: '#buy', eventTarget: '#buy-v3' } });
    expect(session!.metrics.CLS).toEqual({ value: 0.02, attribution: { largestShiftTarget: 'div.banner' } });
    expect(session!.metrics.TTFB).toEqual({ value: 80 });
  });

  test.each([
    ['an attribution target that is not a string', { value: 1, attribution: { target: 5 } }],
    ['a navigationURL that is not a string', { value: 1, navigationURL: {} }],
    ['an infinite navigationStartTime', { value: 1, navigationStartTime: '1e999' }],
  ])('%s is 400 invalid_report', async (_name, metric) => {
    const response = await send('POST', { session_id: 's3', metrics: { LCP: metric } });
    expect(response.status).toBe(400);
    expect(await collector.stored('performance', siteKey)).toEqual([]);
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
