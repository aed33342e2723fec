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
