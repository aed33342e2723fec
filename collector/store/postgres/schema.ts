import { DEFAULT_SITE_KEY } from '../../core/records';
import { AWAITING_COPY } from '../awaitingCopy';
import { POSTGRES_CSP_GROUP_DISPOSITION_MIGRATION, POSTGRES_CSP_SOURCE_DECISIONS_MIGRATION } from './cspSchema';
import { POSTGRES_ROUTES_MIGRATION } from './routeSchema';
import { ALERT_RULE_PARAMS_MIGRATION, ALERTS_MIGRATION } from './alertSchema';
import { ISSUE_DAY_COUNTS_MIGRATION, ISSUE_FAST_LIST_MIGRATION, ISSUES_MIGRATION } from './issueSchema';
import { POSTGRES_SOURCE_MAPS_MIGRATION } from './sourceMapSchema';

/**
 * Schema versions of the PostgreSQL store, oldest first. Version 1 is the SQLite store's schema at
 * its version 5 (sqlite/migrations.ts), version 2 its version 6, version 3 its version 7, column
 * for column and in the same order, so that records read the same from either: times are int8
 * milliseconds, JSON is text, except `metrics` which is jsonb so that two processes merge a
 * session's metrics in one statement (`||`). Integers are int8 (the schemas allow up to 2^31),
 * finite numbers float8. Never edit a version that has shipped: add one.
 */
