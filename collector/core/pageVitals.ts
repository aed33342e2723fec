import { rateMetric, VITALS_THRESHOLDS, type Rating } from './vitals';

/** One route of the per-page table (`GET /api/v1/sites/{site_key}/pages`: docs/vitals.md, "Routes"). */
export interface PageVitals {
  route: string;
  /** One page URL of the route. */
  page_url: string;
  sessions: number;
  /** Per metric web-vitals rates: samples, p75 and its rating, or null without samples. */
  metrics: Record<string, { samples: number; p75: number; rating: Rating } | null>;
}

/**
 * Per-page rows of a store, with each p75 rated by web-vitals' thresholds and every rated metric present.
 *
 * @example
 * buildPageVitals([{ route: '/', page_url: 'https://shop.example/', sessions: 1, metrics: { LCP: { samples: 1, p75: 1800 } } }])[0].metrics.LCP // { samples: 1, p75: 1800, rating: 'good' }
 */
export const buildPageVitals = (
  rows: Array<{ route: string; page_url: string; sessions: number; metrics: Record<string, { samples: number; p75: number }> }>,
): PageVitals[] =>
  rows.map(({ route, page_url, sessions, metrics }) => ({
    route,
    page_url,
    sessions,
    metrics: Object.fromEntries(
      [...VITALS_THRESHOLDS.keys()].map((name) => {
        const metric = metrics[name];
        return [name, metric ? { ...metric, rating: rateMetric(name, metric.p75)! } : null];
      }),
    ),
  }));
