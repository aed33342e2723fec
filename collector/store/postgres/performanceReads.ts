import { p75Rank } from '../../core/vitals';
import type { PerformanceSessionStore, SessionDevice } from '../contract/performanceSessions';
import { pageVitalsRows, ROUTE_OF, type PageMetricRow } from '../pageVitalsRows';
import type { Pool } from './pool';
import { run } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The 1-based rank of the p75 among `n` ordered values: ceil(0.75 n) = (3n + 3) / 4 in integer
 * division, the same rank as core/vitals.ts `p75Rank` (0-based) and sqlite/performanceReads.ts.
 */
const P75_ROW = '(3 * n + 3) / 4';

/** Which sessions' samples a metric's read takes: every one, or one device's, one route's, or both. */
interface SampleFilter {
  device?: SessionDevice | undefined;
  route?: string | undefined;
}

/**
 * A metric's samples of one site since a time, with parameters from `$at` on: site, name, since,
 * then the filter's device and route where given (each sample's session looked up by its key).
 */
const samplesOf = ({ device, route }: SampleFilter, at: number) => {
  if (!device && route === undefined) return `performance_metrics AS m WHERE m.site_key = $${at} AND m.name = $${at + 1} AND m.updated_at >= $${at + 2}`;
  const terms = [...(device ? [`s.device = $${at + 3}`] : []), ...(route !== undefined ? [`${ROUTE_OF('s.')} = $${at + (device ? 4 : 3)}`] : [])];
  return `performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
    WHERE m.site_key = $${at} AND m.name = $${at + 1} AND m.updated_at >= $${at + 2} AND ${terms.join(' AND ')}`;
};
/** The filter's parameters, in samplesOf's order. */
const filterValues = ({ device, route }: SampleFilter) => [...(device ? [device] : []), ...(route !== undefined ? [route] : [])];
/** A statement's name for one kind of filter: a prepared statement per text. */
const named = (name: string, { device, route }: SampleFilter) => `${name}${device ? '_device' : ''}${route !== undefined ? '_route' : ''}`;

// $1 good, $2 poor, then the samples'.
const metricCountsSql = (filter: SampleFilter) => `SELECT COUNT(*) AS samples, COUNT(*) FILTER (WHERE m.value <= $1) AS good,
    COUNT(*) FILTER (WHERE m.value > $1 AND m.value <= $2) AS needs_improvement, COUNT(*) FILTER (WHERE m.value > $2) AS poor
  FROM ${samplesOf(filter, 3)}`;
// $1 the rank's offset, then the samples'.
const metricAtRankSql = (filter: SampleFilter) => `SELECT m.value FROM ${samplesOf(filter, 2)} ORDER BY m.value LIMIT 1 OFFSET $1`;

const DAILY = `SELECT received_at / ${DAY} * ${DAY} AS day, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const HOURLY = `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const metricDailySql = (filter: SampleFilter) => `SELECT day * ${DAY} AS day, n AS samples, value AS p75 FROM (
    SELECT m.updated_at / ${DAY} AS day, m.value,
      ROW_NUMBER() OVER (PARTITION BY m.updated_at / ${DAY} ORDER BY m.value) AS position,
      COUNT(*) OVER (PARTITION BY m.updated_at / ${DAY}) AS n
    FROM ${samplesOf(filter, 1)}
  ) AS ranked WHERE position = ${P75_ROW} ORDER BY day`;

