import { resolve } from 'node:path';
import { isPostgresUrl } from '../store/openStore';
import { restoreSqlite } from '../store/sqlite/restore';
import { databaseLocation, UsageError } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/**
 * `sitebeacon restore BACKUP [--db FILE]`: the SQLite backup in place of the database, with the
 * collector stopped (store/sqlite/restore.ts: refused while any process has the file open; the
 * backup's integrity checked; installed atomically; the old WAL removed). Says what it did.
 * PostgreSQL has its own tools (`pg_restore`; see the README, "Backups and upgrades").
 */
export const restore = defineCommand({
  name: ['restore'],
  summary: 'put an SQLite backup in place of the database, the collector stopped',
  help:
    "puts an SQLite backup in place of the database, with the collector stopped: refused while any process has the file open (it tries SQLite's exclusive lock on the file, which every open connection blocks); " +
    "the backup's integrity checked (`PRAGMA integrity_check`) before anything changes; installed atomically (a copy beside the file, fsynced, renamed over it) and the replaced file's `-wal` and `-shm` removed",
  args: [{ name: 'BACKUP', help: 'the backup file to restore' }],
  flags: { ...DATABASE_FLAGS },
  run: async ({ values, args: [source] }, io) => {
    const location = databaseLocation(values, io);
    if (isPostgresUrl(location)) throw new UsageError('restore installs an SQLite backup; for PostgreSQL use pg_restore (see the README, "Backups and upgrades")');
    const backup = resolve(source!);
    const { schemaVersion, removed } = await restoreSqlite(backup, location);
    if (values.json) {
      io.out(JSON.stringify({ restored: backup, db: location, schema_version: schemaVersion, removed }));
      return;
    }
    io.out(`restored ${backup} to ${location} (integrity check ok, schema version ${schemaVersion})`);
    if (removed.length) io.out(`removed the replaced database's ${removed.join(' and ')}`);
    io.out('start the collector: it opens the restored database');
  },
});
