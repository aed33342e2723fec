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

/** The inverse of `toRecord` for one insert: every column bound, absent values as NULL. */
const toRow = (columns: readonly string[], record: Row): Row => {
  const row: Row = {};
  for (const column of columns) {
    const value = record[column];
    row[column] = value === undefined ? null : typeof value == 'object' ? JSON.stringify(value) : value;
  }
  return row;
};

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
  // FULL syncs the WAL at every commit: an acknowledged report survives power loss, not only a crash.
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
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
    const outcomes: Array<{ ok: boolean; value: unknown }> = [];
    try {
      db.transaction(() => {
        for (const write of writes) {
          try {
            // A nested better-sqlite3 transaction is a savepoint.
            outcomes.push({ ok: true, value: db.transaction(write.run)() });
          } catch (error) {
            outcomes.push({ ok: false, value: error });
          }
        }
      })();
    } catch (error) {
      // The commit itself failed: nothing of this group is durable.
      for (const write of writes) write.reject(error);
      return;
    }
    writes.forEach((write, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) write.resolve(outcome.value);
      else write.reject(outcome.value);
    });
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

  /** An insert of many records, each with the columns `derive` computes from it. */
  const insertMany = <T extends object>(table: string, columns: readonly string[], derive: (record: T) => object) => {
    const statement = db.prepare(insertSql(table, columns));
    return (siteKey: string, records: T[], context: ReceiveContext) =>
      write(() => {
        for (const record of records) {
          statement.run(
            toRow(columns, {
              ...record,
              ...derive(record),
              site_key: siteKey,
              received_at: context.receivedAt,
              user_agent: context.userAgent,
            }),
          );
        }
        return records.length;
      });
  };

  const insertErrors = insertMany('error_reports', ERROR_COLUMNS, (report: NewErrorReport) => ({
    fingerprint: fingerprintOf(report),
  }));
  const insertCsp = insertMany('csp_reports', CSP_COLUMNS, (report: NewCspReport) => ({
    blocked_host: blockedHostOf(report.blocked_uri),
  }));
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

  const errorGroups = db.prepare<[string, number, number], Summary['errors'][number] & { first_seen: number; last_seen: number }>(
    `SELECT fingerprint, error_type, error_name, error_message, COUNT(*) AS reports, SUM(coalesce(count, 1)) AS count,
       MIN(received_at) AS first_seen, MAX(received_at) AS last_seen
     FROM error_reports WHERE site_key = ? AND received_at >= ?
     GROUP BY fingerprint ORDER BY count DESC, last_seen DESC LIMIT ?`,
  );
  const cspGroups = db.prepare<[string, number, number], Summary['csp'][number]>(
    `SELECT effective_directive AS directive, blocked_host, COUNT(*) AS reports
     FROM csp_reports WHERE site_key = ? AND received_at >= ? AND report_type = 'csp-violation'
     GROUP BY effective_directive, blocked_host ORDER BY reports DESC LIMIT ?`,
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
  const selectEvidence = db.prepare<[string], { directive: string; blocked_uri: string; document_uri: string; reports: number }>(
    `SELECT effective_directive AS directive, blocked_uri, min(document_uri) AS document_uri, COUNT(*) AS reports
     FROM csp_reports WHERE site_key = ? AND report_type = 'csp-violation' AND effective_directive IS NOT NULL
     GROUP BY effective_directive, blocked_uri ORDER BY reports DESC`,
  );
  const AGENT_COLUMNS = ['id', 'token_hash', 'hostname', 'os', 'arch', 'agent_version', 'site_key', 'registered_at'];
  const insertAgent = db.prepare(insertSql('server_agents', AGENT_COLUMNS));
  const selectAgent = db.prepare<[string], Row>('SELECT * FROM server_agents WHERE id = ?');
  const updateHeartbeat = db.prepare(
    `UPDATE server_agents SET last_heartbeat_at = @at, status = @status, agent_version = coalesce(@agent_version, agent_version) WHERE id = @id`,
  );
  const withStatus = <T>(row: Row | undefined) => (row ? toRecord<T>(row, WITH_JSON_STATUS) : undefined);

  const share = (part: number, whole: number) => (whole ? Math.round((part / whole) * 10_000) / 10_000 : 0);

  return {
    async getSite(siteKey) {
      const row = selectSite.get(siteKey);
      return row && toSite(row);
    },
    async getDefaultSite() {
      return toSite(selectSite.get(DEFAULT_SITE_KEY)!);
    },
    async addSite({ name, allowedOrigins, siteKey = newSiteKey() }) {
      insertSite.run(siteRow(siteKey, name || siteKey, allowedOrigins));
      return toSite(selectSite.get(siteKey)!);
    },
    async putSite({ siteKey, name, allowedOrigins }) {
      upsertSite.run(siteRow(siteKey, name, allowedOrigins));
      return toSite(selectSite.get(siteKey)!);
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
      return {
        errors: errorGroups.all(siteKey, sinceMs, limit).map((group) =>
          toRecord<Summary['errors'][number]>({
            ...group,
            first_seen: new Date(group.first_seen).toISOString(),
            last_seen: new Date(group.last_seen).toISOString(),
          }),
        ),
        csp: cspGroups.all(siteKey, sinceMs, limit),
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
    async cspEvidence(siteKey) {
      return selectEvidence.all(siteKey);
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
