import { statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Database } from 'better-sqlite3';
import { UnhealthyStoreError } from '../unhealthyStoreError';

/** How long the probe waits for a write lock held elsewhere (a backup, the CLI): then it says busy. */
const PROBE_BUSY_MS = 250;

/**
 * Free space below which the disk counts as full: a group of reports needs room for its pages in
 * the WAL, and a WAL that a checkpoint has emptied is rewritten in place without growing, so a
 * small write can still succeed on a disk that has no room for the next large one.
 */
const MIN_FREE_BYTES = 1 << 20;

const diskFull = (detail: string) => new UnhealthyStoreError('the disk is full', `cannot write the database: ${detail}`);

/**
 * Throws unless `db` can write now, with a write that reaches the file: takes the write lock
 * (`BEGIN IMMEDIATE`), writes the schema version it already has and COMMITs, so the page goes to
 * the WAL (a rolled-back write never leaves the page cache, and passes on a full disk). Taking the
 * lock alone is not enough either: a read-only file whose WAL is writable takes it, and only the
 * write fails (SQLITE_READONLY). Before that, for a file (`file`), the free space of its file
 * system: below MIN_FREE_BYTES it throws UnhealthyStoreError "the disk is full", as it does when
 * the commit fails with SQLITE_FULL. Synchronous, like everything better-sqlite3 does, and bounded
 * by PROBE_BUSY_MS.
 *
 * @example
 * checkWritable(db, './data/sitebeacon.db'); // throws SqliteError "attempt to write a readonly database"
 */
export const checkWritable = (db: Database, file?: string) => {
  if (file) {
    const { bavail, bfree, bsize } = statfsSync(dirname(file));
    // root may write into the blocks a file system reserves for it; anyone else may not.
    const free = (process.getuid?.() === 0 ? bfree : bavail) * bsize;
    if (free < MIN_FREE_BYTES) throw diskFull(`${dirname(file)} has ${free} bytes free`);
  }
  const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`);
  try {
    db.exec('BEGIN IMMEDIATE');
    db.pragma(`user_version = ${db.pragma('user_version', { simple: true }) as number}`);
    db.exec('COMMIT');
  } catch (error) {
    if ((error as { code?: string }).code == 'SQLITE_FULL') throw diskFull((error as Error).message);
    throw error;
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
    db.pragma(`busy_timeout = ${busyTimeout}`);
  }
};
