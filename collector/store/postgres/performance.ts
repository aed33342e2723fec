import type { StoredPerformanceSession } from '../../core/records';
import { p75Rank } from '../../core/vitals';
import type { PerformanceSessionStore } from '../contract';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { pagedList, run } from './rows';

const METRIC_COUNTS = `SELECT COUNT(*) AS samples, COUNT(*) FILTER (WHERE value <= $1) AS good,
    COUNT(*) FILTER (WHERE value > $1 AND value <= $2) AS needs_improvement, COUNT(*) FILTER (WHERE value > $2) AS poor
  FROM performance_metrics WHERE site_key = $3 AND name = $4 AND updated_at >= $5`;
const METRIC_AT_RANK = `SELECT value FROM performance_metrics WHERE site_key = $1 AND name = $2 AND updated_at >= $3
  ORDER BY value LIMIT 1 OFFSET $4`;

/**
 * Performance sessions in PostgreSQL: one row per session, upserted in the group commit's batch
 * (batch.ts: `ON CONFLICT ... DO UPDATE`, metrics merged with jsonb `||`, so the same session
 * arriving at two processes merges), and one row per metric in `performance_metrics` for the
 * summary's indexed p75, as sqlite/performance.ts.
 */
export const postgresPerformance = (pool: Pool, write: Write): Omit<PerformanceSessionStore, 'daily' | 'metricDaily' | 'pages'> => {
  const list = pagedList<StoredPerformanceSession>(pool, 'performance_sessions', 'updated_at');
  return {
    upsert: (siteKey, session, context) => write({ siteKey, add: (batch) => batch.addSession(siteKey, session, context) }),
    list,
    async metricCounts(siteKey, { name, thresholds: [good, poor], since = 0 }) {
      const { rows } = await run<{ samples: number; good: number; needs_improvement: number; poor: number }>(
        pool, METRIC_COUNTS, [good, poor, siteKey, name, since], 'metric_counts',
      );
      const counts = rows[0]!;
      const p75 = counts.samples
        ? (await run<{ value: number }>(pool, METRIC_AT_RANK, [siteKey, name, since, p75Rank(counts.samples)], 'metric_at_rank')).rows[0]!.value
        : null;
      return { ...counts, p75 };
    },
  };
};
