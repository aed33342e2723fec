import type { Store } from './contract';
import { checkWritable } from './postgres/checkWritable';
import { withConnectionFaults } from './postgres/connectionFault';
import { createGroupCommit } from './postgres/groupCommit';
import { postgresCspSources } from './postgres/cspSources';
import { postgresIntegrations } from './postgres/integrations';
import { migratePostgres } from './postgres/migrations';
import { createPool } from './postgres/pool';
import { postgresPerformance } from './postgres/performance';
import { postgresPerformanceReads } from './postgres/performanceReads';
import { postgresReportReads } from './postgres/reportReads';
import { postgresAlerts } from './postgres/alerts';
import { postgresLogDelivery } from './postgres/alertLog';
import { postgresIssues } from './postgres/issues';
import { postgresReports } from './postgres/reports';
import { postgresRetention } from './postgres/retention';
import { postgresSites } from './postgres/sites';
import { postgresSourceMaps } from './postgres/sourceMaps';
import { postgresRoutePatterns } from './postgres/routePatterns';
import { postgresUsers } from './postgres/users';
import { postgresVisitorSalts } from './postgres/visitorSalts';

/**
 * The scale-out store (docs/scale-out.md): any number of collector
 * processes on one PostgreSQL database, through a connection pool (`pg`). The schema is migrated
 * on open under an advisory lock. Writes are group-committed (postgres/groupCommit.ts): one
 * transaction per group, multi-row INSERTs, each write resolved only after COMMIT. A call that fails
 * because the server is unreachable or dropped the connection rejects with StoreUnavailableError
 * (postgres/connectionFault.ts), and the pool reconnects by itself once the server is back (pool.ts).
 *
 * @example
 * const store = await createPostgresStore({ url: 'postgres://sitebeacon@db.internal/sitebeacon' });
 */
export const createPostgresStore = async ({
  url,
  poolSize,
  onMigration,
}: {
  url: string;
  poolSize?: number;
  /** Hears of each schema version applied on open, once committed (`serve` logs each). */
  onMigration?: ((version: number) => void) | undefined;
}): Promise<Store> => {
  const pool = createPool(url, { max: poolSize });
  try {
    await migratePostgres(pool, undefined, { onApplied: onMigration });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const { write, flush } = createGroupCommit(pool);
  let closed: Promise<void> | undefined;
  const reports = postgresReports(pool, write);
  const reads = postgresReportReads(pool);
  const sessionWrites = postgresPerformance(pool, write);
  const sessionReads = postgresPerformanceReads(pool);
  const { sites, apiKeys } = postgresSites(pool, write);
  const { wordpress, actions, cspProjects, agents } = postgresIntegrations(pool, write);
  const { users, sessions } = postgresUsers(pool);
  const issues = postgresIssues(pool, write);
  const alerts = postgresAlerts(pool, write);
  // Every member named where it is made (not spread from halves), so that an editor's
  // implementation search on a Store method lands here, one jump from the code that runs.
  return withConnectionFaults({
    sites,
    apiKeys,
    errors: {
      insert: reports.errors.insert,
      list: reports.errors.list,
      groups: reports.errors.groups,
      daily: reads.errors.daily,
      hourly: reads.errors.hourly,
      blockedLoads: reads.errors.blockedLoads,
      sessions: reads.errors.sessions,
      visitors: reads.errors.visitors,
      latest: reads.errors.latest,
      breakdown: reads.errors.breakdown,
    },
    csp: {
      insert: reports.csp.insert,
      list: reports.csp.list,
      groups: reports.csp.groups,
      evidence: reports.csp.evidence,
      daily: reads.csp.daily,
      hourly: reads.csp.hourly,
    },
    performance: {
      upsert: sessionWrites.upsert,
      list: sessionWrites.list,
      metricCounts: sessionReads.metricCounts,
      daily: sessionReads.daily,
      hourly: sessionReads.hourly,
      metricDaily: sessionReads.metricDaily,
      metricCountsWithDays: sessionReads.metricCountsWithDays,
      pages: sessionReads.pages,
    },
    wordpress,
    actions,
    cspProjects,
    cspSources: postgresCspSources(pool, write),
    agents,
    issues: {
      list: issues.list,
      get: issues.get,
      update: issues.update,
      events: issues.events,
      tags: issues.tags,
      trends: issues.trends,
      botReports: issues.botReports,
    },
    alerts: {
      addRule: alerts.addRule,
      rules: alerts.rules,
      removeRule: alerts.removeRule,
      setEmailAlerts: alerts.setEmailAlerts,
      claimDue: alerts.claimDue,
      record: alerts.record,
      recentSends: alerts.recentSends,
      postpone: alerts.postpone,
      digest: alerts.digest,
      deliveries: alerts.deliveries,
      claimWaiting: alerts.claimWaiting,
      periodicRules: alerts.periodicRules,
      spikeCounts: alerts.spikeCounts,
      vitalP75: alerts.vitalP75,
      raise: alerts.raise,
      pruneOutbox: alerts.pruneOutbox,
      active: alerts.active,
      logDelivery: postgresLogDelivery(write),
    },
    sourceMaps: postgresSourceMaps(pool, write),
    routes: postgresRoutePatterns(pool, write),
    retention: postgresRetention(pool),
    visitorSalts: postgresVisitorSalts(pool),
    users,
    sessions,
    checkWritable: () => checkWritable(pool),
    close() {
      // What is queued is committed before the pool closes.
      closed ??= flush().then(() => pool.end());
      return closed;
    },
  });
};
