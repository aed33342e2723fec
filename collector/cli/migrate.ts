import { migrateStore } from '../store/migrateStore';
import { databaseLocation, printableLocation } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/**
 * `sitebeacon migrate [--db FILE | --database-url URL] [--json]`: brings the database to this
 * collector's schema (README, "Several collectors on PostgreSQL"). `serve` does the same when it
 * starts; this is for upgrading before the collectors restart. Exit 1, naming both versions, when
 * the database is newer than this collector.
 */
export const migrate = defineCommand({
  name: ['migrate'],
  summary: 'apply the schema versions the database lacks (serve does too); safe while other collectors start',
  help: 'applies the schema versions the database lacks (`serve` does too when it starts); exit 1, naming both versions, for a database newer than this collector',
  flags: { ...DATABASE_FLAGS },
  run: async ({ values }, io) => {
    const location = databaseLocation(values, io);
    const { from, to } = await migrateStore(location);
    const database = printableLocation(location);
    if (values.json) io.out(JSON.stringify({ database, from, to }));
    else io.out(from == to ? `${database}: schema version ${to}, nothing to do` : `${database}: schema version ${from} -> ${to}`);
  },
});
