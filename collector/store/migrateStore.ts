import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isPostgresUrl } from './openStore';
import { migratePostgres, type MigrationResult } from './postgres/migrations';
import { createPool } from './postgres/pool';
import { createSqliteStore } from './sqlite';

/**
 * Applies the schema versions a database lacks (`sitebeacon migrate`), whichever store it is, and
 * says which versions it found and left. A schema newer than this collector knows is refused with
 * both versions named, as opening it would be. PostgreSQL migrates under its advisory lock
 * (postgres/migrations.ts), so running this while collectors start is safe.
 *
 * @example
 * await migrateStore('postgres://sitebeacon@db.internal/sitebeacon') // { from: 0, to: 1 }
 */
export const migrateStore = async (location: string): Promise<MigrationResult> => {
  if (isPostgresUrl(location)) {
    const pool = createPool(location, { max: 1 });
    try {
      return await migratePostgres(pool);
    } finally {
      await pool.end();
    }
  }
  const version = () => {
    if (!existsSync(location)) return 0;
    const db = new Database(location, { readonly: true });
    try {
      return db.pragma('user_version', { simple: true }) as number;
    } finally {
      db.close();
    }
  };
  const from = version();
  await createSqliteStore({ file: location }).close();
  return { from, to: version() };
};
