import type { StoredPerformanceSession } from '../../core/records';
import type { PerformanceSessionStore } from '../contract/performanceSessions';
import type { Write } from './groupCommit';
import type { Pool } from './pool';
import { pagedList } from './rows';

/**
 * Performance sessions in PostgreSQL: one row per session, upserted in the group commit's batch
 * (batch.ts: `ON CONFLICT ... DO UPDATE`, metrics merged with jsonb `||`, so the same session
 * arriving at two processes merges), and one row per metric in `performance_metrics` for the
 * summary's p75 (performanceReads.ts), as sqlite/performance.ts.
 */
export const postgresPerformance = (pool: Pool, write: Write) => {
  const list = pagedList<StoredPerformanceSession>(pool, 'performance_sessions', 'updated_at');
  return {
    upsert: (siteKey, session, context) => write({ siteKey, add: (batch) => batch.addSession(siteKey, session, context) }),
    list,
  } satisfies Pick<PerformanceSessionStore, 'upsert' | 'list'>;
};
