import type { Database } from 'better-sqlite3';
import { blockedHostOf } from '../../core/blockedHost';
import { fingerprintOf } from '../../core/fingerprint';
import { DEFAULT_SITE_KEY, type ErrorReport } from '../../core/records';
import { AWAITING_COPY } from '../awaitingCopy';
import { CSP_GROUP_DISPOSITION_MIGRATION, CSP_SOURCE_DECISIONS_MIGRATION } from './cspSchema';
import { ROUTES_MIGRATION } from './routeSchema';
import { ALERT_RULE_PARAMS_MIGRATION, ALERTS_MIGRATION } from './alertSchema';
import { ISSUE_DAY_COUNTS_MIGRATION, ISSUE_FAST_LIST_MIGRATION, ISSUES_MIGRATION } from './issueSchema';
import { SOURCE_MAPS_MIGRATION } from './sourceMapSchema';

/**
 * Schema versions, oldest first. A database records how many it has applied in
 * `PRAGMA user_version`; a newer collector applies the rest, so it opens an older file.
 * Never edit a migration that has shipped: add one. A step is SQL, or a function for what SQL
 * cannot compute (a hash, a parsed URL).
 */
const migrations: Array<string | ((db: Database) => void)> = [
  `CREATE TABLE sites (
     site_key TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     allowed_origins TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   INSERT INTO sites (site_key, name, allowed_origins, created_at)
     VALUES ('${DEFAULT_SITE_KEY}', 'Default site', '[]', CAST(unixepoch('subsec') * 1000 AS INTEGER));
   CREATE TABLE error_reports (
     id INTEGER PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     received_at INTEGER NOT NULL,
     error_type TEXT NOT NULL,
     error_message TEXT NOT NULL,
     error_name TEXT,
     stack TEXT,
     source_url TEXT,
     line INTEGER,
     "column" INTEGER,
     page_url TEXT,
     timestamp INTEGER,
     session_id TEXT,
     count INTEGER,
     user_agent TEXT,
     extra TEXT
   );
   CREATE INDEX error_reports_by_site_time ON error_reports (site_key, received_at);`,
  `CREATE TABLE csp_reports (
     id INTEGER PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     received_at INTEGER NOT NULL,
     report_type TEXT NOT NULL,
     document_uri TEXT,
     referrer TEXT,
     violated_directive TEXT,
     effective_directive TEXT,
     original_policy TEXT,
     disposition TEXT,
     blocked_uri TEXT,
     source_file TEXT,
     line_number INTEGER,
     column_number INTEGER,
     status_code INTEGER,
     script_sample TEXT,
     age INTEGER,
     body TEXT,
     user_agent TEXT,
     extra TEXT
   );
   CREATE INDEX csp_reports_by_site_time ON csp_reports (site_key, received_at);
   CREATE TABLE performance_sessions (
     id INTEGER PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     session_id TEXT NOT NULL,
     received_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     page_url TEXT,
     navigation_type TEXT,
     started_at INTEGER,
     metrics TEXT NOT NULL,
     user_agent TEXT,
     extra TEXT,
     UNIQUE (site_key, session_id)
   );
   CREATE INDEX performance_sessions_by_site_time ON performance_sessions (site_key, updated_at);`,
  // 3: what the read API groups by, and API keys.
  (db) => {
    db.exec(`
      ALTER TABLE error_reports ADD COLUMN fingerprint TEXT;
      ALTER TABLE csp_reports ADD COLUMN blocked_host TEXT;
      CREATE TABLE performance_metrics (
        session_row INTEGER NOT NULL REFERENCES performance_sessions (id),
        site_key TEXT NOT NULL,
        name TEXT NOT NULL,
        value REAL NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (session_row, name)
      );
      CREATE TABLE api_keys (
        id INTEGER PRIMARY KEY,
        key_hash TEXT NOT NULL UNIQUE,
        site_key TEXT REFERENCES sites (site_key),
        name TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );`);
    // Rows an older collector stored get the derived columns too. (`all()`, not `iterate()`:
    // better-sqlite3 refuses writes while a statement is being iterated.)
    const setFingerprint = db.prepare('UPDATE error_reports SET fingerprint = ? WHERE id = ?');
    for (const row of db.prepare('SELECT * FROM error_reports').all() as Array<ErrorReport & { id: number }>) {
      setFingerprint.run(fingerprintOf(row as ErrorReport), row.id);
    }
    const setHost = db.prepare('UPDATE csp_reports SET blocked_host = ? WHERE id = ?');
    for (const row of db.prepare('SELECT id, blocked_uri FROM csp_reports').all() as Array<{ id: number; blocked_uri: string | null }>) {
      setHost.run(blockedHostOf(row.blocked_uri ?? undefined), row.id);
    }
    const insertMetric = db.prepare('INSERT INTO performance_metrics VALUES (?, ?, ?, ?, ?)');
    for (const row of db.prepare('SELECT id, site_key, metrics, updated_at FROM performance_sessions').all() as Array<{
      id: number;
      site_key: string;
      metrics: string;
      updated_at: number;
    }>) {
      for (const [name, metric] of Object.entries(JSON.parse(row.metrics) as Record<string, { value: number }>)) {
        insertMetric.run(row.id, row.site_key, name, metric.value, row.updated_at);
      }
    }
    db.exec(`
      CREATE INDEX error_reports_by_fingerprint ON error_reports (site_key, fingerprint);
      CREATE INDEX csp_reports_by_directive ON csp_reports (site_key, effective_directive, blocked_host);
      CREATE INDEX performance_metrics_by_value ON performance_metrics (site_key, name, value);`);
  },
  // 4: the integrations: WordPress installs and their actions, CSP projects, server agents.
  `CREATE TABLE wordpress_installs (
     site_key TEXT PRIMARY KEY REFERENCES sites (site_key),
     site_url TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     plugin_version TEXT,
     wordpress_version TEXT,
     php_version TEXT,
     status TEXT,
     registered_at INTEGER NOT NULL,
     last_check_in_at INTEGER
   );
   CREATE TABLE site_actions (
     id INTEGER PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     type TEXT NOT NULL,
     payload TEXT,
     status TEXT NOT NULL,
     message TEXT,
     result TEXT,
     created_at INTEGER NOT NULL,
     completed_at INTEGER
   );
   CREATE INDEX site_actions_pending ON site_actions (site_key, status);
   CREATE TABLE csp_projects (
     id INTEGER PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     name TEXT NOT NULL,
     mode TEXT NOT NULL,
     base_policy TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE TABLE server_agents (
     id TEXT PRIMARY KEY,
     token_hash TEXT NOT NULL,
     hostname TEXT NOT NULL,
     os TEXT NOT NULL,
     arch TEXT NOT NULL,
     agent_version TEXT NOT NULL,
     site_key TEXT REFERENCES sites (site_key),
     status TEXT,
     registered_at INTEGER NOT NULL,
     last_heartbeat_at INTEGER
   );`,
  // 5: per-day aggregates for the summary, kept at insert: it reads thousands of rows, not millions.
  `CREATE TABLE error_groups (
     site_key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     day INTEGER NOT NULL,
     reports INTEGER NOT NULL,
     count INTEGER NOT NULL,
     first_seen INTEGER NOT NULL,
     last_seen INTEGER NOT NULL,
     error_type TEXT NOT NULL,
     error_name TEXT,
     error_message TEXT NOT NULL,
     PRIMARY KEY (site_key, fingerprint, day)
   ) WITHOUT ROWID;
   INSERT INTO error_groups
     SELECT site_key, fingerprint, received_at / 86400000, COUNT(*), SUM(coalesce(count, 1)), MIN(received_at), MAX(received_at),
       error_type, error_name, error_message
     FROM error_reports GROUP BY site_key, fingerprint, received_at / 86400000;
   CREATE TABLE csp_groups (
     site_key TEXT NOT NULL,
     directive TEXT NOT NULL,
     blocked_host TEXT NOT NULL,
     day INTEGER NOT NULL,
     reports INTEGER NOT NULL,
     PRIMARY KEY (site_key, directive, blocked_host, day)
   ) WITHOUT ROWID;
   INSERT INTO csp_groups
     SELECT site_key, effective_directive, coalesce(blocked_host, ''), received_at / 86400000, COUNT(*)
     FROM csp_reports WHERE report_type = 'csp-violation' AND effective_directive IS NOT NULL
     GROUP BY site_key, effective_directive, coalesce(blocked_host, ''), received_at / 86400000;
   DROP INDEX performance_metrics_by_value;
   CREATE INDEX performance_metrics_by_value ON performance_metrics (site_key, name, value, updated_at);`,
  // 6: how each CSP report arrived, and the key copies of one violation share (docs/csp-reports.md; core/cspCopies.ts); older rows have neither.
  `ALTER TABLE csp_reports ADD COLUMN source TEXT;
   ALTER TABLE csp_reports ADD COLUMN sources TEXT;
   ALTER TABLE csp_reports ADD COLUMN violation_key TEXT;
   CREATE INDEX csp_reports_by_violation ON csp_reports (site_key, violation_key, received_at) WHERE violation_key IS NOT NULL;`,
  // 7: dashboard users and their sessions (docs/access.md, "Dashboard sessions").
  `CREATE TABLE users (
     id INTEGER PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     site_keys TEXT,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE user_sessions (
     token_hash TEXT PRIMARY KEY,
     user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL
   );
   CREATE INDEX user_sessions_by_expiry ON user_sessions (expires_at);`,
  // 8: the dashboard's reads at 1,000,000 reports (bench/dashboard.mjs), each index replacing one
  // with the same leading columns. An error group's reports in a time range with their sessions,
  // from the index alone: its distinct sessions since `since` read every report of the site in the
  // range once per group before (1.5 s for 20 groups over 700,000 reports). A metric's samples in a
  // time range (the p75s are of the last 24 h to 30 d, and the value order is now p75()'s sort:
  // sqlite/p75.ts). Sessions in a time range with their page, without reading their rows (metrics
  // JSON, user agent): half the time of the per-page p75.
  `DROP INDEX error_reports_by_fingerprint;
   CREATE INDEX error_reports_by_fingerprint_time ON error_reports (site_key, fingerprint, received_at, session_id);
   DROP INDEX performance_metrics_by_value;
   CREATE INDEX performance_metrics_by_time ON performance_metrics (site_key, name, updated_at, value);
   DROP INDEX performance_sessions_by_site_time;
   CREATE INDEX performance_sessions_by_site_time_page ON performance_sessions (site_key, updated_at, page_url);`,
  // 9: page views per day (the dashboard's first screen) from the index alone: the sessions updated
  // in range with the day each began, without reading their rows for received_at (about half the
  // time, as the dashboard bench measures it). The same index, one column longer: it
  // is rewritten at every upsert anyway (updated_at), so ingest pays nothing more.
  `DROP INDEX performance_sessions_by_site_time_page;
   CREATE INDEX performance_sessions_by_site_time_page ON performance_sessions (site_key, updated_at, page_url, received_at);`,
  // 10: the side each stored violation still awaits a copy from (core/cspCopies.ts awaitedSideOf, read here from `sources` as it
  // reads them), indexed in place of the violation key alone: the report a copy merges into is one index entry away, not a scan of every copy of its violation.
  AWAITING_COPY,
  // 11: an error's causes (docs/wire-format.md, "Error reports": its `cause` chain or an AggregateError's inner errors), a JSON array; older rows have none.
  `ALTER TABLE error_reports ADD COLUMN causes TEXT;`,
  // 12: visitors (docs/visitors.md): each report's and session's hash of its client under the day's
  // salt, and the salts, one per UTC day, deleted once past. An error group's visitors in a time
  // range from the index alone, as its sessions (version 8): the same index, one column longer.
  `CREATE TABLE visitor_salts (day INTEGER PRIMARY KEY, salt BLOB NOT NULL);
   ALTER TABLE error_reports ADD COLUMN visitor TEXT;
   ALTER TABLE csp_reports ADD COLUMN visitor TEXT;
   ALTER TABLE performance_sessions ADD COLUMN visitor TEXT;
   DROP INDEX error_reports_by_fingerprint_time;
   CREATE INDEX error_reports_by_fingerprint_time ON error_reports (site_key, fingerprint, received_at, session_id, visitor);`,
  // 13: issues (docs/issues.md). Each error report's release and environment, and its client parsed
  // at ingest (core/clientOf.ts); sessions' too, for the page views an issue's share is of. Rows
  // stored before keep these null: parsing every stored user agent would make the upgrade as long as
  // the database is large, and a null `bot` counts as a person. `issues` holds each group's lifecycle
  // with its all-time first and last seen, kept in the transaction that stores its reports; it is
  // filled here from the per-day aggregates, each issue unresolved. `site_releases` orders a site's
  // releases by first arrival (the rowid), what a regression compares.
  ISSUES_MIGRATION,
  SOURCE_MAPS_MIGRATION, ALERTS_MIGRATION, // 14: source maps (docs/source-maps.md); 15: alerts' rules, outbox, users' mail (docs/alerts.md).
  ISSUE_FAST_LIST_MIGRATION, ALERT_RULE_PARAMS_MIGRATION, ISSUE_DAY_COUNTS_MIGRATION, // 16: the issues' list at a million reports (docs/issues.md): issueSchema.ts says why; 17: alert rules' parameters (docs/alerts.md, "Rule kinds"); 18: the issues' list by field and by visitors, per day (docs/issues.md).
  CSP_GROUP_DISPOSITION_MIGRATION, ROUTES_MIGRATION, CSP_SOURCE_DECISIONS_MIGRATION, // 19: CSP groups per disposition; 20: sessions' routes, sites' route patterns (docs/vitals.md, "Routes"); 21: decisions on CSP sources (docs/csp-reports.md; cspSchema.ts).
];

/** The schema version this collector writes: how many migrations it knows. */
export const SQLITE_SCHEMA_VERSION = migrations.length;

/**
 * Brings `db` to the newest schema (or to `target`, for tests), one transaction per version;
 * `onApplied` hears of each version once it has committed (`serve` logs it).
 *
 * @example
 * migrate(db, undefined, { onApplied: (version) => console.log(`schema version ${version} applied`) });
 */
export const migrate = (db: Database, target = migrations.length, { onApplied }: { onApplied?: (version: number) => void } = {}) => {
  const applied = db.pragma('user_version', { simple: true }) as number;
  if (applied > migrations.length) {
    throw new Error(
      `the database has schema version ${applied}, newer than this collector knows (${migrations.length}); upgrade sitebeacon`,
    );
  }
  for (let version = applied; version < target; version++) {
    const step = migrations[version]!;
    db.transaction(() => {
      if (typeof step == 'string') db.exec(step);
      else step(db);
      db.pragma(`user_version = ${version + 1}`);
    })();
    onApplied?.(version + 1);
  }
};
