import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Store } from './contract';
import { createGroupCommit } from './sqlite/groupCommit';
import { sqliteIntegrations } from './sqlite/integrations';
import { checkWritable } from './sqlite/checkWritable';
import { migrate } from './sqlite/migrations';
import { registerP75 } from './sqlite/p75';
import { sqlitePerformance } from './sqlite/performance';
import { sqlitePerformanceReads } from './sqlite/performanceReads';
import { sqliteReportReads } from './sqlite/reportReads';
import { sqliteReports } from './sqlite/reports';
import { sqliteRetention } from './sqlite/retention';
import { sqliteSites } from './sqlite/sites';
import { sqliteUsers } from './sqlite/users';

/**
 * The embedded store: one SQLite file in WAL mode (better-sqlite3), migrated on open. Report
 * writes are group-committed (sqlite/groupCommit.ts) and resolve only after their commit.
 *
 * @example
 * const store = createSqliteStore({ file: './data/sitebeacon.db' });
 */
export const createSqliteStore = ({ file }: { file: string }): Store => {
  if (file != ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // In WAL mode NORMAL loses no committed transaction when the process dies (the WAL is in the
  // OS before a commit returns); only a power loss or OS crash can take the last commits back.
  // FULL would fsync every group commit, at a cost of most of the throughput.
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Room for the indexes' hot pages (64 MiB), and checkpoints every ~16 MiB of WAL instead of 4:
  // fewer, larger checkpoints inside the commits that trigger them.
  db.pragma('cache_size = -65536');
  db.pragma('wal_autocheckpoint = 4000');
  migrate(db);
  registerP75(db);
  const { write, flush } = createGroupCommit(db);
  const reports = sqliteReports(db, write);
  const reads = sqliteReportReads(db);
  return {
    ...sqliteSites(db, write),
    errors: { ...reports.errors, ...reads.errors },
    csp: { ...reports.csp, ...reads.csp },
    performance: { ...sqlitePerformance(db, write), ...sqlitePerformanceReads(db) },
    ...sqliteIntegrations(db, write),
    retention: sqliteRetention(db, write),
    ...sqliteUsers(db),
    async checkWritable() {
      checkWritable(db);
    },
    async close() {
      // What is queued is committed before the file is closed.
      flush();
      db.close();
    },
  };
};
