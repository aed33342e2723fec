import type { CspReportStore } from './contract/cspReports';
import type { CspSourceStore } from './contract/cspSources';
import type { ErrorReportStore } from './contract/errorReports';
import type { ActionStore, CspProjectStore, ServerAgentStore, WordPressStore } from './contract/integrations';
import type { AlertStore } from './contract/alerts';
import type { IssueStore } from './contract/issues';
import type { PerformanceSessionStore } from './contract/performanceSessions';
import type { RetentionStore } from './contract/retention';
import type { RoutePatternStore } from './contract/routePatterns';
import type { SourceMapStore } from './contract/sourceMaps';
import type { ApiKeyStore, SiteStore } from './contract/sites';
import type { SessionStore, UserStore } from './contract/users';
import type { VisitorSaltStore } from './contract/visitorSalts';

// Each concern's interface lives in contract/, one file per concern (as sqlite/ and postgres/ split
// their adapters); the rest of the collector imports them from here.
export type { CspEvidence, CspReportStore } from './contract/cspReports';
export type { DailyErrors, ErrorReportStore, FieldCount } from './contract/errorReports';
export type { CspGroupEvidence, CspSourceDecision, CspSourceStore } from './contract/cspSources';
export type { ActionStore, CspProjectStore, ServerAgentStore, WordPressStore } from './contract/integrations';
export type { IssueChange, IssueEvent, IssueListOptions, IssueListRow, IssueReportFilter, IssueSort, IssueState, IssueStatus, IssueStore } from './contract/issues';
export type { PageVitalsRow, PerformanceSessionStore } from './contract/performanceSessions';
export type { DailyOptions, GroupOptions, ListOptions, Page } from './contract/queryOptions';
export type { RetentionStore } from './contract/retention';
export type { RoutePatternAdded, RoutePatternStore } from './contract/routePatterns';
export type { SourceMapInfo, SourceMapStore, SourceMapUpload } from './contract/sourceMaps';
export type { ApiKeyStore, SiteStore } from './contract/sites';
export type { SessionStore, UserStore } from './contract/users';
export type { VisitorSaltStore } from './contract/visitorSalts';

/**
 * The storage contract, split by concern. A store only stores and queries: every rule (fingerprints,
 * ratings, keys, summaries, the CSP suggestion) is in ../core/ and reaches a store as data.
 * Record fields are snake_case, as the API shows them; times are ISO strings; cursors are opaque.
 * `describeStoreContract` (testing/storeContract/store.contract.ts) is what "a store" means: every
 * adapter passes it.
 *
 * Every write resolves only once it is durable: the collector answers 2xx after that, so an
 * acknowledged report survives a crash. A write that stores rows under a site key (the reports'
 * `errors.insert`, `csp.insert`, `performance.upsert`; `wordpress.put`, `actions.add`,
 * `cspProjects.create`, and `agents.add` and `apiKeys.create` with a `site_key`) under a key no
 * site has, not even any longer (another process ran `site rotate-key` since the caller looked the
 * site up), rejects with UnknownSiteError (unknownSiteError.ts) and stores nothing; the writes
 * committed with it in one group are not affected.
 */
export interface Store {
  sites: SiteStore;
  apiKeys: ApiKeyStore;
  errors: ErrorReportStore;
  csp: CspReportStore;
  performance: PerformanceSessionStore;
  /** Error groups with a lifecycle (docs/issues.md). */
  issues: IssueStore;
  /** Alert rules and the outbox of their deliveries (docs/alerts.md). */
  alerts: AlertStore;
  /** Source maps by release and script URL (docs/source-maps.md). */
  sourceMaps: SourceMapStore;
  /** Each site's route patterns, what sessions' routes are matched against (docs/vitals.md, "Routes"). */
  routes: RoutePatternStore;
  wordpress: WordPressStore;
  actions: ActionStore;
  cspProjects: CspProjectStore;
  /** Each CSP source's evidence and the owner's decisions on it (docs/csp-reports.md, "Evidence per source"). */
  cspSources: CspSourceStore;
  agents: ServerAgentStore;
  retention: RetentionStore;
  visitorSalts: VisitorSaltStore;
  /**
   * Resolves when the store can write now, rejects with the reason when it cannot (a read-only
   * file, a full disk, a lock held elsewhere, a lost connection), within about a second and
   * changing nothing a read shows (SQLite commits its schema version unchanged, so that the probe's
   * write reaches the disk: sqlite/checkWritable.ts): `serve` refuses to start, and
   * `GET /api/health` answers 503, on a rejection; with UnhealthyStoreError's reason when it has one.
   */
  checkWritable(): Promise<void>;
  users: UserStore;
  sessions: SessionStore;
  /** Commits what is queued, then releases the database. */
  close(): Promise<void>;
}
