// @vitest-environment happy-dom
// The attribution entry sends web-vitals' metric fields plus a few bounded attribution fields.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { MetricWithAttribution } from 'web-vitals/attribution';

const callbacks: Array<(metric: MetricWithAttribution) => void> = [];
vi.mock('web-vitals/attribution', () => {
  const on = (callback: (metric: MetricWithAttribution) => void) => void callbacks.push(callback);
  return { onCLS: on, onFCP: on, onINP: on, onLCP: on, onTTFB: on };
});

const fetchMock = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
const report = (metric: object) => callbacks.forEach((callback) => callback(metric as MetricWithAttribution));
const base = { rating: 'good', id: 'v6-1', entries: [{}], navigationType: 'navigate', navigationId: 1 };

beforeEach(() => {
  vi.resetModules();
  callbacks.length = 0;
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

test('LCP, INP and CLS carry their target, URL, interaction target and largest shift target, and nothing larger', async () => {
  const { init } = await import('./index');
  const { vitals } = await import('./attribution');
  const beacon = init({ siteKey: 'KEY', capture: [vitals()] });
  report({
    ...base,
    name: 'LCP',
    value: 1200,
    delta: 1200,
    attribution: {
      target: '#main>img.hero',
      url: 'https://cdn.example/hero.jpg#crop',
      timeToFirstByte: 80,
      lcpEntry: { big: 'x'.repeat(10_000) },
      navigationEntry: {},
    },
  });
  report({ ...base, name: 'INP', value: 180, delta: 180, attribution: { interactionTarget: 'button#pay', interactionType: 'pointer', longAnimationFrameEntries: [{}] } });
  report({ ...base, name: 'CLS', value: 0.2, delta: 0.2, attribution: { largestShiftTarget: 'div.banner', largestShiftValue: 0.2, largestShiftEntry: {} } });
  report({ ...base, name: 'TTFB', value: 80, delta: 80, attribution: { waitingDuration: 10, navigationEntry: {} } });
  await beacon.flush();
  const { metrics } = JSON.parse(String(fetchMock.mock.calls[0]![1].body));
  expect(metrics.LCP.attribution).toEqual({ target: '#main>img.hero', url: 'https://cdn.example/hero.jpg' });
  expect(metrics.INP.attribution).toEqual({ interactionTarget: 'button#pay' });
  expect(metrics.CLS.attribution).toEqual({ largestShiftTarget: 'div.banner' });
  expect(metrics.TTFB.attribution).toBeUndefined();
  expect(metrics.LCP).toMatchObject({ value: 1200, rating: 'good', navigationId: 1 });
  expect(metrics.LCP.entries).toBeUndefined();
  beacon.stop();
});

test('an attribution field is bounded in length', async () => {
  const { init } = await import('./index');
  const { vitals } = await import('./attribution');
  const beacon = init({ siteKey: 'KEY', capture: [vitals()] });
  report({ ...base, name: 'LCP', value: 1, delta: 1, attribution: { url: `https://cdn.example/${'a'.repeat(5000)}` } });
  await beacon.flush();
  expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body)).metrics.LCP.attribution.url).toHaveLength(1000);
  beacon.stop();
});
