import type { Database } from 'better-sqlite3';
import type { StoredPerformanceSession } from '../../core/records';
import type { PerformanceSessionStore } from '../contract/performanceSessions';
import type { ReportQueue } from './reportWrites';
import { pagedList } from './rows';

/**
 * Performance sessions in SQLite: one row per session, updated in place, and one row per metric
 * in `performance_metrics` so that the summary's p75 is an indexed query, not a JSON scan. Upserts
 * go through `queue` (reportQueue.ts, reportWrites.ts).
 */
export const sqlitePerformance = (db: Database, queue: ReportQueue) => {
  const metricCounts = db.prepare<
    [number, number, string, string, number],
    { counts: string }
  >(
    `SELECT metric_counts(value, ?, ?) AS counts
     FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?`,
  );

  const list = pagedList<StoredPerformanceSession>(db, 'performance_sessions', 'updated_at');
  return {
    async upsert(siteKey, session, context) {
      await queue.submit({ kind: 'session', siteKey, session, context });
    },
    async list(siteKey, options?) {
      return list(siteKey, options);
    },
    async metricCounts(siteKey, { name, thresholds: [good, poor], since = 0 }) {
      // JSON text of core/metricCounts.ts's MetricCounts (sqlite/p75.ts).
      return JSON.parse(metricCounts.get(good, poor, siteKey, name, since)!.counts);
    },
  } satisfies Pick<PerformanceSessionStore, 'upsert' | 'list' | 'metricCounts'>;
};
