// @vitest-environment happy-dom
// web-vitals itself is exercised in Chromium (e2e/beacon.spec.ts); here it is replaced by a source
// of metrics we control, to test the session logic around it: one session per page view, a new one
// after a back/forward cache restore, sampling of whole sessions.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { Metric } from 'web-vitals';

const callbacks: Array<(metric: Metric) => void> = [];
vi.mock('web-vitals', () => {
  const on = (callback: (metric: Metric) => void) => void callbacks.push(callback);
  return { onCLS: on, onFCP: on, onINP: on, onLCP: on, onTTFB: on };
});

const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
const sentSessions = () => fetchMock.mock.calls.map(([, init]) => JSON.parse(String(init.body)) as Record<string, any>);
const metric = (name: Metric['name'], value: number, navigationType: Metric['navigationType'] = 'navigate') =>
  ({
    name,
    value,
    rating: 'good',
    delta: value,
    id: `v6-${name}-${value}`,
    entries: [{}],
    navigationType,
    navigationId: 1,
    navigationURL: 'https://shop.example/cart?step=2',
    navigationStartTime: 0,
  }) as unknown as Metric;
const report = (m: Metric) => callbacks.forEach((callback) => callback(m));

beforeEach(() => {
  vi.resetModules();
  callbacks.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const start = async (sampleRate?: number) => {
  const { init, vitals } = await import('./index');
  return init({ siteKey: 'KEY', ingestOrigin: 'https://in.example', capture: [vitals({ sampleRate })] });
};

test('metrics of one page view go in one session, sent with web-vitals fields and without entries', async () => {
  const beacon = await start();
  report(metric('TTFB', 80));
  report(metric('FCP', 900));
  await beacon.flush();
  report(metric('LCP', 1200));
  report(metric('CLS', 0.02));
  await beacon.flush();
  const [first, second] = sentSessions();
  expect(fetchMock.mock.calls[0]![0]).toBe('https://in.example/api/performance-sessions/KEY');
  expect(first).toMatchObject({ navigation_type: 'navigate', metrics: { TTFB: { value: 80, rating: 'good' }, FCP: { value: 900 } } });
  expect(first!.metrics.TTFB.entries).toBeUndefined();
  expect(second!.session_id).toBe(first!.session_id);
  expect(Object.keys(second!.metrics).sort()).toEqual(['CLS', 'FCP', 'LCP', 'TTFB']);
  beacon.stop();
});

test('a back/forward cache restore starts a new session', async () => {
  const beacon = await start();
  report(metric('LCP', 1200));
  await beacon.flush();
  window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
  report(metric('FCP', 30, 'back-forward-cache'));
  await beacon.flush();
  const [before, after] = sentSessions();
  expect(after!.session_id).not.toBe(before!.session_id);
  expect(after).toMatchObject({ navigation_type: 'back-forward-cache', metrics: { FCP: { value: 30 } } });
  expect(after!.metrics.LCP).toBeUndefined();
  beacon.stop();
});

test('sampleRate 0 sends no session; web-vitals is registered once however many inits', async () => {
  const first = await start(0);
  report(metric('LCP', 1200));
  await first.flush();
  expect(fetchMock).not.toHaveBeenCalled();
  const { init, vitals } = await import('./index');
  init({ siteKey: 'OTHER', capture: [vitals()] }).stop();
  expect(callbacks).toHaveLength(5);
  first.stop();
});

test('every field web-vitals gives is sent but name and entries; navigationURL without its fragment', async () => {
  const beacon = await start();
  // As Firefox gives it (fixture firefox-esr-153/beacon.json).
  report({ ...metric('TTFB', 25), navigationURL: 'https://u:p@shop.example/cart?step=2#top', navigationId: 0, navigationInteractionId: 7 } as Metric);
  await beacon.flush();
  expect(sentSessions()[0]!.metrics.TTFB).toEqual({
    value: 25,
    rating: 'good',
    delta: 25,
    id: 'v6-TTFB-25',
    navigationType: 'navigate',
    navigationId: 0,
    navigationInteractionId: 7,
    navigationURL: 'https://shop.example/cart?step=2',
    navigationStartTime: 0,
  });
  beacon.stop();
});

test("a metric of the page's own load reported after a bfcache restore still goes to the first session", async () => {
  const beacon = await start();
  window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
  // beacon.vitals.js registered late: web-vitals reports the first load's LCP now, as "navigate".
  report(metric('LCP', 1200));
  report(metric('FCP', 30, 'back-forward-cache'));
  await beacon.flush();
  const [first, restored] = sentSessions();
  expect(first).toMatchObject({ navigation_type: 'navigate', metrics: { LCP: { value: 1200 } } });
  expect(restored).toMatchObject({ navigation_type: 'back-forward-cache', metrics: { FCP: { value: 30 } } });
  expect(restored!.session_id).not.toBe(first!.session_id);
  beacon.stop();
});

test('a session is sent with its wire fields only, its zeros kept; a failed snapshot is not retried once a newer one was sent', async () => {
  vi.useFakeTimers();
  try {
    fetchMock.mockImplementationOnce(async () => new Response(null, { status: 500 }));
    const beacon = await start();
    report(metric('CLS', 0));
    await beacon.flush();
    report(metric('LCP', 1200));
    await beacon.flush();
    await vi.advanceTimersByTimeAsync(300_000);
    const [failed, newer, ...retries] = sentSessions();
    expect(Object.keys(failed!).sort()).toEqual(['metrics', 'navigation_type', 'page_url', 'session_id', 'started_at']);
    expect(failed!.metrics.CLS).toMatchObject({ value: 0, delta: 0 });
    expect(Object.keys(newer!.metrics).sort()).toEqual(['CLS', 'LCP']);
    expect(retries).toEqual([]);
    beacon.stop();
  } finally {
    vi.useRealTimers();
  }
});