// $1 site, $2 since, $3 limit, and with `byDevice` $4 the device whose sessions alone are read. The
// top routes first (ties by the route's bytes, as SQLite's BINARY collation orders them), then each
// of their metrics' value at the p75 rank, one pass over the ranked rows (MATERIALIZED: one row per
// route and metric before the join).
const pagesSql = (byDevice: boolean) => {
  const deviceOnly = (table: string) => (byDevice ? `AND ${table}device = $4` : '');
  return `WITH top AS MATERIALIZED (
    SELECT ${ROUTE_OF('')} AS route, MIN(coalesce(page_url, '') COLLATE "C") AS page_url, COUNT(*) AS sessions FROM performance_sessions
    WHERE site_key = $1 AND updated_at >= $2 ${deviceOnly('')}
    GROUP BY 1 ORDER BY sessions DESC, ${ROUTE_OF('')} COLLATE "C" LIMIT $3
  ),
  ranked AS (
    SELECT ${ROUTE_OF('s.')} AS route, m.name, m.value,
      ROW_NUMBER() OVER (PARTITION BY ${ROUTE_OF('s.')}, m.name ORDER BY m.value) AS position,
      COUNT(*) OVER (PARTITION BY ${ROUTE_OF('s.')}, m.name) AS n
    FROM performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
    WHERE m.site_key = $1 AND m.updated_at >= $2 AND ${ROUTE_OF('s.')} IN (SELECT route FROM top) ${deviceOnly('s.')}
  ),
  p75 AS MATERIALIZED (SELECT route, name, n, value FROM ranked WHERE position = ${P75_ROW})
  SELECT top.route, top.page_url, top.sessions, p75.name, p75.n AS samples, p75.value AS p75
  FROM top LEFT JOIN p75 ON p75.route = top.route
  ORDER BY top.sessions DESC, top.route COLLATE "C", p75.name COLLATE "C"`;
};

/** A metric's read: its thresholds, range and, where asked, one device's sessions. */
interface MetricOptions extends SampleFilter {
  name: string;
  thresholds: readonly [good: number, poor: number];
  since?: number | undefined;
}


/**
 * The reads of performance sessions in PostgreSQL: a metric's counts and the value at its p75 rank,
 * page views per day, daily p75, per-page vitals.
 */
export const postgresPerformanceReads = (
  pool: Pool,
) => {
  const counted = async (siteKey: string, { name, thresholds: [good, poor], since = 0, ...filter }: MetricOptions) => {
    const samples = [siteKey, name, since, ...filterValues(filter)];
    const { rows } = await run<{ samples: number; good: number; needs_improvement: number; poor: number }>(
      pool, metricCountsSql(filter), [good, poor, ...samples], named('metric_counts', filter),
    );
    const counts = rows[0]!;
    const p75 = counts.samples
      ? (await run<{ value: number }>(pool, metricAtRankSql(filter), [p75Rank(counts.samples), ...samples], named('metric_at_rank', filter))).rows[0]!.value
      : null;
    return { ...counts, p75 };
  };
  const metricDaily = async (siteKey: string, { name, since = 0, ...filter }: { name: string; since?: number | undefined } & SampleFilter) =>
    (await run<{ day: number; samples: number; p75: number }>(pool, metricDailySql(filter), [siteKey, name, since, ...filterValues(filter)], named('metric_daily', filter))).rows;
  return {
    metricCounts: counted,
    async daily(siteKey, { since = 0 } = {}) {
      return (await run<{ day: number; sessions: number }>(pool, DAILY, [siteKey, since], 'page_views_daily')).rows;
    },
    async hourly(siteKey, { since }) {
      return (await run<{ hour: number; sessions: number }>(pool, HOURLY, [siteKey, Math.floor(since)], 'page_views_hourly')).rows;
    },
    metricDaily,
    // The two reads above: PostgreSQL computes neither with a pass in JavaScript to share.
    async metricCountsWithDays(siteKey, options) {
      const [counts, daily] = await Promise.all([counted(siteKey, options), metricDaily(siteKey, options)]);
      return { ...counts, daily };
    },
    async pages(siteKey, { since = 0, limit, device }) {
      const read = await run<PageMetricRow>(pool, pagesSql(!!device), [siteKey, since, limit, ...filterValues({ device })], named('page_vitals', { device }));
      return pageVitalsRows(read.rows);
    },
  } satisfies Pick<PerformanceSessionStore, 'metricCounts' | 'daily' | 'hourly' | 'metricDaily' | 'metricCountsWithDays' | 'pages'>;
};
