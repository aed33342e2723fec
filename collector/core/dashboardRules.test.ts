import { expect, test } from 'vitest';
import { buildDailySeries, MAX_SERIES_DAYS, seriesStart } from './dailySeries';
import { dashboardPolicy } from './dashboardPolicy';
import { buildPageVitals } from './pageVitals';

test('a daily series has every UTC day from since to now, zeros where nothing came', () => {
  const since = Date.UTC(2026, 0, 1, 15);
  const series = buildDailySeries({
    since,
    now: Date.UTC(2026, 0, 3, 1),
    errors: [{ day: Date.UTC(2026, 0, 2), reports: 2, count: 5 }],
    csp: [{ day: Date.UTC(2026, 0, 1), reports: 1 }],
    pageViews: [{ day: Date.UTC(2026, 0, 3), sessions: 7 }],
    p75: new Map([['LCP', [{ day: Date.UTC(2026, 0, 3), p75: 2100 }]]]),
  });
  expect(series.map((point) => [point.day, point.errors, point.error_occurrences, point.csp, point.page_views, point.p75.LCP])).toEqual([
    ['2026-01-01', 0, 0, 1, 0, null],
    ['2026-01-02', 2, 5, 0, 0, null],
    ['2026-01-03', 0, 0, 0, 7, 2100],
  ]);
  expect(Object.keys(series[0]!.p75)).toEqual(['LCP', 'INP', 'CLS', 'FCP', 'TTFB']);
  const now = Date.UTC(2026, 5, 1);
  expect(seriesStart(0, now, 7)).toBe(now - MAX_SERIES_DAYS * 86_400_000);
  expect(seriesStart(undefined, now, 7)).toBe(now - 7 * 86_400_000);
});

test('per-page vitals are rated by their p75, every rated metric present', () => {
  const [page] = buildPageVitals([{ route: '/', page_url: 'https://shop.example/', sessions: 3, metrics: { LCP: { samples: 3, p75: 2600 }, CLS: { samples: 2, p75: 0.05 } } }]);
  expect(page!.metrics).toEqual({
    LCP: { samples: 3, p75: 2600, rating: 'needs-improvement' },
    INP: null,
    CLS: { samples: 2, p75: 0.05, rating: 'good' },
    FCP: null,
    TTFB: null,
  });
});

test("the dashboard's policy: its own origin only, the ingest host for connect-src, report-to only over HTTPS", () => {
  const plain = dashboardPolicy({ app_url: 'http://127.0.0.1:8787', api_base: 'http://127.0.0.1:8787/api' });
  expect(plain.header).toBe(
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'; report-uri http://127.0.0.1:8787/api/csp-reports/dashboard",
  );
  const split = dashboardPolicy({ app_url: 'https://app.example', api_base: 'https://in.example/api' });
  expect(split.header).toContain("connect-src 'self' https://in.example;");
  expect(split.header).toMatch(/; report-to sitebeacon-dashboard$/);
  expect(split.reportingEndpoints).toBe('sitebeacon-dashboard="https://app.example/api/csp-reports/dashboard"');
});
