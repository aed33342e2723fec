/** A site: the public key browsers report under, and the origins allowed to use it. */
export interface Site {
  siteKey: string;
  name: string;
  allowedOrigins: string[];
  createdAt: string;
}

/** The installation's default site: the spec's unkeyed endpoints store under it. */
export const DEFAULT_SITE_KEY = 'default';

/** An error report as validated by the collector (design, "Error report"). */
export interface NewErrorReport {
  error_type: string;
  error_message: string;
  error_name?: string | undefined;
  stack?: string | undefined;
  source_url?: string | undefined;
  line?: number | undefined;
  column?: number | undefined;
  page_url?: string | undefined;
  timestamp?: number | undefined;
  session_id?: string | undefined;
  count?: number | undefined;
  /** Fields beyond the known ones, kept as sent (bounded). */
  extra?: Record<string, unknown> | undefined;
}

/** An error report as stored. */
export interface StoredErrorReport extends NewErrorReport {
  id: number;
  /** Groups reports of the same problem (see fingerprint.ts). */
  fingerprint: string;
  site_key: string;
  received_at: string;
  user_agent?: string | undefined;
}

/**
 * A CSP violation (or another Reporting API report) as normalised by the collector from any of
 * the shapes browsers send. Field names are the CSP2 ones in snake_case.
 */
export interface NewCspReport {
  /** `csp-violation`, or the Reporting API type (`deprecation`, `intervention`, `network-error`, ...). */
  report_type: string;
  document_uri?: string | undefined;
  referrer?: string | undefined;
  violated_directive?: string | undefined;
  effective_directive?: string | undefined;
  original_policy?: string | undefined;
  disposition?: string | undefined;
  blocked_uri?: string | undefined;
  source_file?: string | undefined;
  line_number?: number | undefined;
  column_number?: number | undefined;
  status_code?: number | undefined;
  script_sample?: string | undefined;
  /** Reporting API `age` in milliseconds. */
  age?: number | undefined;
  /** The body of a report that is not a CSP violation, as sent (bounded). */
  body?: Record<string, unknown> | undefined;
  extra?: Record<string, unknown> | undefined;
}

export interface StoredCspReport extends NewCspReport {
  id: number;
  /** The blocked URI's host, or its keyword (`inline`, `eval`, `data`...). */
  blocked_host: string;
  site_key: string;
  received_at: string;
  user_agent?: string | undefined;
}

/** One metric of a performance session: web-vitals' own fields. */
export interface MetricValue {
  value: number;
  rating?: string | undefined;
  id?: string | undefined;
  delta?: number | undefined;
  navigationType?: string | undefined;
}

/** A performance session (design, "Performance session"). */
export interface PerformanceSessionInput {
  session_id: string;
  page_url?: string | undefined;
  navigation_type?: string | undefined;
  started_at?: number | undefined;
  metrics: Record<string, MetricValue>;
  extra?: Record<string, unknown> | undefined;
}

export interface StoredPerformanceSession extends PerformanceSessionInput {
  id: number;
  site_key: string;
  received_at: string;
  updated_at: string;
  user_agent?: string | undefined;
}

/** An API key as stored: only its hash is kept; `siteKey` absent means installation-wide. */
export interface ApiKey {
  id: number;
  /** SHA-256 of the key, hex. */
  keyHash: string;
  name: string;
  siteKey?: string | undefined;
  createdAt: string;
}

/** Per metric: how many sessions have it, their p75, and the share rated good / needs improvement / poor. */
export interface MetricSummary {
  samples: number;
  p75: number | null;
  good: number;
  needs_improvement: number;
  poor: number;
}

/** `GET /api/v1/sites/{site_key}/summary`. */
export interface Summary {
  errors: Array<{
    fingerprint: string;
    error_type: string;
    error_name?: string;
    error_message: string;
    /** Reports stored for the group. */
    reports: number;
    /** Occurrences: reports with their folded `count`s added up. */
    count: number;
    first_seen: string;
    last_seen: string;
  }>;
  csp: Array<{ directive: string; blocked_host: string; reports: number }>;
  vitals: Record<string, MetricSummary>;
}

/** A WordPress install, one per site URL. */
export interface WordPressInstall {
  site_key: string;
  site_url: string;
  name: string;
  plugin_version?: string;
  wordpress_version?: string;
  php_version?: string;
  status?: Record<string, unknown>;
  registered_at: string;
  last_check_in_at?: string;
}

/** Something a site's plugin is asked to do at its next check-in. */
export interface SiteAction {
  id: number;
  site_key: string;
  type: string;
  payload?: Record<string, unknown>;
  status: 'pending' | 'succeeded' | 'failed';
  message?: string;
  result?: Record<string, unknown>;
  created_at: string;
  completed_at?: string;
}

