import type { Database } from 'better-sqlite3';
import type { StoredPerformanceSession } from '../../core/records';
import type { PerformanceSessionStore } from '../contract';
import type { ReportQueue } from './reportQueue';
import { pagedList } from './rows';

/**
 * Performance sessions in SQLite: one row per session, updated in place, and one row per metric
 * in `performance_metrics` so that the summary's p75 is an indexed query, not a JSON scan. Upserts
 * go through `queue` (reportQueue.ts, reportWrites.ts).
 */
export const sqlitePerformance = (db: Database, queue: ReportQueue): Pick<PerformanceSessionStore, 'upsert' | 'list' | 'metricCounts'> => {
  const metricCounts = db.prepare<
    [number, number, number, number, string, string, number],
    { samples: number; good: number; needs_improvement: number; poor: number; p75: number | null }
  >(
    `SELECT COUNT(*) AS samples, coalesce(SUM(value <= ?), 0) AS good, coalesce(SUM(value > ? AND value <= ?), 0) AS needs_improvement,
       coalesce(SUM(value > ?), 0) AS poor, p75(value) AS p75
     FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?`,
  );

  const list = pagedList<StoredPerformanceSession>(db, 'performance_sessions', 'updated_at');
  return {
    async upsert(siteKey, session, context) {
      await queue.submit({ kind: 'session', siteKey, session, context });
    },
    async list(siteKey, options) {
      return list(siteKey, options);
    },
    async metricCounts(siteKey, { name, thresholds: [good, poor], since = 0 }) {
      return metricCounts.get(good, good, poor, poor, siteKey, name, since)!;
    },
  };
};
