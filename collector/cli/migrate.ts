import { migrateStore } from '../store/migrateStore';
import { databaseLocation, parseOptions, printableLocation, type CliIO } from './args';

/**
 * `sitebeacon migrate [--db FILE | --database-url URL] [--json]`: brings the database to this
 * collector's schema (../shared/design.md, "Scale-out"). `serve` does the same when it starts;
 * this is for upgrading before the collectors restart. Exit 1, naming both versions, when the
 * database is newer than this collector.
 */
export const migrate = async (args: string[], io: CliIO) => {
  const values = parseOptions(args, {});
  const location = databaseLocation(values, io);
  const { from, to } = await migrateStore(location);
  const database = printableLocation(location);
  if (values.json) io.out(JSON.stringify({ database, from, to }));
  else io.out(from == to ? `${database}: schema version ${to}, nothing to do` : `${database}: schema version ${from} -> ${to}`);
};
