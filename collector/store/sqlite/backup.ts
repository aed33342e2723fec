import { existsSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * Copies an SQLite store to `destination` with SQLite's online backup API, while collectors keep
 * writing to it (WAL mode lets them). After the first step the rest is copied in one step: one
 * consistent snapshot, where steps of 100 pages would start again each time a collector commits.
 * Resolves to the pages copied.
 *
 * @example
 * await backupSqlite('./data/sitebeacon.db', '/backups/sitebeacon-2026-06-10.db');
 */
export const backupSqlite = async (file: string, destination: string) => {
  if (!existsSync(file)) throw new Error(`${file} does not exist: nothing to back up`);
  if (existsSync(destination)) throw new Error(`${destination} exists: a backup never overwrites a file, choose a new name`);
  mkdirSync(dirname(destination), { recursive: true });
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    const { totalPages } = await db.backup(destination, { progress: ({ totalPages: pages }) => Math.max(pages, 100) });
    return totalPages;
  } finally {
    db.close();
  }
};
