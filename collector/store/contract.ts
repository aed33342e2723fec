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
  User,
  WordPressInstall,
} from '../core/records';
import type { MetricCountsWithDays } from '../core/metricDays';
import type { CspGroup, ErrorGroupRow, MetricCounts } from '../core/summary';

/**
 * The storage contract, split by concern. A store only stores and queries: every rule (fingerprints,
 * ratings, keys, summaries, the CSP suggestion) is in ../core/ and reaches a store as data.
 * Record fields are snake_case, as the API shows them; times are ISO strings; cursors are opaque.
 * `store.contract.ts` is what "a store" means: every adapter passes it.
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
  wordpress: WordPressStore;
  actions: ActionStore;
  cspProjects: CspProjectStore;
  agents: ServerAgentStore;
  retention: RetentionStore;
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
  /** Error groups only: just the group of this fingerprint. */
  fingerprint?: string | undefined;
}

/**
 * Daily series (the dashboard's trends): one entry per UTC day that has data, oldest first; `day`
 * is that day's midnight in ms. The first day counts only what came at or after `since` (ms).
 */
export interface DailyOptions {
  since?: number | undefined;
}

/** Error reports of one UTC day: reports stored, and occurrences (their `count`s added up). */
export interface DailyErrors {
  day: number;
  reports: number;
  count: number;
}

/** Distinct values of one report field with how many reports have each, most first. */
export interface FieldCount {
  /** The value; '' where the field is absent. */
  value: string;
  reports: number;
}

/** One page's performance sessions and, per metric, its samples and the value at the p75 rank (core/vitals.ts p75Rank). */
export interface PageVitalsRow {
  /** The session's page URL; '' where none was sent. */
  page_url: string;
  sessions: number;
  metrics: Record<string, { samples: number; p75: number }>;
}

