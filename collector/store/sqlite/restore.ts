import { closeSync, copyFileSync, existsSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_SCHEMA_VERSION } from './migrations';

/** What a restore did, for `sitebeacon restore` to say. */
export interface RestoreResult {
  /** The schema version of the backup: `serve` or `migrate` brings an older one up to date. */
  schemaVersion: number;
  /** The database's own WAL and shared-memory files that were removed (they belonged to the file replaced). */
  removed: string[];
}

/**
 * Takes SQLite's write lock on `file` the way no other connection may hold anything: with
 * `locking_mode = EXCLUSIVE`, `BEGIN EXCLUSIVE` needs an EXCLUSIVE lock on the database file itself,
 * and every connection open on a WAL database keeps a SHARED lock on it for as long as it is open
 * (SQLite's "WAL-mode File Format" and "Use of WAL Without Shared-Memory" pages). A running collector
 * always has its connections open, and a lock file could be left behind by a collector killed with
 * SIGKILL, or never be made by another program: the file's own lock is the one that tells. It is
 * released when the returned connection closes; SQLITE_BUSY at once (no busy timeout) when a
 * collector, a CLI command or any other program has the file open.
 */
const lockAgainstCollectors = (file: string) => {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code == 'SQLITE_BUSY') {
      throw new Error(`${file} is open in another process (a collector, or a command): stop it, then restore`);
    }
    throw new Error(
      `cannot lock ${file} to be sure no collector has it open (${(error as Error).message}): if none runs, move it and its -wal and -shm files aside, then restore`,
    );
  }
};

/** Flushes a file (or a folder: a rename in it) to the disk. */
const fsyncPath = (path: string) => {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
};

/**
 * Puts the SQLite backup `backup` in place of the database `file`, for a collector started after.
 * Refuses while any process has `file` open (lockAgainstCollectors). The backup is copied to a file
 * beside `file`, and that byte-for-byte copy is checked (`PRAGMA integrity_check`, and a schema
 * version this collector knows) before anything of `file` changes; it is then fsynced and renamed
 * over `file` (atomic: `file` is the old database or the new one, never half of either), and the
 * old database's `-wal` and `-shm` are removed first: SQLite would replay the old WAL's pages onto
 * the backup and corrupt it (copying a backup over the file by hand, the WAL left beside it, does
 * that). A crash midway leaves the old database, without its WAL, or the restored one.
 *
 * @example
 * const { schemaVersion, removed } = await restoreSqlite('/backups/sitebeacon-2026-06-10.db', './data/sitebeacon.db');
 */
export const restoreSqlite = async (backup: string, file: string): Promise<RestoreResult> => {
  if (!existsSync(backup)) throw new Error(`${backup} does not exist: nothing to restore`);
  if (existsSync(`${backup}-wal`) && statSync(`${backup}-wal`).size > 0) {
    throw new Error(`${backup}-wal is beside the backup: it is a database in use, not a backup (take one with sitebeacon backup)`);
  }
  // The replaced database's WAL and shared memory: a collector killed with SIGKILL leaves both.
  const stale = [`${file}-wal`, `${file}-shm`].filter((path) => existsSync(path));
  const lock = existsSync(file) ? lockAgainstCollectors(file) : undefined;
  const copy = join(dirname(file), `.${basename(file)}.restoring-${process.pid}`);
  let released = false;
  try {
    copyFileSync(backup, copy);
    let schemaVersion: number;
    let problems: string[];
    try {
      const check = new Database(copy, { fileMustExist: true });
      try {
        problems = (check.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
        schemaVersion = check.pragma('user_version', { simple: true }) as number;
      } finally {
        check.close();
      }
    } catch (error) {
      problems = [(error as Error).message];
      schemaVersion = 0;
    }
    if (problems.join() != 'ok') throw new Error(`${backup} fails SQLite's integrity check; nothing was changed: ${problems.slice(0, 3).join('; ')}`);
    if (schemaVersion > SQLITE_SCHEMA_VERSION) {
      throw new Error(`${backup} has schema version ${schemaVersion}, newer than this sitebeacon knows (${SQLITE_SCHEMA_VERSION}): restore it with the sitebeacon that made it`);
    }
    fsyncPath(copy);
    // The lock goes before the old WAL does: closing the connection may checkpoint that WAL into
    // the old file (harmless, it is being replaced) and remove it, as SQLite's last connection does.
    // A collector started between here and the rename opens the old file: its writes are then
    // refused 503, the file replaced under it (fileIdentity.ts), until it restarts.
    lock?.close();
    released = true;
    for (const path of [`${file}-wal`, `${file}-shm`]) rmSync(path, { force: true });
    renameSync(copy, file);
    fsyncPath(dirname(file));
    return { schemaVersion, removed: stale };
  } finally {
    if (!released) lock?.close();
    rmSync(copy, { force: true });
    rmSync(`${copy}-wal`, { force: true });
    rmSync(`${copy}-shm`, { force: true });
  }
};