/** A CSP project: the policy a site works towards, in report-only or enforce mode. */
export interface CspProject {
  id: number;
  site_key: string;
  name: string;
  mode: 'report-only' | 'enforce';
  base_policy: string;
  created_at: string;
  updated_at: string;
}

/** A Linux server agent. Its token is stored as a hash. */
export interface ServerAgent {
  id: string;
  token_hash: string;
  hostname: string;
  os: string;
  arch: string;
  agent_version: string;
  site_key?: string;
  status?: Record<string, unknown>;
  registered_at: string;
  last_heartbeat_at?: string;
}

/** What the collector knows of the request a report came in. */
export interface ReceiveContext {
  receivedAt: number;
  userAgent?: string | undefined;
}

export interface ListOptions {
  /** Only records received at or after this ISO time. */
  since?: string | undefined;
  /** Only records with a larger id (cursor). */
  afterId?: number | undefined;
  limit?: number | undefined;
}

/**
 * The storage contract. Every write resolves only once it is durable: the collector answers
 * 2xx after that, so an acknowledged report survives a crash.
 */
export interface Store {
  getSite(siteKey: string): Promise<Site | undefined>;
  getDefaultSite(): Promise<Site>;
  addSite(input: { name?: string; allowedOrigins: string[]; siteKey?: string }): Promise<Site>;
  /** Creates the site, or replaces its name and origins if the key exists. */
  putSite(input: { siteKey: string; name: string; allowedOrigins: string[] }): Promise<Site>;
  insertErrorReports(siteKey: string, reports: NewErrorReport[], context: ReceiveContext): Promise<number>;
  listErrorReports(siteKey: string, options?: ListOptions): Promise<StoredErrorReport[]>;
  insertCspReports(siteKey: string, reports: NewCspReport[], context: ReceiveContext): Promise<number>;
  listCspReports(siteKey: string, options?: ListOptions): Promise<StoredCspReport[]>;
  /** Creates the session, or updates it: each metric keeps its latest value. */
  upsertPerformanceSession(siteKey: string, session: PerformanceSessionInput, context: ReceiveContext): Promise<void>;
  /** Sessions ordered by id; `since` applies to their last update. */
  listPerformanceSessions(siteKey: string, options?: ListOptions): Promise<StoredPerformanceSession[]>;
  createApiKey(input: { keyHash: string; name: string; siteKey?: string | undefined }): Promise<ApiKey>;
  findApiKey(keyHash: string): Promise<ApiKey | undefined>;
  /** Errors by fingerprint, CSP violations by directive and blocked host, p75 and ratings per metric. */
  summarize(siteKey: string, options?: { since?: string | undefined; limit?: number | undefined }): Promise<Summary>;
  /** Registers a WordPress install, or updates the one with the same site URL (idempotent). */
  putWordPressInstall(input: Omit<WordPressInstall, 'registered_at' | 'last_check_in_at' | 'status'>): Promise<WordPressInstall>;
  getWordPressInstall(siteKey: string): Promise<WordPressInstall | undefined>;
  findWordPressInstallByUrl(siteUrl: string): Promise<WordPressInstall | undefined>;
  recordCheckIn(siteKey: string, input: Pick<WordPressInstall, 'plugin_version' | 'wordpress_version' | 'php_version' | 'status'>): Promise<void>;
  addAction(siteKey: string, input: { type: string; payload?: Record<string, unknown> | undefined }): Promise<SiteAction>;
  pendingActions(siteKey: string): Promise<SiteAction[]>;
  getAction(id: number): Promise<SiteAction | undefined>;
  completeAction(id: number, input: { status: 'succeeded' | 'failed'; message?: string | undefined; result?: Record<string, unknown> | undefined }): Promise<void>;
  createCspProject(input: Pick<CspProject, 'site_key' | 'name' | 'mode' | 'base_policy'>): Promise<CspProject>;
  listCspProjects(siteKey?: string): Promise<CspProject[]>;
  getCspProject(id: number): Promise<CspProject | undefined>;
  updateCspProject(id: number, changes: Partial<Pick<CspProject, 'name' | 'mode' | 'base_policy'>>): Promise<CspProject>;
  deleteCspProject(id: number): Promise<void>;
  /**
   * The policy suggestion's evidence: stored CSP violations grouped by directive and blocked host
   * (the URL's host and port, or the keyword), one sample blocked URI and document URI each, the
   * `limit` largest groups by report count (issue 11, class 5: a bounded read).
   */
  cspEvidence(siteKey: string, options: { limit: number }): Promise<Array<{ directive: string; blocked_uri: string; document_uri: string; reports: number }>>;
  addServerAgent(input: Omit<ServerAgent, 'registered_at' | 'last_heartbeat_at' | 'status'>): Promise<ServerAgent>;
  getServerAgent(id: string): Promise<ServerAgent | undefined>;
  recordHeartbeat(id: string, input: { agent_version?: string | undefined; status?: Record<string, unknown> | undefined }): Promise<void>;
  close(): Promise<void>;
}
