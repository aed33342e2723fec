import { expect, test } from 'vitest';
import type { StoredPerformanceSession } from '../collector/index';
import { canMeasure, vitals } from './vitalsVerdict';

const CHROMIUM = ['element', 'event', 'first-input', 'largest-contentful-paint', 'layout-shift', 'longtask', 'mark', 'measure', 'navigation', 'paint', 'resource'];
// Firefox (as of 2026) lists no layout-shift; WebKit before Safari 26 neither largest-contentful-paint nor event.
const FIREFOX = ['event', 'first-input', 'largest-contentful-paint', 'mark', 'measure', 'navigation', 'paint', 'resource'];
const WEBKIT = ['mark', 'measure', 'navigation', 'paint', 'resource'];

const session = (page: string, metrics: Record<string, number>): StoredPerformanceSession => ({
  id: 1,
  site_key: 'k',
  session_id: page,
  page_url: page,
  received_at: '2026-11-23T12:00:00.000Z',
  updated_at: '2026-11-23T12:00:00.000Z',
  metrics: Object.fromEntries(Object.entries(metrics).map(([name, value]) => [name, { value }])),
});

test('toHaveVitals passes when every page view is below each bound', () => {
  const verdict = vitals([session('http://x/a', { LCP: 800, CLS: 0.01 }), session('http://x/b', { LCP: 1200, CLS: 0 })], { LCP: { below: 2500 }, CLS: { below: 0.1 } }, CHROMIUM, 'chromium');
  expect(verdict).toMatchObject({ pass: true, notes: [], expected: 'LCP below 2500 ms, CLS below 0.1' });
  expect(verdict.received).toBe('2 page views\n  LCP: 1200 ms at worst, over 2 page views, below 2500 ms\n  CLS: 0.01 at worst, over 2 page views, below 0.1');
});

test('toHaveVitals: the failure names the worst page view, and it is final (a value only grows)', () => {
  const verdict = vitals([session('http://x/a', { LCP: 800 }), session('http://x/slow', { LCP: 3120.4 })], { LCP: { below: 2500 } }, CHROMIUM, 'chromium');
  expect(verdict).toMatchObject({ pass: false, final: true });
  expect(verdict.received).toBe('2 page views\n  LCP: 3120 ms on http://x/slow, not below 2500 ms');
});

test('toHaveVitals waits for a metric not received yet, and says why it may be missing', () => {
  const verdict = vitals([session('http://x/a', { LCP: 800 })], { LCP: { below: 2500 }, INP: { below: 200 } }, CHROMIUM, 'chromium');
  expect(verdict).toMatchObject({ pass: false, final: false });
  expect(verdict.received).toContain('INP: not received (INP is measured from interactions: click, tap or type on the page before asserting it)');
});

test('a vital the browser cannot measure is named in a note, not failed and not silently passed', () => {
  const firefox = vitals([session('http://x/a', { LCP: 800 })], { LCP: { below: 2500 }, CLS: { below: 0.1 } }, FIREFOX, 'firefox');
  expect(firefox.pass).toBe(true);
  expect(firefox.notes).toEqual(['CLS not checked: firefox cannot measure it (no "layout-shift" performance entries)']);
  expect(firefox.received).toContain('CLS: CLS not checked: firefox cannot measure it');

  const webkit = vitals([session('http://x/a', { FCP: 300 })], { LCP: { below: 2500 }, INP: { below: 200 }, FCP: { below: 1800 } }, WEBKIT, 'webkit');
  expect(webkit.pass).toBe(true);
  expect(webkit.notes).toEqual([
    'LCP not checked: webkit cannot measure it (no "largest-contentful-paint" performance entries)',
    'INP not checked: webkit cannot measure it (no "event" performance entries)',
  ]);
  // A measurable metric is still checked.
  expect(vitals([session('http://x/a', { FCP: 3000 })], { LCP: { below: 2500 }, FCP: { below: 1800 } }, WEBKIT, 'webkit').pass).toBe(false);
});

test('before any page said what it supports, the browser name decides', () => {
  expect(canMeasure('CLS', undefined, 'firefox')).toBe(false);
  expect(canMeasure('LCP', undefined, 'webkit')).toBe(false);
  expect(canMeasure('LCP', undefined, 'chromium')).toBe(true);
  // A newer Safari that lists the entry type measures it.
  expect(canMeasure('LCP', [...WEBKIT, 'largest-contentful-paint'], 'webkit')).toBe(true);
});

test('toHaveVitals refuses an empty or unknown expectation', () => {
  expect(() => vitals([], {}, CHROMIUM, 'chromium')).toThrow(/name at least one metric/);
  expect(() => vitals([], { FID: { below: 100 } } as never, CHROMIUM, 'chromium')).toThrow(/unknown metric "FID"/);
});
