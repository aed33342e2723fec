import { resolve } from 'node:path';
import { isPostgresUrl } from '../store/openStore';
import { backupSqlite } from '../store/sqlite/backup';
import { databaseLocation, UsageError } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/**
 * `sitebeacon backup FILE [--db FILE]`: a consistent copy of the SQLite store, taken while the
 * collector runs (store/sqlite/backup.ts). PostgreSQL has its own tools (`pg_dump`; see the README).
 */
export const backup = defineCommand({
  name: ['backup'],
  summary: 'copy the SQLite store to FILE while collectors run (for PostgreSQL use pg_dump)',
  help: "a consistent copy of the SQLite file, taken while collectors write to it (SQLite's online backup); never overwrites FILE",
  args: [{ name: 'FILE', help: 'the copy to write' }],
  flags: { ...DATABASE_FLAGS },
  run: async ({ values, args: [destination] }, io) => {
    const location = databaseLocation(values, io);
    if (isPostgresUrl(location)) throw new UsageError('backup copies an SQLite file; for PostgreSQL use pg_dump (see the README, "Backups")');
    const file = resolve(destination!);
    const pages = await backupSqlite(location, file);
    if (values.json) io.out(JSON.stringify({ backup: file, pages }));
    else io.out(`backed up ${location} to ${file} (${pages} pages)`);
  },
});
