import type { Database } from 'better-sqlite3';
import type { AlertStore } from '../contract/alerts';
import type { CspReportStore } from '../contract/cspReports';
import type { CspSourceStore } from '../contract/cspSources';
import type { ErrorReportStore } from '../contract/errorReports';
import type { PerformanceSessionStore } from '../contract/performanceSessions';
import type { IssueStore } from '../contract/issues';
import { sqliteAlertReads } from './alertReads';
import { sqliteCspSources } from './cspSources';
import { sqliteIssueReads } from './issues';
import { sqlitePerformance } from './performance';
import { sqlitePerformanceReads } from './performanceReads';
import type { ReportQueue } from './reportWrites';
import { sqliteReportReads } from './reportReads';
import { sqliteReports } from './reports';

/** The read methods of the SQLite store that run on the reader thread (readThread.ts), by concern. */
export const READ_METHODS = {
  errors: ['list', 'groups', 'daily', 'hourly', 'blockedLoads', 'sessions', 'visitors', 'latest', 'breakdown'],
  csp: ['list', 'groups', 'evidence', 'daily', 'hourly'],
  performance: ['list', 'metricCounts', 'daily', 'hourly', 'metricDaily', 'metricCountsWithDays', 'pages'],
  issues: ['list', 'get', 'events', 'tags', 'trends', 'botReports'],
  // What serve's periodic alert rules read each minute (docs/alerts.md, "Spikes", "Poor vitals"):
  // a day of a busy site's reports, which must not hold the HTTP thread either.
  alerts: ['spikeCounts', 'vitalP75'],
  // A CSP project's sources' evidence (docs/csp-reports.md, "Evidence per source"): up to 1,000 groups' reports.
  cspSources: ['evidence', 'visitors'],
} as const;

type Methods = typeof READ_METHODS;

/** A queue that refuses: the reads' statements are built beside the inserts, which a reader never makes. */
const noWrites: ReportQueue = {
  submit: () => Promise.reject(new Error('the SQLite reader does not write')),
  close: async () => {},
};

/**
 * The report reads of one connection (the reader thread's, or this thread's for an in-memory
 * database): the dashboard's and the read API's queries (reports.ts, reportReads.ts,
 * performance.ts, performanceReads.ts). The connection needs the p75 aggregates (p75.ts).
 *
 * @example
 * const reads = sqliteReads(db);
 * const groups = await reads.errors.groups('pk_live_…', { since, limit: 20 });
 */
export const sqliteReads = (db: Database) => {
  const reports = sqliteReports(db, noWrites);
  const reportReads = sqliteReportReads(db);
  const performance = sqlitePerformance(db, noWrites);
  const performanceReads = sqlitePerformanceReads(db);
  const issues = sqliteIssueReads(db);
  const alerts = sqliteAlertReads(db, () => Promise.reject(new Error('the SQLite reader does not write')));
  const cspSources = sqliteCspSources(db, () => Promise.reject(new Error('the SQLite reader does not write')));
  return {
    errors: {
      list: reports.errors.list,
      groups: reports.errors.groups,
      daily: reportReads.errors.daily,
      hourly: reportReads.errors.hourly,
      blockedLoads: reportReads.errors.blockedLoads,
      sessions: reportReads.errors.sessions,
      visitors: reportReads.errors.visitors,
      latest: reportReads.errors.latest,
      breakdown: reportReads.errors.breakdown,
    } satisfies Pick<ErrorReportStore, Methods['errors'][number]>,
    csp: {
      list: reports.csp.list,
      groups: reports.csp.groups,
      evidence: reports.csp.evidence,
      daily: reportReads.csp.daily,
      hourly: reportReads.csp.hourly,
    } satisfies Pick<CspReportStore, Methods['csp'][number]>,
    performance: {
      list: performance.list,
      metricCounts: performance.metricCounts,
      daily: performanceReads.daily,
      hourly: performanceReads.hourly,
      metricDaily: performanceReads.metricDaily,
      metricCountsWithDays: performanceReads.metricCountsWithDays,
      pages: performanceReads.pages,
    } satisfies Pick<PerformanceSessionStore, Methods['performance'][number]>,
    issues: {
      list: issues.list,
      get: issues.get,
      events: issues.events,
      tags: issues.tags,
      trends: issues.trends,
      botReports: issues.botReports,
    } satisfies Pick<IssueStore, Methods['issues'][number]>,
    alerts: {
      spikeCounts: alerts.spikeCounts,
      vitalP75: alerts.vitalP75,
    } satisfies Pick<AlertStore, Methods['alerts'][number]>,
    cspSources: {
      evidence: cspSources.evidence,
      visitors: cspSources.visitors,
    } satisfies Pick<CspSourceStore, Methods['cspSources'][number]>,
  };
};

/**
 * The store's report reads: what READ_METHODS names of each concern, typed as sqliteReads builds
 * them, so that an editor goes from a read to the code that runs it (on the reader thread, the
 * same code: readThread.ts).
 */
export type SqliteReads = ReturnType<typeof sqliteReads>;
