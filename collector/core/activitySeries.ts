import { trendBuckets } from './trendBuckets';

/** One UTC hour of a site's activity (`GET /api/v1/sites/{site_key}/daily`'s `hours`), as a day of its `days`. */
export interface HourPoint {
  /** The hour's start, ISO. */
  hour: string;
  errors: number;
  error_occurrences: number;
  csp: number;
  page_views: number;
  /** The range ends inside this hour (the last): it is still filling. */
  incomplete: boolean;
}

/** A range's totals: error reports and occurrences, CSP violations, page views. */
export interface ActivityTotals {
  errors: number;
  error_occurrences: number;
  csp: number;
  page_views: number;
}

type Rows = {
  errors: Array<{ reports: number; count: number }>;
  csp: Array<{ reports: number }>;
  pageViews: Array<{ sessions: number }>;
};

/**
 * What per-day (or per-hour) rows add up to.
 *
 * @example
 * activityTotals({ errors: [{ reports: 2, count: 3 }], csp: [], pageViews: [{ sessions: 5 }] }) // { errors: 2, error_occurrences: 3, csp: 0, page_views: 5 }
 */
export const activityTotals = ({ errors, csp, pageViews }: Rows): ActivityTotals => {
  const sum = <T>(rows: T[], of: (row: T) => number) => rows.reduce((total, row) => total + of(row), 0);
  return {
    errors: sum(errors, (row) => row.reports),
    error_occurrences: sum(errors, (row) => row.count),
    csp: sum(csp, (row) => row.reports),
    page_views: sum(pageViews, (row) => row.sessions),
  };
};

/**
 * The range before a range, of the same length, and its totals: what counted since its start less
 * what counted since the range's (both read from the same per-day rows as the range's own).
 * Never below zero.
 *
 * @example
 * previousTotals({ errors: 10, ... }, { errors: 4, ... }) // { errors: 6, ... }
 */
export const previousTotals = (sinceEarlier: ActivityTotals, sinceStart: ActivityTotals): ActivityTotals => ({
  errors: Math.max(0, sinceEarlier.errors - sinceStart.errors),
  error_occurrences: Math.max(0, sinceEarlier.error_occurrences - sinceStart.error_occurrences),
  csp: Math.max(0, sinceEarlier.csp - sinceStart.csp),
  page_views: Math.max(0, sinceEarlier.page_views - sinceStart.page_views),
});

/**
 * A site's activity per UTC hour from `since` to `now`, or null when the range is longer than
 * hourly trends go: the one rule of core/trendBuckets.ts (48 hours or less), so that the site's
 * chart and its issues' trends change interval together. Every hour of the range is a point (zeros
 * where nothing came); the first counts from `since` (as the daily series' first day), the last is
 * `incomplete`.
 *
 * @example
 * buildHourlySeries({ since: Date.UTC(2026, 0, 1, 10, 30), now: Date.UTC(2026, 0, 1, 12, 5), errors: [], csp: [], pageViews: [] })!.length // 3
 */
export const buildHourlySeries = ({
  since,
  now,
  errors,
  csp,
  pageViews,
}: {
  since: number;
  now: number;
  errors: Array<{ hour: number; reports: number; count: number }>;
  csp: Array<{ hour: number; reports: number }>;
  pageViews: Array<{ hour: number; sessions: number }>;
}): HourPoint[] | null => {
  const trend = trendBuckets(since, now);
  if (trend.interval != 'hour') return null;
  const byHour = <T extends { hour: number }>(rows: T[]) => new Map(rows.map((row) => [row.hour, row]));
  const [errorHours, cspHours, viewHours] = [byHour(errors), byHour(csp), byHour(pageViews)];
  return trend.buckets.map(({ start, incomplete }) => ({
    hour: new Date(start).toISOString(),
    errors: errorHours.get(start)?.reports ?? 0,
    error_occurrences: errorHours.get(start)?.count ?? 0,
    csp: cspHours.get(start)?.reports ?? 0,
    page_views: viewHours.get(start)?.sessions ?? 0,
    incomplete,
  }));
};
