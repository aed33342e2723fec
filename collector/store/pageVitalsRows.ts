import type { PageVitalsRow } from './contract/performanceSessions';

/**
 * What a session is grouped by in the per-route views (docs/vitals.md, "Routes"): its route, or for a
 * session stored before routes its page URL, as those were grouped then. `table` is `''` or an alias
 * with its dot; the same SQL on both stores.
 */
export const ROUTE_OF = (table: string) => `coalesce(${table}route, ${table}page_url, '')`;

/** One route and metric of the per-route read, as both stores' SQL answers it (a route without samples: one row, its name null). */
export interface PageMetricRow {
  route: string;
  page_url: string;
  sessions: number;
  name: string | null;
  samples: number | null;
  p75: number | null;
}

/** The per-route read's rows, in their order, as one row per route with its metrics. */
export const pageVitalsRows = (rows: Iterable<PageMetricRow>): PageVitalsRow[] => {
  const byRoute = new Map<string, PageVitalsRow>();
  for (const row of rows) {
    const page = byRoute.get(row.route) ?? { route: row.route, page_url: row.page_url, sessions: Number(row.sessions), metrics: {} };
    if (row.name !== null) page.metrics[row.name] = { samples: Number(row.samples), p75: row.p75! };
    byRoute.set(row.route, page);
  }
  return [...byRoute.values()];
};
