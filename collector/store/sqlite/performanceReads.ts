import type { Database } from 'better-sqlite3';
import type { PageVitalsRow, PerformanceSessionStore } from '../contract';

const DAY = 86_400_000;

/**
 * The 1-based rank of the p75 among `n` ordered values, in SQL: ceil(0.75 n) = (3n + 3) / 4 in
 * integer division, the same rank as core/vitals.ts `p75Rank` (0-based). ROW_NUMBER() over the
 * ordered values picks it, per partition, in one pass.
 */
const P75_ROW = '(3 * n + 3) / 4';

/** The dashboard's reads of performance sessions in SQLite: page views per day, daily p75, per-page vitals. */
export const sqlitePerformanceReads = (db: Database): Pick<PerformanceSessionStore, 'daily' | 'metricDaily' | 'pages'> => {
  const daily = db.prepare<[string, number, number], { day: number; sessions: number }>(
    `SELECT received_at / ${DAY} * ${DAY} AS day, COUNT(*) AS sessions FROM performance_sessions
     WHERE site_key = ? AND updated_at >= ? AND received_at >= ? GROUP BY 1 ORDER BY 1`,
  );
  const metricDaily = db.prepare<[string, string, number], { day: number; samples: number; p75: number }>(
    `SELECT day * ${DAY} AS day, n AS samples, value AS p75 FROM (
       SELECT updated_at / ${DAY} AS day, value,
         ROW_NUMBER() OVER (PARTITION BY updated_at / ${DAY} ORDER BY value) AS row,
         COUNT(*) OVER (PARTITION BY updated_at / ${DAY}) AS n
       FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?
     ) WHERE row = ${P75_ROW} ORDER BY day`,
  );
  const pages = db.prepare<
    { site: string; since: number; limit: number },
    { page_url: string; sessions: number; name: string | null; samples: number | null; p75: number | null }
  >(
    `WITH top AS MATERIALIZED (
       SELECT coalesce(page_url, '') AS page_url, COUNT(*) AS sessions FROM performance_sessions
       WHERE site_key = @site AND updated_at >= @since GROUP BY 1 ORDER BY sessions DESC, 1 LIMIT @limit
     ),
     ranked AS (
       SELECT coalesce(s.page_url, '') AS page_url, m.name, m.value,
         ROW_NUMBER() OVER (PARTITION BY coalesce(s.page_url, ''), m.name ORDER BY m.value) AS row,
         COUNT(*) OVER (PARTITION BY coalesce(s.page_url, ''), m.name) AS n
       FROM performance_metrics AS m JOIN performance_sessions AS s ON s.id = m.session_row
       WHERE m.site_key = @site AND m.updated_at >= @since AND coalesce(s.page_url, '') IN (SELECT page_url FROM top)
     ),
     -- Materialised before the join: one row per page and metric, not the ranked rows scanned once per page.
     p75 AS MATERIALIZED (SELECT page_url, name, n, value FROM ranked WHERE row = ${P75_ROW})
     SELECT top.page_url, top.sessions, p75.name, p75.n AS samples, p75.value AS p75
     FROM top LEFT JOIN p75 ON p75.page_url = top.page_url
     ORDER BY top.sessions DESC, top.page_url`,
  );

  return {
    async daily(siteKey, { since = 0 } = {}) {
      return daily.all(siteKey, since, since);
    },
    async metricDaily(siteKey, { name, since = 0 }) {
      return metricDaily.all(siteKey, name, since);
    },
    async pages(siteKey, { since = 0, limit }) {
      const byPage = new Map<string, PageVitalsRow>();
      for (const row of pages.all({ site: siteKey, since, limit })) {
        const page = byPage.get(row.page_url) ?? { page_url: row.page_url, sessions: row.sessions, metrics: {} };
        if (row.name !== null) page.metrics[row.name] = { samples: row.samples!, p75: row.p75! };
        byPage.set(row.page_url, page);
      }
      return [...byPage.values()];
    },
  };
};