export const POSTGRES_MIGRATIONS: string[] = [
  `CREATE TABLE sites (
     site_key TEXT PRIMARY KEY,
     name TEXT NOT NULL,
     allowed_origins TEXT NOT NULL,
     created_at BIGINT NOT NULL
   );
   INSERT INTO sites (site_key, name, allowed_origins, created_at)
     VALUES ('${DEFAULT_SITE_KEY}', 'Default site', '[]', (extract(epoch FROM clock_timestamp()) * 1000)::bigint);
   CREATE TABLE error_reports (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     received_at BIGINT NOT NULL,
     error_type TEXT NOT NULL,
     error_message TEXT NOT NULL,
     error_name TEXT,
     stack TEXT,
     source_url TEXT,
     line BIGINT,
     "column" BIGINT,
     page_url TEXT,
     timestamp DOUBLE PRECISION,
     session_id TEXT,
     count BIGINT,
     user_agent TEXT,
     extra TEXT,
     fingerprint TEXT
   );
   CREATE INDEX error_reports_by_site_time ON error_reports (site_key, received_at);
   CREATE INDEX error_reports_by_fingerprint ON error_reports (site_key, fingerprint);
   CREATE TABLE csp_reports (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     received_at BIGINT NOT NULL,
     report_type TEXT NOT NULL,
     document_uri TEXT,
     referrer TEXT,
     violated_directive TEXT,
     effective_directive TEXT,
     original_policy TEXT,
     disposition TEXT,
     blocked_uri TEXT,
     source_file TEXT,
     line_number BIGINT,
     column_number BIGINT,
     status_code BIGINT,
     script_sample TEXT,
     age DOUBLE PRECISION,
     body TEXT,
     user_agent TEXT,
     extra TEXT,
     blocked_host TEXT
   );
   CREATE INDEX csp_reports_by_site_time ON csp_reports (site_key, received_at);
   CREATE INDEX csp_reports_by_directive ON csp_reports (site_key, effective_directive, blocked_host);
   CREATE TABLE performance_sessions (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     session_id TEXT NOT NULL,
     received_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     page_url TEXT,
     navigation_type TEXT,
     started_at DOUBLE PRECISION,
     metrics JSONB NOT NULL,
     user_agent TEXT,
     extra TEXT,
     UNIQUE (site_key, session_id)
   );
   CREATE INDEX performance_sessions_by_site_time ON performance_sessions (site_key, updated_at);
   CREATE TABLE performance_metrics (
     session_row BIGINT NOT NULL REFERENCES performance_sessions (id) ON DELETE CASCADE,
     site_key TEXT NOT NULL,
     name TEXT NOT NULL,
     value DOUBLE PRECISION NOT NULL,
     updated_at BIGINT NOT NULL,
     PRIMARY KEY (session_row, name)
   );
   CREATE INDEX performance_metrics_by_value ON performance_metrics (site_key, name, value, updated_at);
   CREATE TABLE api_keys (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     key_hash TEXT NOT NULL UNIQUE,
     site_key TEXT REFERENCES sites (site_key),
     name TEXT NOT NULL,
     created_at BIGINT NOT NULL
   );
   CREATE TABLE wordpress_installs (
     site_key TEXT PRIMARY KEY REFERENCES sites (site_key),
     site_url TEXT NOT NULL UNIQUE,
     name TEXT NOT NULL,
     plugin_version TEXT,
     wordpress_version TEXT,
     php_version TEXT,
     status TEXT,
     registered_at BIGINT NOT NULL,
     last_check_in_at BIGINT
   );
   CREATE TABLE site_actions (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     type TEXT NOT NULL,
     payload TEXT,
     status TEXT NOT NULL,
     message TEXT,
     result TEXT,
     created_at BIGINT NOT NULL,
     completed_at BIGINT
   );
   CREATE INDEX site_actions_pending ON site_actions (site_key, status);
   CREATE TABLE csp_projects (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     site_key TEXT NOT NULL REFERENCES sites (site_key),
     name TEXT NOT NULL,
     mode TEXT NOT NULL,
     base_policy TEXT NOT NULL,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL
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
     registered_at BIGINT NOT NULL,
     last_heartbeat_at BIGINT
   );
   CREATE TABLE error_groups (
     site_key TEXT NOT NULL,
     fingerprint TEXT NOT NULL,
     day BIGINT NOT NULL,
     reports BIGINT NOT NULL,
     count BIGINT NOT NULL,
     first_seen BIGINT NOT NULL,
     last_seen BIGINT NOT NULL,
     error_type TEXT NOT NULL,
     error_name TEXT,
     error_message TEXT NOT NULL,
     PRIMARY KEY (site_key, fingerprint, day)
   );
   CREATE TABLE csp_groups (
     site_key TEXT NOT NULL,
     directive TEXT NOT NULL,
     blocked_host TEXT NOT NULL,
     day BIGINT NOT NULL,
     reports BIGINT NOT NULL,
     PRIMARY KEY (site_key, directive, blocked_host, day)
   );`,
  // 2: how each CSP report arrived, and the key copies of one violation share
  // (docs/csp-reports.md; core/cspCopies.ts), as the SQLite store's version 6. Older rows have neither and are never merged into.
  `ALTER TABLE csp_reports ADD COLUMN source TEXT;
   ALTER TABLE csp_reports ADD COLUMN sources TEXT;
   ALTER TABLE csp_reports ADD COLUMN violation_key TEXT;
   CREATE INDEX csp_reports_by_violation ON csp_reports (site_key, violation_key, received_at) WHERE violation_key IS NOT NULL;`,
  // 3: dashboard users and their sessions (docs/access.md, "Dashboard sessions"), as the
  // SQLite store's version 7. `site_keys` is a JSON array as text, as there.
  `CREATE TABLE users (
     id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     email TEXT NOT NULL UNIQUE,
     password_hash TEXT NOT NULL,
     site_keys TEXT,
     created_at BIGINT NOT NULL
   );
   CREATE TABLE user_sessions (
     token_hash TEXT PRIMARY KEY,
     user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     created_at BIGINT NOT NULL,
     expires_at BIGINT NOT NULL
   );
   CREATE INDEX user_sessions_by_expiry ON user_sessions (expires_at);`,
  // 4: the dashboard's reads at 1,000,000 reports, as the SQLite store's version 8: an error group's
  // reports in a time range with their sessions from the index alone (its distinct sessions, its
  // latest report), a metric's samples in a time range, sessions in a time range with their page.
  `DROP INDEX error_reports_by_fingerprint;
   CREATE INDEX error_reports_by_fingerprint_time ON error_reports (site_key, fingerprint, received_at, session_id);
   DROP INDEX performance_metrics_by_value;
   CREATE INDEX performance_metrics_by_time ON performance_metrics (site_key, name, updated_at, value);
   DROP INDEX performance_sessions_by_site_time;
   CREATE INDEX performance_sessions_by_site_time_page ON performance_sessions (site_key, updated_at, page_url);`,
  // 5: the side each stored violation still awaits a copy from, indexed (../awaitingCopy.ts), as the
  // SQLite store's version 10.
  AWAITING_COPY,
  // 6: an error's causes, a JSON array as text, as the SQLite store's version 11; older rows have none.
  `ALTER TABLE error_reports ADD COLUMN causes TEXT;`,
  // 7: visitors and their daily salts (docs/visitors.md), as the SQLite store's version 12.
  `CREATE TABLE visitor_salts (day BIGINT PRIMARY KEY, salt BYTEA NOT NULL);
   ALTER TABLE error_reports ADD COLUMN visitor TEXT;
   ALTER TABLE csp_reports ADD COLUMN visitor TEXT;
   ALTER TABLE performance_sessions ADD COLUMN visitor TEXT;
   DROP INDEX error_reports_by_fingerprint_time;
   CREATE INDEX error_reports_by_fingerprint_time ON error_reports (site_key, fingerprint, received_at, session_id, visitor);`,
  // 8: issues (docs/issues.md), as the SQLite store's version 13.
  ISSUES_MIGRATION,
  // 9: source maps (docs/source-maps.md, "Uploading maps"), as the SQLite store's version 14.
  POSTGRES_SOURCE_MAPS_MIGRATION,
  // 10: alerts (docs/alerts.md), as the SQLite store's version 15.
  ALERTS_MIGRATION,
  // 11: the issues' list at a million reports (docs/issues.md), as the SQLite store's version 16.
  ISSUE_FAST_LIST_MIGRATION,
  // 12: alert rules' parameters (docs/alerts.md, "Rule kinds"), as the SQLite store's version 17.
  ALERT_RULE_PARAMS_MIGRATION,
  // 13: the issues' list by field and by visitors, per day (docs/issues.md), as the SQLite store's version 18.
  ISSUE_DAY_COUNTS_MIGRATION,
  // 14: CSP groups per disposition (docs/csp-reports.md, "Blocked first"), as the SQLite store's version 19.
  POSTGRES_CSP_GROUP_DISPOSITION_MIGRATION,
  // 15: sessions' routes and sites' route patterns (docs/vitals.md, "Routes"), as the SQLite store's version 20.
  POSTGRES_ROUTES_MIGRATION,
  // 16: an owner's decision on each source a CSP suggestion would add, as the SQLite store's version 21.
  POSTGRES_CSP_SOURCE_DECISIONS_MIGRATION,
];
