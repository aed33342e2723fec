import type { Client, Pool } from './pool';
import { POSTGRES_MIGRATIONS } from './schema';

/** Any constant: the advisory lock that serialises migrations of one database between processes. */
const MIGRATION_LOCK = 0x5174_b3ac;

/** The newest version applied, 0 on an empty database. */
const appliedVersion = async (client: Client) => {
  // Two queries: a statement naming a table that does not exist fails when parsed, whatever its CASE.
  const { rows: [found] } = await client.query<{ exists: boolean }>(`SELECT to_regclass('sitebeacon_schema') IS NOT NULL AS exists`);
  if (!found?.exists) return 0;
  const { rows } = await client.query<{ version: number | null }>('SELECT max(version) AS version FROM sitebeacon_schema');
  return rows[0]?.version ?? 0;
};

/**
 * The schema version of the database and the one this collector writes, changing nothing: read-only
 * commands refuse an older database instead of migrating it (store/schemaVersion.ts).
 *
 * @example
 * await postgresSchemaVersion(pool) // { found: 5, current: 6 }
 */
export const postgresSchemaVersion = async (pool: Pool) => {
  const client = await pool.connect();
  try {
    return { found: await appliedVersion(client), current: POSTGRES_MIGRATIONS.length };
  } finally {
    client.release();
  }
};

/** A schema newer than this collector knows is refused, naming both versions; else the version. */
const refuseNewer = (applied: number) => {
  if (applied > POSTGRES_MIGRATIONS.length) {
    throw new Error(`the database has schema version ${applied}, newer than this collector knows (${POSTGRES_MIGRATIONS.length}); upgrade sitebeacon`);
  }
  return applied;
};

/** What a migration did: the schema version found and the one left. */
export interface MigrationResult {
  from: number;
  to: number;
}

/**
 * Brings the database to the newest schema (or to `target`, for tests). The applied versions are
 * rows of `sitebeacon_schema`. Several collectors starting at once are safe: each takes the
 * session-level advisory lock first, so one migrates while the others wait, then find nothing left
 * to do. Each version commits in its own transaction with its row. A schema newer than this
 * collector knows is refused, as the SQLite store does (docs/scale-out.md, "Schema versions").
 * `onApplied` hears of each version once it has committed (`serve` logs it).
 *
 * @example
 * const { from, to } = await migratePostgres(pool); // { from: 0, to: 1 } on an empty database
 */
export const migratePostgres = async (
  pool: Pool,
  target = POSTGRES_MIGRATIONS.length,
  { onApplied }: { onApplied?: (version: number) => void } = {},
): Promise<MigrationResult> => {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // Up to date: nothing to lock or create. A read-only connection (a standby, a read-only role)
    // then opens, and checkWritable() says why it cannot write, instead of CREATE failing here.
    const seen = await appliedVersion(client);
    if (seen >= target) return { from: refuseNewer(seen), to: seen };
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await client.query('CREATE TABLE IF NOT EXISTS sitebeacon_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())');
      const applied = refuseNewer(await appliedVersion(client));
      for (let version = applied; version < target; version++) {
        await client.query('BEGIN');
        try {
          await client.query(POSTGRES_MIGRATIONS[version]!);
          await client.query('INSERT INTO sitebeacon_schema (version) VALUES ($1)', [version + 1]);
          await client.query('COMMIT');
          onApplied?.(version + 1);
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
      return { from: applied, to: Math.max(applied, target) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } catch (error) {
    broken = error as Error;
    throw error;
  } finally {
    // A connection whose state is unknown (an error mid-way) is closed, not returned to the pool.
    client.release(broken);
  }
};