export interface SiteStore {
  get(siteKey: string): Promise<Site | undefined>;
  /** Every site, by key. */
  list(): Promise<Site[]>;
  /** Creates a site; the key comes from core/keys.ts. Fails if the key exists. */
  create(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
  /** Creates the site, or replaces its name and origins if the key exists. */
  put(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
  /**
   * Gives the site a new public key (`site rotate-key`): everything stored under the old key
   * (reports, sessions, API keys, install, actions, projects, agents) moves to the new one, at once,
   * dashboard users limited to the site see it under its new key, and the old key finds nothing
   * from then on. Undefined when no site has `siteKey`; fails if
   * `newSiteKey` exists.
   */
  rotateKey(siteKey: string, newSiteKey: string): Promise<Site | undefined>;
}

export interface ApiKeyStore {
  create(key: Pick<ApiKey, 'key_hash' | 'name' | 'site_key'>): Promise<ApiKey>;
  findByHash(keyHash: string): Promise<ApiKey | undefined>;
  /** Removes the key (`key revoke`): it is found no more. False when no key has this hash. */
  revoke(keyHash: string): Promise<boolean>;
}

/**
 * Dashboard users (design, "Dashboard, sign-in and documentation"). Emails arrive normalised
 * (core/users.ts) and are unique; `password_hash` is core/passwords.ts's; no `site_keys` (or
 * undefined) means every site, an array names the only sites the user may see.
 */
export interface UserStore {
  /** Creates a user; fails if the email exists. */
  create(user: Pick<User, 'email' | 'password_hash' | 'site_keys'>): Promise<User>;
  /** Creates the user, or replaces the password hash and sites of the one with this email. */
  put(user: Pick<User, 'email' | 'password_hash' | 'site_keys'>): Promise<User>;
  findByEmail(email: string): Promise<User | undefined>;
  /**
   * Removes the user with this email and ends every session of theirs (`user remove`): their
   * cookie is refused from the next request on. False when no user has the email.
   */
  remove(email: string): Promise<boolean>;
  /**
   * Replaces the password hash of the user with this email, keeping their sites, and ends every
   * session of theirs in the same write (`user reset-password`: a reset after a leak leaves no one
   * signed in with the old password). Undefined when no user has the email.
   */
  setPasswordHash(email: string, passwordHash: string): Promise<User | undefined>;
}

/**
 * Signed-in sessions: stored by the SHA-256 of their token (core/sessions.ts), never the token.
 * Written at once (not group-committed with reports): a sign-in is rare.
 */
export interface SessionStore {
  /**
   * Creates the session, if its user still exists and, when `password_hash` is given, still has
   * that hash: a sign-in checked against a password that was reset (or a user removed) while it
   * was hashed creates nothing. Resolves to whether it was created.
   */
  create(session: { token_hash: string; user_id: number; expires_at: number; password_hash?: string }): Promise<boolean>;
  /** The user of the session with this token hash, if it has not expired at `now` (ms); the user as `users` returns it. */
  findUser(tokenHash: string, now: number): Promise<User | undefined>;
  /** Ends the session (sign-out); nothing happens for an unknown hash. Expired sessions may be removed too. */
  delete(tokenHash: string): Promise<void>;
  /** Ends every session of the user (`user sign-out`); resolves to how many had not expired. */
  deleteForUser(userId: number): Promise<number>;
}

export interface ErrorReportStore {
  /** Stores the reports; resolves to how many. Rejects with UnknownSiteError when no site has `siteKey` (Store). */
  insert(siteKey: string, reports: NewErrorReport[], context: ReceiveContext): Promise<number>;
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredErrorReport>>;
  /**
   * Reports by fingerprint, most occurrences first; groups of the `excludeTypes` error types left
   * out, and with `types` only groups of those error types.
   */
  groups(
    siteKey: string,
    options?: GroupOptions & { excludeTypes?: readonly string[] | undefined; types?: readonly string[] | undefined },
  ): Promise<ErrorGroupRow[]>;
  /** Reports and occurrences per UTC day, of every group or of one fingerprint. */
  daily(siteKey: string, options?: DailyOptions & { fingerprint?: string | undefined }): Promise<DailyErrors[]>;
  /** How many distinct `session_id`s reported this fingerprint since `since` (reports without one are not counted). */
  sessions(siteKey: string, options: { fingerprint: string; since?: number | undefined }): Promise<number>;
  /** The group's most recently received report (its latest stack; of reports received at one time, the last stored), or undefined. */
  latest(siteKey: string, fingerprint: string): Promise<StoredErrorReport | undefined>;
  /** The group's reports since `since` counted by `page_url` or `user_agent`: the `limit` most frequent values. */
  breakdown(
    siteKey: string,
    options: { fingerprint: string; field: 'page_url' | 'user_agent'; since?: number | undefined; limit: number },
  ): Promise<FieldCount[]>;
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
   * before it. Resolves to how many reports were stored anew (the rest were merged). Rejects with
   * UnknownSiteError when no site has `siteKey` (Store).
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
  /** CSP violations (report_type `csp-violation` with a directive, as `groups` counts) per UTC day. */
  daily(siteKey: string, options?: DailyOptions): Promise<Array<{ day: number; reports: number }>>;
}

export interface PerformanceSessionStore {
  /** Creates the session, or updates it: each metric keeps its latest value. Rejects with UnknownSiteError when no site has `siteKey` (Store). */
  upsert(siteKey: string, session: PerformanceSession, context: ReceiveContext): Promise<void>;
  /** Sessions in the order they were created; `since` applies to their last update. */
  list(siteKey: string, options?: ListOptions): Promise<Page<StoredPerformanceSession>>;
  /** One metric's samples since `since`: counted against `thresholds`, and the value at the p75 rank. */
  metricCounts(
    siteKey: string,
    options: { name: string; thresholds: readonly [good: number, poor: number]; since?: number | undefined },
  ): Promise<MetricCounts>;
  /** Sessions created (by `received_at`) per UTC day: the page views. */
  daily(siteKey: string, options?: DailyOptions): Promise<Array<{ day: number; sessions: number }>>;
  /** One metric per UTC day of its last update: samples, and the value at the p75 rank (core/vitals.ts p75Rank). */
  metricDaily(siteKey: string, options: DailyOptions & { name: string }): Promise<Array<{ day: number; samples: number; p75: number }>>;
  /**
   * `metricCounts` and `metricDaily` of one metric and range in one read: what the Web Vitals view
   * shows (`GET /api/v1/sites/{site_key}/vitals`). Equal to both of them (core/metricDays.ts).
   */
  metricCountsWithDays(
    siteKey: string,
    options: { name: string; thresholds: readonly [good: number, poor: number]; since?: number | undefined },
  ): Promise<MetricCountsWithDays>;
  /** The `limit` pages with the most sessions updated since `since`, with each metric's samples and p75 there. */
  pages(siteKey: string, options: { since?: number | undefined; limit: number }): Promise<PageVitalsRow[]>;
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
  /** Removes the site's install and its pending actions (`wordpress revoke`). False when it had none. */
  revoke(siteKey: string): Promise<boolean>;
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
  /** The agents registered for a site, oldest first. */
  list(siteKey: string): Promise<ServerAgent[]>;
  recordHeartbeat(id: string, heartbeat: { agent_version?: string | undefined; status?: Record<string, unknown> | undefined }): Promise<void>;
  /** Removes the agent (`agent revoke`, `DELETE /api/v1/server-agents/{id}`): its token is refused. False when unknown. */
  revoke(id: string): Promise<boolean>;
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
