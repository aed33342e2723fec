import type { Database } from 'better-sqlite3';
import type { PerformanceSessionStore } from '../contract/performanceSessions';
import { pageVitalsRows, ROUTE_OF, type PageMetricRow } from '../pageVitalsRows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The dashboard's reads of performance sessions in SQLite: page views per day, daily p75, per-page
 * vitals. The p75s are the aggregate `p75(value)` (sqlite/p75.ts, core/vitals.ts's rank).
 */
export const sqlitePerformanceReads = (db: Database) => {
  const daily = db.prepare<[string, number, number], { day: number; sessions: number }>(
    `SELECT received_at / ${DAY} * ${DAY} AS day, COUNT(*) AS sessions FROM performance_sessions
     WHERE site_key = ? AND updated_at >= ? AND received_at >= ? GROUP BY 1 ORDER BY 1`,
  );
  const hourly = db.prepare<[string, number, number], { hour: number; sessions: number }>(
    `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS sessions FROM performance_sessions
     WHERE site_key = ? AND updated_at >= ? AND received_at >= ? GROUP BY 1 ORDER BY 1`,
  );
  // Day by day along performance_metrics_by_time: the first sample at or after a time, then its
  // UTC day's samples. GROUP BY a day expression sorted every sample in a temporary b-tree first
  // (the index's time order is not the expression's to SQLite): 45% of the time for 7 days.
  const firstSample = db.prepare<[string, string, number], { at: number | null }>(
    'SELECT MIN(updated_at) AS at FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?',
  );
  const dayOfSamples = db.prepare<[string, string, number, number], { samples: number; p75: number }>(
    'SELECT COUNT(*) AS samples, p75(value) AS p75 FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ? AND updated_at < ?',
  );
  // One pass over the metric's samples in range (performance_metrics_by_time; metric_days: sqlite/p75.ts).
  const metricDays = db.prepare<[number, number, string, string, number], { counts: string }>(
    'SELECT metric_days(updated_at, value, ?, ?) AS counts FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?',
  );
  // One device's or route's (`filtered`): the same samples, each with its session looked up by its key.
  const filteredMetricDays = db.prepare<
    { good: number; poor: number; site: string; name: string; since: number; device: string | null; route: string | null },
    { counts: string }
  >(
    `SELECT metric_days(m.updated_at, m.value, @good, @poor) AS counts FROM performance_metrics AS m
       JOIN performance_sessions AS s ON s.id = m.session_row
     WHERE m.site_key = @site AND m.name = @name AND m.updated_at >= @since
       AND (@device IS NULL OR s.device = @device) AND (@route IS NULL OR ${ROUTE_OF('s.')} = @route)`,
  );
  // From the sessions in range (their route and page from performance_sessions_by_site_time_page) to
  // their metrics, a CROSS JOIN keeping that order: the other way SQLite read every metric of the
  // site and looked its session up. A metric updated since `since` is of a session updated since
  // then. The samples are grouped by the route's rank, not its text: the sorter orders numbers
  // instead of long texts (7 days at 1,000,000 reports: -9%, 30 days: -24%). One device's sessions
  // only (`byDevice`): the same statement, with the filter on both sides.
  const pagesOf = (byDevice: boolean) => {
    const deviceOnly = (table: string) => (byDevice ? `AND ${table}device = @device` : '');
    return db.prepare<{ site: string; since: number; limit: number; device?: string }, PageMetricRow>(
      `WITH top AS MATERIALIZED (
         SELECT ${ROUTE_OF('')} AS route, MIN(coalesce(page_url, '')) AS page_url, COUNT(*) AS sessions,
           ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, ${ROUTE_OF('')}) AS rank
         FROM performance_sessions WHERE site_key = @site AND updated_at >= @since ${deviceOnly('')} GROUP BY 1 ORDER BY rank LIMIT @limit
       ),
       p75 AS MATERIALIZED (
         SELECT top.rank, m.name, COUNT(*) AS samples, p75(m.value) AS value
         FROM performance_sessions AS s CROSS JOIN top ON top.route = ${ROUTE_OF('s.')}
           CROSS JOIN performance_metrics AS m ON m.session_row = s.id
         WHERE s.site_key = @site AND s.updated_at >= @since AND m.updated_at >= @since ${deviceOnly('s.')}
         GROUP BY top.rank, m.name
       )
       SELECT top.route, top.page_url, top.sessions, p75.name, p75.samples, p75.value AS p75
       FROM top LEFT JOIN p75 ON p75.rank = top.rank
       ORDER BY top.rank, p75.name`,
    );
  };
  const pages = pagesOf(false);
  const devicePages = pagesOf(true);

  return {
    async daily(siteKey, { since = 0 } = {}) {
      return daily.all(siteKey, since, since);
    },
    async hourly(siteKey, { since }) {
      return hourly.all(siteKey, Math.floor(since), Math.floor(since));
    },
    async metricDaily(siteKey, { name, since = 0 }) {
      const days: Array<{ day: number; samples: number; p75: number }> = [];
      for (let at = firstSample.get(siteKey, name, since)!.at; at !== null; ) {
        const day = Math.floor(at / DAY) * DAY;
        days.push({ day, ...dayOfSamples.get(siteKey, name, at, day + DAY)! });
        at = firstSample.get(siteKey, name, day + DAY)!.at;
      }
      return days;
    },
    async metricCountsWithDays(siteKey, { name, thresholds: [good, poor], since = 0, device, route }) {
      // JSON text of core/metricDays.ts's MetricCountsWithDays.
      const read =
        device || route !== undefined
          ? filteredMetricDays.get({ good, poor, site: siteKey, name, since, device: device ?? null, route: route ?? null })
          : metricDays.get(good, poor, siteKey, name, since);
      return JSON.parse(read!.counts);
    },
    async pages(siteKey, { since = 0, limit, device }) {
      return pageVitalsRows(device ? devicePages.all({ site: siteKey, since, limit, device }) : pages.all({ site: siteKey, since, limit }));
    },
  } satisfies Pick<PerformanceSessionStore, 'daily' | 'hourly' | 'metricDaily' | 'metricCountsWithDays' | 'pages'>;
};
