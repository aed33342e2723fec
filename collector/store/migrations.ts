import type { Database } from 'better-sqlite3';
import { DEFAULT_SITE_KEY } from './store';

/**
 * Schema versions, oldest first. A database records how many it has applied in
 * `PRAGMA user_version`; a newer collector applies the rest, so it opens an older file.
 * Never edit a migration that has shipped: add one.
 */
const migrations: string[] = [
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
];

/** Brings `db` to the newest schema, one transaction per version. */
export const migrate = (db: Database) => {
  const applied = db.pragma('user_version', { simple: true }) as number;
  if (applied > migrations.length) {
    throw new Error(
      `the database has schema version ${applied}, newer than this collector knows (${migrations.length}); upgrade sitebeacon`,
    );
  }
  for (let version = applied; version < migrations.length; version++) {
    db.transaction(() => {
      db.exec(migrations[version]!);
      db.pragma(`user_version = ${version + 1}`);
    })();
  }
};
