import { resolve } from 'node:path';
import { isPostgresUrl } from '../store/openStore';
import { restoreSqlite } from '../store/sqlite/restore';
import { databaseLocation, parseOptions, UsageError, type CliIO } from './args';

/**
 * `sitebeacon restore BACKUP [--db FILE]`: the SQLite backup in place of the database, with the
 * collector stopped (store/sqlite/restore.ts: refused while any process has the file open; the
 * backup's integrity checked; installed atomically; the old WAL removed). Says what it did.
 * PostgreSQL has its own tools (`pg_restore`; see the README, "Backups and upgrades").
 */
export const restore = async (args: string[], io: CliIO) => {
  const positional = args[0] !== undefined && !args[0].startsWith('-');
  const source = positional ? args[0] : undefined;
  const values = parseOptions(positional ? args.slice(1) : args, {});
  if (!source) throw new UsageError('restore needs the BACKUP to restore: sitebeacon restore BACKUP');
  const location = databaseLocation(values, io);
  if (isPostgresUrl(location)) throw new UsageError('restore installs an SQLite backup; for PostgreSQL use pg_restore (see the README, "Backups and upgrades")');
  const backup = resolve(source);
  const { schemaVersion, removed } = await restoreSqlite(backup, location);
  if (values.json) {
    io.out(JSON.stringify({ restored: backup, db: location, schema_version: schemaVersion, removed }));
    return;
  }
  io.out(`restored ${backup} to ${location} (integrity check ok, schema version ${schemaVersion})`);
  if (removed.length) io.out(`removed the replaced database's ${removed.join(' and ')}`);
  io.out('start the collector: it opens the restored database');
};
