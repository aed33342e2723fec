import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './contract';
import { createPostgresStore } from './postgres';
import { requireCurrentSchema } from './schemaVersion';
import { withSiteCache } from './siteCache';
import { createSqliteStore } from './sqlite';
import type { Sync } from './sqlite/openConnection';

/** How a store is opened. */
export interface StoreOptions {
  /**
   * SQLite: `full` fsyncs every (group) commit, so a power loss or an OS crash loses no
   * acknowledged report; `normal` (the default) loses none when the process dies
   * (store/sqlite/openConnection.ts; `serve --sync`).
   */
  sync?: Sync | undefined;
  /**
   * `false`: a read-only command's open; a database whose schema is not this collector's is
   * refused, never migrated (schemaVersion.ts). Default true: the schema is brought up to date.
   */
  migrate?: boolean | undefined;
  /** Hears of each schema version applied on open, once committed (`serve` logs each). */
  onMigration?: ((version: number) => void) | undefined;
}

/**
 * Opens the store a URL or path names: a `postgres://` or `postgresql://` URL is a PostgreSQL
 * database (docs/scale-out.md); a path, `file:` URL or `:memory:` is an SQLite file.
 * Either is migrated on open. A server store's sites are cached for a few seconds (siteCache.ts:
 * another process's change shows within 5 s, docs/scale-out.md); SQLite's are not: a site is
 * read by its primary key in microseconds, and uncached a `site rotate-key` run beside `serve`
 * takes effect on the very next request (docs/hostile-input.md, "Revocation").
 *
 * @example
 * const store = await openStore('./data/sitebeacon.db');
 * const shared = await openStore('postgres://sitebeacon@db.internal/sitebeacon');
 */
export const openStore = async (location: string, options: StoreOptions = {}): Promise<Store> => {
  if (options.migrate === false) await requireCurrentSchema(sqliteFileOf(location), { printable: location, isPostgres: isPostgresUrl(location) });
  const store = await openAdapter(location, options);
  return isPostgresUrl(location) ? withSiteCache(store) : store;
};

/** Whether a location names a PostgreSQL database rather than an SQLite file. */
export const isPostgresUrl = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

/** The SQLite file a path, `file:` URL or `:memory:` names (a PostgreSQL URL as it is). */
const sqliteFileOf = (location: string) =>
  isPostgresUrl(location) || location == ':memory:' ? location : location.startsWith('file:') ? fileURLToPath(location) : resolve(location);

const openAdapter = async (location: string, { sync, onMigration }: StoreOptions): Promise<Store> => {
  if (isPostgresUrl(location)) return createPostgresStore({ url: location, onMigration });
  return createSqliteStore({ file: sqliteFileOf(location), sync, onMigration });
};
