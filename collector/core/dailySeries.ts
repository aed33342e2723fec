import { VITALS_THRESHOLDS } from './vitals';

const DAY = 86_400_000;

/** The longest range a daily series covers: a year and a day (the dashboard asks for 30 days at most). */
export const MAX_SERIES_DAYS = 366;

/** One UTC day of a site's activity (`GET /api/v1/sites/{site_key}/daily`). */
export interface DailyPoint {
  /** The UTC date, `YYYY-MM-DD`. */
  day: string;
  /** Error reports stored, and occurrences (their `count`s added up). */
  errors: number;
  error_occurrences: number;
  /** CSP violations. */
  csp: number;
  /** Performance sessions begun: page views that sent vitals. */
  page_views: number;
  /** Per metric, the p75 of the values last updated that day, or null without samples. */
  p75: Record<string, number | null>;
}

/**
 * The start of a series: `since`, or `days` days before `now`, and never more than MAX_SERIES_DAYS back.
 *
 * @example
 * seriesStart(undefined, Date.now(), 7) // a week ago
 */
export const seriesStart = (since: number | undefined, now: number, days: number) => Math.max(since ?? now - days * DAY, now - MAX_SERIES_DAYS * DAY);

/**
 * A site's daily series from what a store counted per day: every UTC day from `since`'s to `now`'s,
 * days without data as zeros (a chart's x axis has no gaps).
 *
 * @example
 * buildDailySeries({ since: Date.UTC(2026, 0, 1), now: Date.UTC(2026, 0, 2, 12), errors: [], csp: [], pageViews: [], p75: new Map() }).length // 2
 */
export const buildDailySeries = ({
  since,
  now,
  errors,
  csp,
  pageViews,
  p75,
}: {
  since: number;
  now: number;
  errors: Array<{ day: number; reports: number; count: number }>;
  csp: Array<{ day: number; reports: number }>;
  pageViews: Array<{ day: number; sessions: number }>;
  p75: ReadonlyMap<string, Array<{ day: number; p75: number }>>;
}): DailyPoint[] => {
  const byDay = <T extends { day: number }>(rows: T[]) => new Map(rows.map((row) => [row.day, row]));
  const [errorDays, cspDays, viewDays] = [byDay(errors), byDay(csp), byDay(pageViews)];
  const metricDays = new Map([...p75].map(([name, rows]) => [name, byDay(rows)]));
  const points: DailyPoint[] = [];
  for (let day = Math.floor(since / DAY) * DAY; day <= now; day += DAY) {
    points.push({
      day: new Date(day).toISOString().slice(0, 10),
      errors: errorDays.get(day)?.reports ?? 0,
      error_occurrences: errorDays.get(day)?.count ?? 0,
      csp: cspDays.get(day)?.reports ?? 0,
      page_views: viewDays.get(day)?.sessions ?? 0,
      p75: Object.fromEntries([...VITALS_THRESHOLDS.keys()].map((name) => [name, metricDays.get(name)?.get(day)?.p75 ?? null])),
    });
  }
  return points;
};

/**
 * Per-day rows filled with zeros for the days between `since` and `now` that have none: a trend
 * line with a point per day.
 *
 * @example
 * fillDays(Date.UTC(2026, 0, 1), Date.UTC(2026, 0, 2), [{ day: Date.UTC(2026, 0, 2), count: 3 }], { count: 0 })
 * // [{ day: '2026-01-01', count: 0 }, { day: '2026-01-02', count: 3 }]
 */
export const fillDays = <T extends { day: number }>(since: number, now: number, rows: T[], zero: Omit<T, 'day'>) => {
  const byDay = new Map(rows.map((row) => [row.day, row]));
  const days: Array<Omit<T, 'day'> & { day: string }> = [];
  for (let day = Math.floor(since / DAY) * DAY; day <= now; day += DAY) {
    days.push({ ...zero, ...byDay.get(day), day: new Date(day).toISOString().slice(0, 10) });
  }
  return days;
};
