import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './contract';
import { createPostgresStore } from './postgres';
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
}

/**
 * Opens the store a URL or path names: a `postgres://` or `postgresql://` URL is a PostgreSQL
 * database (../shared/design.md, "Scale-out"); a path, `file:` URL or `:memory:` is an SQLite file.
 * Either is migrated on open. A server store's sites are cached for a few seconds (siteCache.ts:
 * another process's change shows within 5 s, as the design allows); SQLite's are not: a site is
 * read by its primary key in microseconds, and uncached a `site rotate-key` run beside `serve`
 * takes effect on the very next request (issue 11, class 7).
 *
 * @example
 * const store = await openStore('./data/sitebeacon.db');
 * const shared = await openStore('postgres://sitebeacon@db.internal/sitebeacon');
 */
export const openStore = async (location: string, options: StoreOptions = {}): Promise<Store> => {
  const store = await openAdapter(location, options);
  return isPostgresUrl(location) ? withSiteCache(store) : store;
};

/** Whether a location names a PostgreSQL database rather than an SQLite file. */
export const isPostgresUrl = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

const openAdapter = async (location: string, { sync }: StoreOptions): Promise<Store> => {
  if (isPostgresUrl(location)) return createPostgresStore({ url: location });
  if (location == ':memory:') return createSqliteStore({ file: location, sync });
  const file = location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
  return createSqliteStore({ file, sync });
};
