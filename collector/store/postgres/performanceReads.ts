import { p75Rank } from '../../core/vitals';
import type { PageVitalsRow, PerformanceSessionStore } from '../contract/performanceSessions';
import type { Pool } from './pool';
import { run } from './rows';

const DAY = 86_400_000;
const HOUR = 3_600_000;

/**
 * The 1-based rank of the p75 among `n` ordered values: ceil(0.75 n) = (3n + 3) / 4 in integer
 * division, the same rank as core/vitals.ts `p75Rank` (0-based) and sqlite/performanceReads.ts.
 */
const P75_ROW = '(3 * n + 3) / 4';

const METRIC_COUNTS = `SELECT COUNT(*) AS samples, COUNT(*) FILTER (WHERE value <= $1) AS good,
    COUNT(*) FILTER (WHERE value > $1 AND value <= $2) AS needs_improvement, COUNT(*) FILTER (WHERE value > $2) AS poor
  FROM performance_metrics WHERE site_key = $3 AND name = $4 AND updated_at >= $5`;
const METRIC_AT_RANK = `SELECT value FROM performance_metrics WHERE site_key = $1 AND name = $2 AND updated_at >= $3
  ORDER BY value LIMIT 1 OFFSET $4`;

const DAILY = `SELECT received_at / ${DAY} * ${DAY} AS day, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const HOURLY = `SELECT received_at / ${HOUR} * ${HOUR} AS hour, COUNT(*) AS sessions FROM performance_sessions
  WHERE site_key = $1 AND updated_at >= $2 AND received_at >= $2 GROUP BY 1 ORDER BY 1`;

const METRIC_DAILY = `SELECT day * ${DAY} AS day, n AS samples, value AS p75 FROM (
    SELECT updated_at / ${DAY} AS day, value,
      ROW_NUMBER() OVER (PARTITION BY updated_at / ${DAY} ORDER BY value) AS position,
      COUNT(*) OVER (PARTITION BY updated_at / ${DAY}) AS n
    FROM performance_metrics WHERE site_key = $1 AND name = $2 AND updated_at >= $3
  ) AS ranked WHERE position = ${P75_ROW} ORDER BY day`;

// $1 site, $2 since, $3 limit. The top pages first (ties by the URL's bytes, as SQLite's BINARY
// collation orders them), then each of their metrics' value at the p75 rank, one pass over the
// ranked rows (MATERIALIZED: one row per page and metric before the join).
const PAGES = `WITH top AS MATERIALIZED (
    SELECT coalesce(page_url, '') AS page_url, COUNT(*) AS sessions FROM performance_sessions
    WHERE site_key = $1 AND updated_at >= $2 GROUP BY 1 ORDER BY sessions DESC, coalesce(page_url, '') COLLATE "C" LIMIT $3
  ),
  ranked AS (
    SELECT coalesce(s.page_url, '') AS page_url, m.name, m.value,
      ROW_NUMBER() OVER (PARTITION BY coalesce(s.page_url, ''), m.name ORDER BY m.value) AS position,
      COUNT(*) OVER (PARTITION BY coalesce(s.page_url, ''), m.name) AS n
    FROM performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
    WHERE m.site_key = $1 AND m.updated_at >= $2 AND coalesce(s.page_url, '') IN (SELECT page_url FROM top)
  ),
  p75 AS MATERIALIZED (SELECT page_url, name, n, value FROM ranked WHERE position = ${P75_ROW})
  SELECT top.page_url, top.sessions, p75.name, p75.n AS samples, p75.value AS p75
  FROM top LEFT JOIN p75 ON p75.page_url = top.page_url
  ORDER BY top.sessions DESC, top.page_url COLLATE "C", p75.name COLLATE "C"`;

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
  const metricCounts: PerformanceSessionStore['metricCounts'] = async (siteKey, { name, thresholds: [good, poor], since = 0 }) => {
    const { rows } = await run<{ samples: number; good: number; needs_improvement: number; poor: number }>(
      pool, METRIC_COUNTS, [good, poor, siteKey, name, since], 'metric_counts',
    );
    const counts = rows[0]!;
    const p75 = counts.samples
      ? (await run<{ value: number }>(pool, METRIC_AT_RANK, [siteKey, name, since, p75Rank(counts.samples)], 'metric_at_rank')).rows[0]!.value
      : null;
    return { ...counts, p75 };
  };
  const metricDaily: PerformanceSessionStore['metricDaily'] = async (siteKey, { name, since = 0 }) =>
    (await run<{ day: number; samples: number; p75: number }>(pool, METRIC_DAILY, [siteKey, name, since], 'metric_daily')).rows;
  return {
    metricCounts,
    async daily(siteKey, { since = 0 } = {}) {
      return (await run<{ day: number; sessions: number }>(pool, DAILY, [siteKey, since], 'page_views_daily')).rows;
    },
    async hourly(siteKey, { since }) {
      return (await run<{ hour: number; sessions: number }>(pool, HOURLY, [siteKey, Math.floor(since)], 'page_views_hourly')).rows;
    },
    metricDaily,
    // The two reads above: PostgreSQL computes neither with a pass in JavaScript to share.
    async metricCountsWithDays(siteKey, options) {
      const [counts, daily] = await Promise.all([metricCounts(siteKey, options), metricDaily(siteKey, options)]);
      return { ...counts, daily };
    },
    async pages(siteKey, { since = 0, limit }) {
      const byPage = new Map<string, PageVitalsRow>();
      for (const row of (await run<PageMetricRow>(pool, PAGES, [siteKey, since, limit], 'page_vitals')).rows) {
        const page = byPage.get(row.page_url) ?? { page_url: row.page_url, sessions: row.sessions, metrics: {} };
        if (row.name !== null) page.metrics[row.name] = { samples: row.samples!, p75: row.p75! };
        byPage.set(row.page_url, page);
      }
      return [...byPage.values()];
    },
  } satisfies Pick<PerformanceSessionStore, 'metricCounts' | 'daily' | 'hourly' | 'metricDaily' | 'metricCountsWithDays' | 'pages'>;
};
