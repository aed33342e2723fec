import { p75Rank } from '../../core/vitals';
import type { PageVitalsRow, PerformanceSessionStore, SessionDevice } from '../contract/performanceSessions';
import type { Pool } from './pool';
import { run } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The 1-based rank of the p75 among `n` ordered values: ceil(0.75 n) = (3n + 3) / 4 in integer
 * division, the same rank as core/vitals.ts `p75Rank` (0-based) and sqlite/performanceReads.ts.
 */
const P75_ROW = '(3 * n + 3) / 4';

/**
 * A metric's samples of one site since a time, with parameters from `$at` on: site, name, since,
 * and with `byDevice` the device, whose sessions' samples alone are read (looked up by the session's key).
 */
const samplesOf = (byDevice: boolean, at: number) =>
  byDevice
    ? `performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
       WHERE m.site_key = $${at} AND m.name = $${at + 1} AND m.updated_at >= $${at + 2} AND s.device = $${at + 3}`
    : `performance_metrics AS m WHERE m.site_key = $${at} AND m.name = $${at + 1} AND m.updated_at >= $${at + 2}`;

// $1 good, $2 poor, then the samples'.
const metricCountsSql = (byDevice: boolean) => `SELECT COUNT(*) AS samples, COUNT(*) FILTER (WHERE m.value <= $1) AS good,
    COUNT(*) FILTER (WHERE m.value > $1 AND m.value <= $2) AS needs_improvement, COUNT(*) FILTER (WHERE m.value > $2) AS poor
  FROM ${samplesOf(byDevice, 3)}`;
// $1 the rank's offset, then the samples'.
const metricAtRankSql = (byDevice: boolean) => `SELECT m.value FROM ${samplesOf(byDevice, 2)} ORDER BY m.value LIMIT 1 OFFSET $1`;

const DAILY = `SELECT received_at / ${DAY} * ${DAY} AS day, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const HOURLY = `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const metricDailySql = (byDevice: boolean) => `SELECT day * ${DAY} AS day, n AS samples, value AS p75 FROM (
    SELECT m.updated_at / ${DAY} AS day, m.value,
      ROW_NUMBER() OVER (PARTITION BY m.updated_at / ${DAY} ORDER BY m.value) AS position,
      COUNT(*) OVER (PARTITION BY m.updated_at / ${DAY}) AS n
    FROM ${samplesOf(byDevice, 1)}
  ) AS ranked WHERE position = ${P75_ROW} ORDER BY day`;

// $1 site, $2 since, $3 limit, and with `byDevice` $4 the device whose sessions alone are read. The
// top pages first (ties by the URL's bytes, as SQLite's BINARY collation orders them), then each of
// their metrics' value at the p75 rank, one pass over the ranked rows (MATERIALIZED: one row per
// page and metric before the join).
const pagesSql = (byDevice: boolean) => {
  const deviceOnly = (table: string) => (byDevice ? `AND ${table}device = $4` : '');
  return `WITH top AS MATERIALIZED (
    SELECT coalesce(page_url, '') AS page_url, COUNT(*) AS sessions FROM performance_sessions
    WHERE site_key = $1 AND updated_at >= $2 ${deviceOnly('')}
    GROUP BY 1 ORDER BY sessions DESC, coalesce(page_url, '') COLLATE "C" LIMIT $3
  ),
  ranked AS (
    SELECT coalesce(s.page_url, '') AS page_url, m.name, m.value,
      ROW_NUMBER() OVER (PARTITION BY coalesce(s.page_url, ''), m.name ORDER BY m.value) AS position,
      COUNT(*) OVER (PARTITION BY coalesce(s.page_url, ''), m.name) AS n
    FROM performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
    WHERE m.site_key = $1 AND m.updated_at >= $2 AND coalesce(s.page_url, '') IN (SELECT page_url FROM top) ${deviceOnly('s.')}
  ),
  p75 AS MATERIALIZED (SELECT page_url, name, n, value FROM ranked WHERE position = ${P75_ROW})
  SELECT top.page_url, top.sessions, p75.name, p75.n AS samples, p75.value AS p75
  FROM top LEFT JOIN p75 ON p75.page_url = top.page_url
  ORDER BY top.sessions DESC, top.page_url COLLATE "C", p75.name COLLATE "C"`;
};

/** A metric's read: its thresholds, range and, where asked, one device's sessions. */
interface MetricOptions {
  name: string;
  thresholds: readonly [good: number, poor: number];
  since?: number | undefined;
  device?: SessionDevice | undefined;
}

interface PageMetricRow {
  page_url: string;
  sessions: number;
  name: string | null;
  samples: number | null;
  p75: number | null;
}

/**
 * The reads of performance sessions in PostgreSQL: a metric's counts and the value at its p75 rank,
 * page views per day, daily p75, per-page vitals.
 */
export const postgresPerformanceReads = (
  pool: Pool,
) => {
  // Each read by its statement's name, the device's its own (`_device`): a prepared statement per text.
  const named = (name: string, device: string | undefined) => (device ? `${name}_device` : name);
  const counted = async (siteKey: string, { name, thresholds: [good, poor], since = 0, device }: MetricOptions) => {
    const samples = [siteKey, name, since, ...(device ? [device] : [])];
    const { rows } = await run<{ samples: number; good: number; needs_improvement: number; poor: number }>(
      pool, metricCountsSql(!!device), [good, poor, ...samples], named('metric_counts', device),
    );
    const counts = rows[0]!;
    const p75 = counts.samples
      ? (await run<{ value: number }>(pool, metricAtRankSql(!!device), [p75Rank(counts.samples), ...samples], named('metric_at_rank', device))).rows[0]!.value
      : null;
    return { ...counts, p75 };
  };
  const metricDaily = async (siteKey: string, { name, since = 0, device }: { name: string; since?: number | undefined; device?: string | undefined }) =>
    (
      await run<{ day: number; samples: number; p75: number }>(
        pool, metricDailySql(!!device), [siteKey, name, since, ...(device ? [device] : [])], named('metric_daily', device),
      )
    ).rows;
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
      const byPage = new Map<string, PageVitalsRow>();
      const read = await run<PageMetricRow>(pool, pagesSql(!!device), [siteKey, since, limit, ...(device ? [device] : [])], named('page_vitals', device));
      for (const row of read.rows) {
        const page = byPage.get(row.page_url) ?? { page_url: row.page_url, sessions: row.sessions, metrics: {} };
        if (row.name !== null) page.metrics[row.name] = { samples: row.samples!, p75: row.p75! };
        byPage.set(row.page_url, page);
      }
      return [...byPage.values()];
    },
  } satisfies Pick<PerformanceSessionStore, 'metricCounts' | 'daily' | 'hourly' | 'metricDaily' | 'metricCountsWithDays' | 'pages'>;
};
