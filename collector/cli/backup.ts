import { resolve } from 'node:path';
import { isPostgresUrl } from '../store/openStore';
import { backupSqlite } from '../store/sqlite/backup';
import { databaseLocation, parseOptions, UsageError, type CliIO } from './args';

/**
 * `sitebeacon backup FILE [--db FILE]`: a consistent copy of the SQLite store, taken while the
 * collector runs (store/sqlite/backup.ts). PostgreSQL has its own tools (`pg_dump`; see the README).
 */
export const backup = async (args: string[], io: CliIO) => {
  const positional = args[0] !== undefined && !args[0].startsWith('-');
  const destination = positional ? args[0] : undefined;
  const values = parseOptions(positional ? args.slice(1) : args, {});
  if (!destination) throw new UsageError('backup needs the FILE to write: sitebeacon backup FILE');
  const location = databaseLocation(values, io);
  if (isPostgresUrl(location)) throw new UsageError('backup copies an SQLite file; for PostgreSQL use pg_dump (see the README, "Backups")');
  const file = resolve(destination);
  const pages = await backupSqlite(location, file);
  if (values.json) io.out(JSON.stringify({ backup: file, pages }));
  else io.out(`backed up ${location} to ${file} (${pages} pages)`);
};
