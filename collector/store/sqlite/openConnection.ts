import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/**
 * `synchronous` in WAL mode: `normal` loses no committed transaction when the process dies (the WAL
 * is in the OS before a commit returns); only a power loss or an OS crash can take the last
 * commits back. `full` also fsyncs the WAL at every (group) commit: power-loss safe
 * (`serve --sync full`, README, "Storage and durability").
 */
export type Sync = 'normal' | 'full';

/**
 * WAL frames (4 KiB pages) past which a commit checkpoints the WAL itself (SQLite's automatic
 * checkpoint, inside the commit that crosses it): 256 MiB. The checkpoint thread (checkpoints.ts)
 * keeps the WAL far below, so that commits never wait on a checkpoint's fsyncs; this bound is for
 * when it does not run.
 */
const AUTOCHECKPOINT_FRAMES = 65_536;

/**
 * One connection to the SQLite file, as every connection of the store has it: WAL, `sync`, a busy
 * timeout, a page cache of `cacheKiB`, and no automatic checkpoint before AUTOCHECKPOINT_FRAMES.
 *
 * @example
 * const db = openConnection('./data/sitebeacon.db', { sync: 'normal', cacheKiB: 16_384 });
 */
export const openConnection = (file: string, { sync, cacheKiB }: { sync: Sync; cacheKiB: number }): Database.Database => {
  if (file != ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${sync == 'full' ? 'FULL' : 'NORMAL'}`);
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = ${-Math.round(cacheKiB)}`);
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_FRAMES}`);
  return db;
};
