import { rateMetric, VITALS_THRESHOLDS, type Rating } from './vitals';

/** One page of the per-page table (`GET /api/v1/sites/{site_key}/pages`). */
export interface PageVitals {
  page_url: string;
  sessions: number;
  /** Per metric web-vitals rates: samples, p75 and its rating, or null without samples. */
  metrics: Record<string, { samples: number; p75: number; rating: Rating } | null>;
}

/**
 * Per-page rows of a store, with each p75 rated by web-vitals' thresholds and every rated metric present.
 *
 * @example
 * buildPageVitals([{ page_url: '/', sessions: 1, metrics: { LCP: { samples: 1, p75: 1800 } } }])[0].metrics.LCP // { samples: 1, p75: 1800, rating: 'good' }
 */
export const buildPageVitals = (rows: Array<{ page_url: string; sessions: number; metrics: Record<string, { samples: number; p75: number }> }>): PageVitals[] =>
  rows.map(({ page_url, sessions, metrics }) => ({
    page_url,
    sessions,
    metrics: Object.fromEntries(
      [...VITALS_THRESHOLDS.keys()].map((name) => {
        const metric = metrics[name];
        return [name, metric ? { ...metric, rating: rateMetric(name, metric.p75)! } : null];
      }),
    ),
  }));
