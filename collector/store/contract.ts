import type {
  ApiKey,
  CspProject,

  NewCspReport,
  NewErrorReport,
  PerformanceSession,
  ReceiveContext,
  ServerAgent,
  Site,
  SiteAction,
  StoredCspReport,
  StoredErrorReport,
  StoredPerformanceSession,
  WordPressInstall,
} from '../core/records';
import type { CspGroup, ErrorGroupRow, MetricCounts } from '../core/summary';

/**
 * The storage contract, split by concern. A store only stores and queries: every rule (fingerprints,
 * ratings, keys, summaries, the CSP suggestion) is in ../core/ and reaches a store as data.
 * Record fields are snake_case, as the API shows them; times are ISO strings; cursors are opaque.
 * `store.contract.ts` is what "a store" means: every adapter passes it.
 *
 * Every write resolves only once it is durable: the collector answers 2xx after that, so an
 * acknowledged report survives a crash.
 */
export interface Store {
  sites: SiteStore;
  apiKeys: ApiKeyStore;
  errors: ErrorReportStore;
  csp: CspReportStore;
  performance: PerformanceSessionStore;
  wordpress: WordPressStore;
  actions: ActionStore;
  cspProjects: CspProjectStore;
  agents: ServerAgentStore;
  retention: RetentionStore;
  /** Commits what is queued, then releases the database. */
  close(): Promise<void>;
}

/** One page of a list, oldest first; `next_cursor` is null on the last page. */
export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

export interface ListOptions {
  /** Only records received (sessions: updated) at or after this time, in ms since the epoch. */
  since?: number | undefined;
  /** The `next_cursor` of the previous page. */
  cursor?: string | undefined;
  /** At most this many records (default 100). */
  limit?: number | undefined;
}

/** A time range of the summary: from `since` (ms), at most `limit` groups. */
export interface GroupOptions {
  since?: number | undefined;
  limit?: number | undefined;
}

export interface SiteStore {
  get(siteKey: string): Promise<Site | undefined>;
  /** Every site, by key. */
  list(): Promise<Site[]>;
  /** Creates a site; the key comes from core/keys.ts. Fails if the key exists. */
  create(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
  /** Creates the site, or replaces its name and origins if the key exists. */
  put(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
}

export interface ApiKeyStore {
  create(key: Pick<ApiKey, 'key_hash' | 'name' | 'site_key'>): Promise<ApiKey>;
  findByHash(keyHash: string): Promise<ApiKey | undefined>;
}

export interface ErrorReportStore {
  insert(siteKey: string, reports: NewErrorReport[], context: ReceiveContext): Promise<number>;
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredErrorReport>>;
  /** Reports by fingerprint, most occurrences first; groups of the `excludeTypes` error types left out. */
  groups(siteKey: string, options?: GroupOptions & { excludeTypes?: readonly string[] | undefined }): Promise<ErrorGroupRow[]>;
}

/** One stored violation's directive and blocked URI, with how often: what the CSP suggestion reads. */
export interface CspEvidence {
  directive: string;
  blocked_uri: string;
  document_uri: string;
  reports: number;
}

export interface CspReportStore {
  /**
   * Stores the reports, each violation once (issue 12). A report with a `violation_key` and a
   * `source` is first matched against the site's stored reports with the same `violation_key`
   * received within COPY_WINDOW_MS of `context.received_at` (either way), oldest first, with
   * `copyToMergeInto` (core/cspCopies.ts). When that names one, the report is merged into it, not
   * stored anew: its source is appended to the stored `sources`, and when `replacesStoredFields`
   * (the browser's own report replacing the beacon's copy), the stored report's fields become the
   * new report's (`id`, `site_key`, `received_at` and `user_agent` stay). A merged report adds
   * nothing to `groups` or `evidence`. Otherwise the report is stored with `sources: [source]`
   * (no `sources` without a `source`). Reports of one call are matched in order, each seeing the ones
   * before it. Resolves to how many reports were stored anew (the rest were merged).
   */
  insert(siteKey: string, reports: NewCspReport[], context: ReceiveContext): Promise<number>;
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredCspReport>>;
  /** Violations by effective directive and blocked host, most reports first. */
  groups(siteKey: string, options?: GroupOptions): Promise<CspGroup[]>;
  /**
   * The policy suggestion's evidence: violations grouped by directive and blocked host (the URL's
   * host and port, or the keyword), one sample blocked URI and document URI each, the `limit`
   * largest groups by report count (issue 11, class 5: a bounded read).
   */
  evidence(siteKey: string, options: { limit: number }): Promise<CspEvidence[]>;
}

export interface PerformanceSessionStore {
  /** Creates the session, or updates it: each metric keeps its latest value. */
  upsert(siteKey: string, session: PerformanceSession, context: ReceiveContext): Promise<void>;
  /** Sessions in the order they were created; `since` applies to their last update. */
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredPerformanceSession>>;
  /** One metric's samples since `since`: counted against `thresholds`, and the value at the p75 rank. */
  metricCounts(
    siteKey: string,
    options: { name: string; thresholds: readonly [good: number, poor: number]; since?: number | undefined },
  ): Promise<MetricCounts>;
}

export interface WordPressStore {
  /** Registers an install, or updates the one of the same site (idempotent). */
  put(install: Omit<WordPressInstall, 'registered_at' | 'last_check_in_at' | 'status'>): Promise<WordPressInstall>;
  get(siteKey: string): Promise<WordPressInstall | undefined>;
  findByUrl(siteUrl: string): Promise<WordPressInstall | undefined>;
  recordCheckIn(
    siteKey: string,
    checkIn: Pick<WordPressInstall, 'plugin_version' | 'wordpress_version' | 'php_version' | 'status'>,
  ): Promise<void>;
}

export interface ActionStore {
  add(siteKey: string, action: { type: string; payload?: Record<string, unknown> | undefined }): Promise<SiteAction>;
  /** The site's actions not completed yet, oldest first. */
  pending(siteKey: string): Promise<SiteAction[]>;
  get(id: number): Promise<SiteAction | undefined>;
  complete(
    id: number,
    outcome: { status: 'succeeded' | 'failed'; message?: string | undefined; result?: Record<string, unknown> | undefined },
  ): Promise<void>;
}

export interface CspProjectStore {
  create(project: Pick<CspProject, 'site_key' | 'name' | 'mode' | 'base_policy'>): Promise<CspProject>;
  /** A site's projects, or every project. */
  list(siteKey?: string): Promise<CspProject[]>;
  get(id: number): Promise<CspProject | undefined>;
  update(id: number, changes: Partial<Pick<CspProject, 'name' | 'mode' | 'base_policy'>>): Promise<CspProject>;
  delete(id: number): Promise<void>;
}

export interface ServerAgentStore {
  add(agent: Omit<ServerAgent, 'registered_at' | 'last_heartbeat_at' | 'status'>): Promise<ServerAgent>;
  get(id: string): Promise<ServerAgent | undefined>;
  recordHeartbeat(id: string, heartbeat: { agent_version?: string | undefined; status?: Record<string, unknown> | undefined }): Promise<void>;
}

/** `serve --retention-days N` (../shared/design.md, "Scale-out"): what it asks of a store. */
export interface RetentionStore {
  /**
   * Deletes at most `limit` of the oldest error and CSP reports received, and performance sessions
   * last updated, before `before` (ms), in small transactions, taking each deleted report out of
   * the per-day aggregates in the same transaction: the summary always counts what remains.
   * Resolves to the number of rows deleted; fewer than `limit` means none older is left.
   */
  deleteBefore(before: number, options: { limit: number }): Promise<number>;
}
