import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { postgresSchemaVersion } from './postgres/migrations';
import { createPool } from './postgres/pool';
import { SQLITE_SCHEMA_VERSION } from './sqlite/migrations';

/**
 * Rejects unless the database exists and has exactly the schema this collector writes, changing
 * nothing. Read-only commands (`export`, `snippet`) open the store only after it: they never
 * migrate a database behind its owner's back (README, "Backups and upgrades": `sitebeacon migrate`
 * is the step that does). A newer schema is refused as opening it would be.
 *
 * @example
 * await requireCurrentSchema('./data/sitebeacon.db'); // throws '... run `sitebeacon migrate --db ./data/sitebeacon.db` first'
 */
export const requireCurrentSchema = async (location: string, { printable = location, isPostgres = false } = {}) => {
  const { found, current } = isPostgres ? await postgresVersion(location) : sqliteVersion(location);
  if (found < current) {
    const flag = isPostgres ? '--database-url URL' : `--db ${location}`;
    throw new Error(
      `${printable} has schema version ${found}, older than this sitebeacon's (${current}); a read-only command does not migrate it: run \`sitebeacon migrate ${flag}\` first`,
    );
  }
  if (found > current) {
    throw new Error(`${printable} has schema version ${found}, newer than this sitebeacon knows (${current}); upgrade sitebeacon`);
  }
};

const sqliteVersion = (file: string) => {
  if (file == ':memory:') return { found: SQLITE_SCHEMA_VERSION, current: SQLITE_SCHEMA_VERSION };
  if (!existsSync(file)) throw new Error(`no database at ${file}`);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return { found: db.pragma('user_version', { simple: true }) as number, current: SQLITE_SCHEMA_VERSION };
  } finally {
    db.close();
  }
};

const postgresVersion = async (url: string) => {
  const pool = createPool(url, { max: 1 });
  try {
    return await postgresSchemaVersion(pool);
  } finally {
    await pool.end();
  }
};
