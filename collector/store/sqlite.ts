import type { Store } from './contract';
import { sqliteAlerts } from './sqlite/alerts';
import { sqliteLogDelivery } from './sqlite/alertLog';
import { createGroupCommit, type Write } from './sqlite/groupCommit';
import { sqliteCspSources } from './sqlite/cspSources';
import { sqliteIntegrations } from './sqlite/integrations';
import { sqliteIssueUpdate } from './sqlite/issues';
import { checkWritable } from './sqlite/checkWritable';
import { watchFileIdentity } from './sqlite/fileIdentity';
import { migrate } from './sqlite/migrations';
import { openConnection, type Sync } from './sqlite/openConnection';
import { registerP75 } from './sqlite/p75';
import { sqlitePerformance } from './sqlite/performance';
import { sqliteReadThread } from './sqlite/readThread';
import { sqliteReads } from './sqlite/reads';
import { inThreadReportQueue, sqliteReportQueue } from './sqlite/reportQueue';
import { sqliteReports } from './sqlite/reports';
import type { ReportQueue } from './sqlite/reportWrites';
import { sqliteRetention } from './sqlite/retention';
import { sqliteSites } from './sqlite/sites';
import { sqliteSourceMaps } from './sqlite/sourceMaps';
import { sqliteRoutePatterns } from './sqlite/routePatterns';
import { sqliteUsers } from './sqlite/users';
import { sqliteVisitorSalts } from './sqlite/visitorSalts';

/** Options of an SQLite store. */
export interface SqliteOptions {
  file: string;
  /** `full`: every commit fsynced, power-loss safe (`serve --sync full`); default `normal` (openConnection.ts). */
  sync?: Sync | undefined;
  /** Hears of each schema version applied on open, once committed (`serve` logs each). */
  onMigration?: ((version: number) => void) | undefined;
}

/**
 * The embedded store: one SQLite file in WAL mode (better-sqlite3), migrated on open. Reports and
 * sessions are written on a thread of their own (sqlite/reportQueue.ts), group-committed, and each
 * write resolves only after its commit; the rest (sites, keys, integrations) is written here,
 * group-committed too (sqlite/groupCommit.ts). Reports and sessions are read on a reader thread
 * (sqlite/readThread.ts); the lookups every request makes (sites, keys, sessions) are made here. A write to a file
 * deleted or replaced under the collector is refused (sqlite/fileIdentity.ts), and checkWritable
 * commits a write that reaches the disk (sqlite/checkWritable.ts).
 *
 * @example
 * const store = createSqliteStore({ file: './data/sitebeacon.db' });
 */
export const createSqliteStore = ({ file, sync = 'normal', onMigration }: SqliteOptions): Store => {
  // Page caches, part of the collector's memory (README, "Storage and durability"): this connection looks
  // sites, keys and sessions up, and writes what is not a report (a small cache: the reports are
  // read on the reader thread, whose connection has the 16 MiB this one had, and reads here only
  // until that thread is ready); while reports are written, each read after a commit of the writer
  // thread re-reads its pages anyway (SQLite resets a connection's cache when another one has
  // written). The writer's cache (4 MiB) holds the pages its inserts touch: the tables' and the
  // indexes' last pages.
  const db = openConnection(file, { sync, cacheKiB: file == ':memory:' ? 16_384 : 4_096 });
  migrate(db, undefined, { onApplied: onMigration });
  registerP75(db);
  const groupCommit = createGroupCommit(db);
  const { flush } = groupCommit;
  // The writer and checkpoint threads open the file after the migrations, on connections of their own.
  const threads = file == ':memory:' ? inThreadReportQueue(db) : sqliteReportQueue(db, { file, sync, cacheKiB: 4_096 });
  // A write to a file deleted or replaced meanwhile is refused, before it is queued and again
  // after its commit, before it is acknowledged (sqlite/fileIdentity.ts).
  const identity = file == ':memory:' ? undefined : watchFileIdentity(file);
  const checked = async <T>(commit: () => Promise<T>) => {
    identity?.check();
    const value = await commit();
    identity?.check();
    return value;
  };
  const write: Write = (run) => checked(() => groupCommit.write(run));
  const queue: ReportQueue = { submit: (report) => checked(() => threads.submit(report)), close: () => threads.close() };
  const reports = sqliteReports(db, queue);
  // The reader thread opens the file on a connection of its own (its page cache: the reads' pages).
  const readThread = file == ':memory:' ? undefined : sqliteReadThread(db, { file, sync, cacheKiB: 16_384 });
  const reads = readThread?.reads ?? sqliteReads(db);
  const { sites, apiKeys } = sqliteSites(db, write, async () => void (await threads.submit({ kind: 'barrier' })));
  const { wordpress, actions, cspProjects, agents } = sqliteIntegrations(db, write);
  const { users, sessions } = sqliteUsers(db);
  const sessionWrites = sqlitePerformance(db, queue);
  const alerts = sqliteAlerts(db, write);
  const sourceDecisions = sqliteCspSources(db, write);
  // Every member named where it is made (not spread from halves), so that an editor's
  // implementation search on a Store method lands here, one jump from the code that runs.
  return {
    sites,
    apiKeys,
    errors: {
      insert: reports.errors.insert,
      list: reads.errors.list,
      groups: reads.errors.groups,
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
      list: reads.csp.list,
      groups: reads.csp.groups,
      evidence: reads.csp.evidence,
      daily: reads.csp.daily,
      hourly: reads.csp.hourly,
    },
    performance: {
      upsert: sessionWrites.upsert,
      list: reads.performance.list,
      metricCounts: reads.performance.metricCounts,
      daily: reads.performance.daily,
      hourly: reads.performance.hourly,
      metricDaily: reads.performance.metricDaily,
      metricCountsWithDays: reads.performance.metricCountsWithDays,
      pages: reads.performance.pages,
    },
    wordpress,
    actions,
    cspProjects,
    cspSources: {
      // The evidence on the reader thread, with the other report reads; decisions on this connection.
      evidence: reads.cspSources.evidence,
      visitors: reads.cspSources.visitors,
      decisions: sourceDecisions.decisions,
      decide: sourceDecisions.decide,
    },
    agents,
    issues: {
      list: reads.issues.list,
      get: reads.issues.get,
      update: sqliteIssueUpdate(db, write),
      events: reads.issues.events,
      tags: reads.issues.tags,
      trends: reads.issues.trends,
      botReports: reads.issues.botReports,
    },
    sourceMaps: sqliteSourceMaps(db, write),
    routes: sqliteRoutePatterns(db, write),
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
      spikeCounts: reads.alerts.spikeCounts,
      vitalP75: reads.alerts.vitalP75,
      raise: alerts.raise,
      pruneOutbox: alerts.pruneOutbox,
      active: alerts.active,
      logDelivery: sqliteLogDelivery(db, write),
    },
    retention: sqliteRetention(db, write),
    visitorSalts: sqliteVisitorSalts(db, write),
    users,
    sessions,
    async checkWritable() {
      identity?.check();
      checkWritable(db, file == ':memory:' ? undefined : file);
    },
    async close() {
      // What is queued is committed before the file is closed; the last connection to close
      // checkpoints what is left of the WAL.
      await readThread?.close();
      await threads.close();
      flush();
      db.close();
    },
  };
};
