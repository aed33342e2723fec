import type { Database } from 'better-sqlite3';

/** How long the probe waits for a write lock held elsewhere (a backup, the CLI): then it says busy. */
const PROBE_BUSY_MS = 250;

/**
 * Throws unless `db` can write now, and changes nothing: takes the write lock (`BEGIN IMMEDIATE`)
 * and writes the schema version it already has, then rolls back. Taking the lock alone is not
 * enough: a read-only file whose WAL is writable takes it, and only the write fails
 * (SQLITE_READONLY). Synchronous, like everything better-sqlite3 does, and bounded by PROBE_BUSY_MS.
 *
 * @example
 * checkWritable(db); // throws SqliteError "attempt to write a readonly database"
 */
export const checkWritable = (db: Database) => {
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
};
