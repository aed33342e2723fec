import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import {
  DEFAULT_SITE_KEY,
  type ListOptions,
  type NewCspReport,
  type NewErrorReport,
  type PerformanceSessionInput,
  type ReceiveContext,
  type Site,
  type Store,
  type StoredCspReport,
  type StoredErrorReport,
  type StoredPerformanceSession,
  type ApiKey,
  type CspProject,
  type MetricSummary,
  type ServerAgent,
  type SiteAction,
  type Summary,
  type WordPressInstall,
} from './store';
import { blockedHostOf, fingerprintOf } from './fingerprint';
import { migrate } from './migrations';
import { VITALS_THRESHOLDS } from './vitalsThresholds';

interface SiteRow {
  site_key: string;
  name: string;
  allowed_origins: string;
  created_at: number;
}

type Row = Record<string, unknown>;

const toSite = (row: SiteRow): Site => ({
  siteKey: row.site_key,
  name: row.name,
  allowedOrigins: JSON.parse(row.allowed_origins) as string[],
  createdAt: new Date(row.created_at).toISOString(),
});

const TIME_COLUMNS = new Set([
  'received_at', 'updated_at', 'created_at', 'completed_at', 'registered_at', 'last_check_in_at', 'last_heartbeat_at',
]);
const JSON_COLUMNS = new Set(['extra', 'body', 'metrics', 'payload', 'result']);
/** `status` is a JSON report in these tables, a plain word in site_actions. */
const WITH_JSON_STATUS = new Set([...JSON_COLUMNS, 'status']);

/** A row as the API shows it: times as ISO strings, JSON columns parsed, SQL NULLs dropped. */
const toRecord = <T>(row: Row, jsonColumns = JSON_COLUMNS): T => {
  const record: Row = {};
  for (const [column, value] of Object.entries(row)) {
    if (value === null) continue;
    record[column] = TIME_COLUMNS.has(column)
      ? new Date(value as number).toISOString()
      : jsonColumns.has(column)
        ? JSON.parse(value as string)
        : value;
  }
  return record as T;
};

/** The inverse of `toRecord` for one value: absent as NULL, objects as JSON. */
const toColumnValue = (value: unknown) => (value === undefined ? null : typeof value == 'object' ? JSON.stringify(value) : value);

/** A record as named parameters of one insert: every column bound. */
const toRow = (columns: readonly string[], record: Row): Row =>
  Object.fromEntries(columns.map((column) => [column, toColumnValue(record[column])]));

const ERROR_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'error_type', 'error_message', 'error_name', 'stack', 'source_url',
  'line', 'column', 'page_url', 'timestamp', 'session_id', 'count', 'extra', 'fingerprint',
] as const;

const CSP_COLUMNS = [
  'site_key', 'received_at', 'user_agent', 'report_type', 'document_uri', 'referrer', 'violated_directive',
  'effective_directive', 'original_policy', 'disposition', 'blocked_uri', 'source_file', 'line_number',
  'column_number', 'status_code', 'script_sample', 'age', 'body', 'extra', 'blocked_host',
] as const;

const SESSION_COLUMNS = [
  'site_key', 'session_id', 'received_at', 'updated_at', 'user_agent', 'page_url', 'navigation_type',
  'started_at', 'metrics', 'extra',
] as const;

const insertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`;

/** The same insert with positional parameters: binding an array is cheaper than named ones (hot path). */
const positionalInsertSql = (table: string, columns: readonly string[]) =>
  `INSERT INTO ${table} (${columns.map((column) => `"${column}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;

/** A record as positional parameters, in column order. */
const toValues = (columns: readonly string[], record: Row): unknown[] => columns.map((column) => toColumnValue(record[column]));

/**
 * Public site keys: 24 hex characters (96 random bits), unguessable so one site cannot write into
 * another, and safe in a URL path and as a command-line argument (never starting with "-").
 */
export const newSiteKey = () => randomBytes(12).toString('hex');

/**
 * The embedded store: one SQLite file in WAL mode (better-sqlite3).
 *
 * Writes are group-committed: every write that arrives within one turn of the event loop runs in
 * one transaction (each in its own savepoint, so one failure does not undo the others), and each
 * write's promise resolves only after that transaction has committed. Throughput then depends on
 * the number of commits, not the number of requests.
 *
 * @example
 * const store = createSqliteStore({ file: './data/sitebeacon.db' });
 */
export const createSqliteStore = ({ file }: { file: string }): Store => {
  if (file != ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL loses no committed transaction when the process dies (the WAL is in the
  // OS before a commit returns); only a power loss or OS crash can take the last commits back.
  // FULL would fsync every group commit, at a cost of most of the throughput.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Room for the indexes' hot pages (64 MiB), and checkpoints every ~16 MiB of WAL instead of 4:
  // fewer, larger checkpoints inside the commits that trigger them.
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 4000');
  migrate(db);

  interface PendingWrite {
    run: () => unknown;
    resolve: (value: unknown) => void;
    reject: (error: unknown) => void;
  }
  let pending: PendingWrite[] = [];
  let scheduled = false;
  const commit = () => {
    scheduled = false;
    const writes = pending;
    pending = [];
    if (!writes.length || !db.open) return;
    let values: unknown[];
    try {
      values = db.transaction(() => writes.map((write) => write.run()))();
    } catch {
      // One write failed and the group was rolled back: commit each alone, so only that one fails.
      for (const write of writes) {
        try {
          write.resolve(db.transaction(write.run)());
        } catch (error) {
          write.reject(error);
        }
      }
      return;
    }
    writes.forEach((write, index) => write.resolve(values[index]));
  };
  /** Queues a write for the next group commit; resolves after that commit. */
  const write = <T>(run: () => T): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      pending.push({ run, resolve: resolve as (value: unknown) => void, reject });
      if (!scheduled) {
        scheduled = true;
        setImmediate(commit);
      }
    });

  const selectSite = db.prepare<[string], SiteRow>('SELECT * FROM sites WHERE site_key = ?');
  const insertSite = db.prepare(insertSql('sites', ['site_key', 'name', 'allowed_origins', 'created_at']));
  const upsertSite = db.prepare(
    `${insertSql('sites', ['site_key', 'name', 'allowed_origins', 'created_at'])}
     ON CONFLICT (site_key) DO UPDATE SET name = excluded.name, allowed_origins = excluded.allowed_origins`,
  );
  const siteRow = (siteKey: string, name: string, allowedOrigins: string[]) => ({
    site_key: siteKey,
    name,
    allowed_origins: JSON.stringify(allowedOrigins),
    created_at: Date.now(),
  });

  const list = (table: string, timeColumn: string) => {
    const statement = db.prepare<[string, number, number, number], Row>(
      `SELECT * FROM ${table} WHERE site_key = ? AND ${timeColumn} >= ? AND id > ? ORDER BY id LIMIT ?`,
    );
    return <T>(siteKey: string, { since, afterId = 0, limit = 1000 }: ListOptions = {}) => {
      const sinceMs = since ? Date.parse(since) : 0;
      return statement.all(siteKey, Number.isNaN(sinceMs) ? 0 : sinceMs, afterId, limit).map((row) => toRecord<T>(row));
    };
  };

  /** An insert of many records, each with the columns `derive` computes from it; `after` updates aggregates. */
  const insertMany = <T extends object, D extends object>(
    table: string,
    columns: readonly string[],
    derive: (record: T) => D,
    after: (siteKey: string, records: Array<T & D>, receivedAt: number) => void,
  ) => {
    const statement = db.prepare(positionalInsertSql(table, columns));
    return (siteKey: string, records: T[], context: ReceiveContext) =>
      write(() => {
        const derived = records.map((record) => ({ ...record, ...derive(record) }));
        for (const record of derived) {
          statement.run(
            toValues(columns, { ...record, site_key: siteKey, received_at: context.receivedAt, user_agent: context.userAgent }),
          );
        }
        after(siteKey, derived, context.receivedAt);
        return records.length;
      });
  };

  const DAY = 86_400_000;
  const upsertErrorGroup = db.prepare(
    `INSERT INTO error_groups VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (site_key, fingerprint, day) DO UPDATE SET reports = reports + excluded.reports, count = count + excluded.count,
       first_seen = min(first_seen, excluded.first_seen), last_seen = max(last_seen, excluded.last_seen),
       error_type = excluded.error_type, error_name = excluded.error_name, error_message = excluded.error_message`,
  );
  const upsertCspGroup = db.prepare(
    `INSERT INTO csp_groups VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (site_key, directive, blocked_host, day) DO UPDATE SET reports = reports + excluded.reports`,
  );
  const insertErrors = insertMany(
    'error_reports',
    ERROR_COLUMNS,
    (report: NewErrorReport) => ({ fingerprint: fingerprintOf(report) }),
    (siteKey, reports, receivedAt) => {
      // One upsert per group in this write, not one per report.
      const groups = new Map<string, { reports: number; count: number; sample: NewErrorReport }>();
      for (const report of reports) {
        const group = groups.get(report.fingerprint) ?? { reports: 0, count: 0, sample: report };
        group.reports += 1;
        group.count += report.count ?? 1;
        group.sample = report;
        groups.set(report.fingerprint, group);
      }
      const day = Math.floor(receivedAt / DAY);
      for (const [fingerprint, { reports: count, count: occurrences, sample }] of groups) {
        upsertErrorGroup.run(siteKey, fingerprint, day, count, occurrences, receivedAt, receivedAt, sample.error_type, sample.error_name ?? null, sample.error_message);
      }
    },
  );
  const insertCsp = insertMany(
    'csp_reports',
    CSP_COLUMNS,
    (report: NewCspReport) => ({ blocked_host: blockedHostOf(report.blocked_uri) }),
    (siteKey, reports, receivedAt) => {
      const groups = new Map<string, number>();
      for (const report of reports) {
        if (report.report_type != 'csp-violation' || !report.effective_directive) continue;
        const key = `${report.effective_directive}\n${report.blocked_host}`;
        groups.set(key, (groups.get(key) ?? 0) + 1);
      }
      const day = Math.floor(receivedAt / DAY);
      for (const [key, count] of groups) {
        const [directive, host] = key.split('\n') as [string, string];
        upsertCspGroup.run(siteKey, directive, host, day, count);
      }
    },
  );
  const listErrors = list('error_reports', 'received_at');
  const listCsp = list('csp_reports', 'received_at');
  const listSessions = list('performance_sessions', 'updated_at');

  const selectSession = db.prepare<[string, string], { id: number; metrics: string }>(
    'SELECT id, metrics FROM performance_sessions WHERE site_key = ? AND session_id = ?',
  );
  const upsertMetric = db.prepare(
    `INSERT INTO performance_metrics (session_row, site_key, name, value, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (session_row, name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
  );
  const insertSession = db.prepare(insertSql('performance_sessions', SESSION_COLUMNS));
  const updateSession = db.prepare(
    `UPDATE performance_sessions SET updated_at = @updated_at, metrics = @metrics,
       page_url = coalesce(@page_url, page_url), navigation_type = coalesce(@navigation_type, navigation_type),
       started_at = coalesce(@started_at, started_at), extra = coalesce(@extra, extra)
     WHERE site_key = @site_key AND session_id = @session_id`,
  );
  const upsertSession = (siteKey: string, session: PerformanceSessionInput, context: ReceiveContext) => {
    const existing = selectSession.get(siteKey, session.session_id);
    const metrics = existing ? { ...JSON.parse(existing.metrics), ...session.metrics } : session.metrics;
    const row = toRow(SESSION_COLUMNS, {
      ...session,
      metrics,
      site_key: siteKey,
      received_at: context.receivedAt,
      updated_at: context.receivedAt,
      user_agent: context.userAgent,
    });
    const result = (existing ? updateSession : insertSession).run(row);
    const sessionRow = existing ? existing.id : Number(result.lastInsertRowid);
    // One row per metric as well: the summary's p75 is an indexed query, not a JSON scan.
    for (const [name, metric] of Object.entries(session.metrics)) {
      upsertMetric.run(sessionRow, siteKey, name, metric.value, context.receivedAt);
    }
  };

  const insertApiKey = db.prepare(insertSql('api_keys', ['key_hash', 'site_key', 'name', 'created_at']));
  interface ApiKeyRow {
    id: number;
    key_hash: string;
    name: string;
    site_key: string | null;
    created_at: number;
  }
  const selectApiKey = db.prepare<[string], ApiKeyRow>('SELECT * FROM api_keys WHERE key_hash = ?');
  const toApiKey = (row: ApiKeyRow): ApiKey => ({
    id: row.id,
    keyHash: row.key_hash,
    name: row.name,
    ...(row.site_key ? { siteKey: row.site_key } : {}),
    createdAt: new Date(row.created_at).toISOString(),
  });

  // Whole days after `since` come from the aggregates; the day `since` falls in, from the reports
  // themselves (at most a day of them, by the (site_key, received_at) index). Exact for any `since`.
  const errorGroups = db.prepare<
    { site: string; since: number; day: number; limit: number },
    Summary['errors'][number] & { first_seen: number; last_seen: number }
  >(
    `WITH parts AS (
       SELECT fingerprint, reports, count, first_seen, last_seen, error_type, error_name, error_message
       FROM error_groups WHERE site_key = @site AND day > @day
       UNION ALL
       SELECT fingerprint, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at), error_type, error_name, error_message
       FROM error_reports WHERE site_key = @site AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
       GROUP BY fingerprint
     )
     SELECT fingerprint, error_type, error_name, error_message, SUM(reports) AS reports, SUM(count) AS count,
       MIN(first_seen) AS first_seen, MAX(last_seen) AS last_seen
     FROM parts GROUP BY fingerprint ORDER BY count DESC, last_seen DESC LIMIT @limit`,
  );
  const cspGroups = db.prepare<{ site: string; since: number; day: number; limit: number }, Summary['csp'][number]>(
    `WITH parts AS (
       SELECT directive, blocked_host, reports FROM csp_groups WHERE site_key = @site AND day > @day
       UNION ALL
       SELECT effective_directive, coalesce(blocked_host, ''), COUNT(*) FROM csp_reports
       WHERE site_key = @site AND received_at >= @since AND received_at < (@day + 1) * ${DAY}
         AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
       GROUP BY effective_directive, coalesce(blocked_host, '')
     )
     SELECT directive, blocked_host, SUM(reports) AS reports FROM parts GROUP BY directive, blocked_host
     ORDER BY reports DESC, directive, blocked_host LIMIT @limit`,
  );
  const metricCounts = db.prepare<
    [number, number, number, number, string, string, number],
    { samples: number; good: number; needs_improvement: number; poor: number }
  >(
    `SELECT COUNT(*) AS samples, coalesce(SUM(value <= ?), 0) AS good, coalesce(SUM(value > ? AND value <= ?), 0) AS needs_improvement,
       coalesce(SUM(value > ?), 0) AS poor
     FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ?`,
  );
  const metricAtRank = db.prepare<[string, string, number, number], { value: number }>(
    `SELECT value FROM performance_metrics WHERE site_key = ? AND name = ? AND updated_at >= ? ORDER BY value LIMIT 1 OFFSET ?`,
  );
  const WORDPRESS_COLUMNS = ['site_key', 'site_url', 'name', 'plugin_version', 'wordpress_version', 'php_version', 'registered_at'];
  const upsertInstall = db.prepare(
    `${insertSql('wordpress_installs', WORDPRESS_COLUMNS)}
     ON CONFLICT (site_key) DO UPDATE SET site_url = excluded.site_url, name = excluded.name,
       plugin_version = excluded.plugin_version, wordpress_version = excluded.wordpress_version, php_version = excluded.php_version`,
  );
  const selectInstall = db.prepare<[string], Row>('SELECT * FROM wordpress_installs WHERE site_key = ?');
  const selectInstallByUrl = db.prepare<[string], Row>('SELECT * FROM wordpress_installs WHERE site_url = ?');
  const updateCheckIn = db.prepare(
    `UPDATE wordpress_installs SET last_check_in_at = @at, status = @status,
       plugin_version = coalesce(@plugin_version, plugin_version), wordpress_version = coalesce(@wordpress_version, wordpress_version),
       php_version = coalesce(@php_version, php_version)
     WHERE site_key = @site_key`,
  );
  const insertAction = db.prepare(insertSql('site_actions', ['site_key', 'type', 'payload', 'status', 'created_at']));
  const selectAction = db.prepare<[number], Row>('SELECT * FROM site_actions WHERE id = ?');
  const selectPending = db.prepare<[string], Row>(`SELECT * FROM site_actions WHERE site_key = ? AND status = 'pending' ORDER BY id`);
  const updateAction = db.prepare(
    `UPDATE site_actions SET status = @status, message = @message, result = @result, completed_at = @completed_at WHERE id = @id`,
  );
  const insertProject = db.prepare(insertSql('csp_projects', ['site_key', 'name', 'mode', 'base_policy', 'created_at', 'updated_at']));
  const selectProject = db.prepare<[number], Row>('SELECT * FROM csp_projects WHERE id = ?');
  const selectProjects = db.prepare<[string | null, string | null], Row>('SELECT * FROM csp_projects WHERE ? IS NULL OR site_key = ? ORDER BY id');
  const updateProject = db.prepare(
    `UPDATE csp_projects SET name = coalesce(@name, name), mode = coalesce(@mode, mode), base_policy = coalesce(@base_policy, base_policy),
       updated_at = @updated_at WHERE id = @id`,
  );
  const deleteProject = db.prepare('DELETE FROM csp_projects WHERE id = ?');
  // The `limit` largest groups by report count, from the per-day aggregate kept at insert (one pass
  // over the site's csp_groups rows, never over its reports: 50,000 distinct hosts cost ~25 ms, not
  // ~120), each with one sample report found through csp_reports_by_directive for its URI and page.
  // blocked_host is the URL's host with its port, or the keyword; the sample gives the scheme.
  const selectEvidence = db.prepare<{ site: string; limit: number }, { directive: string; blocked_uri: string; document_uri: string; reports: number }>(
    `WITH top AS (
       SELECT directive, blocked_host, SUM(reports) AS reports FROM csp_groups WHERE site_key = @site
       GROUP BY directive, blocked_host ORDER BY reports DESC, directive, blocked_host LIMIT @limit
     )
     SELECT top.directive, sample.blocked_uri, sample.document_uri, top.reports
     FROM top JOIN csp_reports AS sample ON sample.rowid = (
       SELECT rowid FROM csp_reports WHERE site_key = @site AND effective_directive = top.directive AND blocked_host = top.blocked_host LIMIT 1
     )
     ORDER BY top.reports DESC, top.directive, top.blocked_host`,
  );
  const AGENT_COLUMNS = ['id', 'token_hash', 'hostname', 'os', 'arch', 'agent_version', 'site_key', 'registered_at'];
  const insertAgent = db.prepare(insertSql('server_agents', AGENT_COLUMNS));
  const selectAgent = db.prepare<[string], Row>('SELECT * FROM server_agents WHERE id = ?');
  const updateHeartbeat = db.prepare(
    `UPDATE server_agents SET last_heartbeat_at = @at, status = @status, agent_version = coalesce(@agent_version, agent_version) WHERE id = @id`,
  );
  const withStatus = <T>(row: Row | undefined) => (row ? toRecord<T>(row, WITH_JSON_STATUS) : undefined);

  const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);

  // Every browser request looks its site up: found sites are kept for a few seconds. Changes made
  // here clear the cache at once; changes by another process (the CLI) show within SITE_CACHE_MS.
  // Unknown keys are not cached, so a site added by the CLI works at once.
  const SITE_CACHE_MS = 5000;
  const siteCache = new Map<string, { site: Site; until: number }>();
  const findSite = (siteKey: string) => {
    const cached = siteCache.get(siteKey);
    if (cached && cached.until > performance.now()) return cached.site;
    const row = selectSite.get(siteKey);
    if (!row) return undefined;
    const site = toSite(row);
    if (siteCache.size > 10_000) siteCache.clear();
    siteCache.set(siteKey, { site, until: performance.now() + SITE_CACHE_MS });
    return site;
  };

  return {
    async getSite(siteKey) {
      return findSite(siteKey);
    },
    async getDefaultSite() {
      return findSite(DEFAULT_SITE_KEY)!;
    },
    async addSite({ name, allowedOrigins, siteKey = newSiteKey() }) {
      insertSite.run(siteRow(siteKey, name || siteKey, allowedOrigins));
      siteCache.delete(siteKey);
      return findSite(siteKey)!;
    },
    async putSite({ siteKey, name, allowedOrigins }) {
      upsertSite.run(siteRow(siteKey, name, allowedOrigins));
      siteCache.delete(siteKey);
      return findSite(siteKey)!;
    },
    async insertErrorReports(siteKey, reports: NewErrorReport[], context) {
      return insertErrors(siteKey, reports, context);
    },
    async listErrorReports(siteKey, options) {
      return listErrors<StoredErrorReport>(siteKey, options);
    },
    async insertCspReports(siteKey, reports: NewCspReport[], context) {
      return insertCsp(siteKey, reports, context);
    },
    async listCspReports(siteKey, options) {
      return listCsp<StoredCspReport>(siteKey, options);
    },
    async upsertPerformanceSession(siteKey, session, context) {
      await write(() => upsertSession(siteKey, session, context));
    },
    async listPerformanceSessions(siteKey, options) {
      return listSessions<StoredPerformanceSession>(siteKey, options);
    },
    async createApiKey({ keyHash, name, siteKey }) {
      insertApiKey.run({ key_hash: keyHash, site_key: siteKey ?? null, name, created_at: Date.now() });
      return toApiKey(selectApiKey.get(keyHash)!);
    },
    async findApiKey(keyHash) {
      const row = selectApiKey.get(keyHash);
      return row && toApiKey(row);
    },
    async summarize(siteKey, { since, limit = 50 } = {}) {
      const sinceMs = since ? Date.parse(since) || 0 : 0;
      const vitals: Record<string, MetricSummary> = {};
      for (const [name, [good, poor]] of Object.entries(VITALS_THRESHOLDS)) {
        const counts = metricCounts.get(good, good, poor, poor, siteKey, name, sinceMs)!;
        // p75 by nearest rank: the smallest value with at least 75% of the samples at or below it.
        const rank = Math.ceil(counts.samples * 0.75) - 1;
        vitals[name] = {
          samples: counts.samples,
          p75: counts.samples ? metricAtRank.get(siteKey, name, sinceMs, rank)!.value : null,
          good: share(counts.good, counts.samples),
          needs_improvement: share(counts.needs_improvement, counts.samples),
          poor: share(counts.poor, counts.samples),
        };
      }
      const range = { site: siteKey, since: sinceMs, day: Math.floor(sinceMs / DAY), limit };
      return {
        errors: errorGroups.all(range).map((group) =>
          toRecord<Summary['errors'][number]>({
            ...group,
            first_seen: new Date(group.first_seen).toISOString(),
            last_seen: new Date(group.last_seen).toISOString(),
          }),
        ),
        csp: cspGroups.all(range),
        vitals,
      };
    },
    async putWordPressInstall(install) {
      await write(() => upsertInstall.run(toRow(WORDPRESS_COLUMNS, { ...install, registered_at: Date.now() })));
      return withStatus<WordPressInstall>(selectInstall.get(install.site_key))!;
    },
    async getWordPressInstall(siteKey) {
      return withStatus<WordPressInstall>(selectInstall.get(siteKey));
    },
    async findWordPressInstallByUrl(siteUrl) {
      return withStatus<WordPressInstall>(selectInstallByUrl.get(siteUrl));
    },
    async recordCheckIn(siteKey, input) {
      await write(() =>
        updateCheckIn.run({
          site_key: siteKey,
          at: Date.now(),
          status: input.status ? JSON.stringify(input.status) : null,
          plugin_version: input.plugin_version ?? null,
          wordpress_version: input.wordpress_version ?? null,
          php_version: input.php_version ?? null,
        }),
      );
    },
    async addAction(siteKey, { type, payload }) {
      const result = await write(() =>
        insertAction.run({ site_key: siteKey, type, payload: payload ? JSON.stringify(payload) : null, status: 'pending', created_at: Date.now() }),
      );
      return toRecord<SiteAction>(selectAction.get(Number(result.lastInsertRowid))!);
    },
    async pendingActions(siteKey) {
      return selectPending.all(siteKey).map((row) => toRecord<SiteAction>(row));
    },
    async getAction(id) {
      const row = selectAction.get(id);
      return row && toRecord<SiteAction>(row);
    },
    async completeAction(id, { status, message, result }) {
      await write(() =>
        updateAction.run({ id, status, message: message ?? null, result: result ? JSON.stringify(result) : null, completed_at: Date.now() }),
      );
    },
    async createCspProject(project) {
      const now = Date.now();
      const result = await write(() => insertProject.run({ ...project, created_at: now, updated_at: now }));
      return toRecord<CspProject>(selectProject.get(Number(result.lastInsertRowid))!);
    },
    async listCspProjects(siteKey) {
      return selectProjects.all(siteKey ?? null, siteKey ?? null).map((row) => toRecord<CspProject>(row));
    },
    async getCspProject(id) {
      const row = selectProject.get(id);
      return row && toRecord<CspProject>(row);
    },
    async updateCspProject(id, changes) {
      await write(() =>
        updateProject.run({ id, name: changes.name ?? null, mode: changes.mode ?? null, base_policy: changes.base_policy ?? null, updated_at: Date.now() }),
      );
      return toRecord<CspProject>(selectProject.get(id)!);
    },
    async deleteCspProject(id) {
      await write(() => deleteProject.run(id));
    },
    async cspEvidence(siteKey, { limit }) {
      return selectEvidence.all({ site: siteKey, limit });
    },
    async addServerAgent(agent) {
      await write(() => insertAgent.run(toRow(AGENT_COLUMNS, { ...agent, registered_at: Date.now() })));
      return withStatus<ServerAgent>(selectAgent.get(agent.id))!;
    },
    async getServerAgent(id) {
      return withStatus<ServerAgent>(selectAgent.get(id));
    },
    async recordHeartbeat(id, { agent_version, status }) {
      await write(() =>
        updateHeartbeat.run({ id, at: Date.now(), status: status ? JSON.stringify(status) : null, agent_version: agent_version ?? null }),
      );
    },
    async close() {
      // What is queued is committed before the file is closed.
      if (pending.length) commit();
      db.close();
    },
  };
};
