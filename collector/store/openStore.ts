import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './contract';
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
 * Opens the store a URL or path names: a path, `file:` URL or `:memory:` is an SQLite file;
 * `postgres://` comes with PostgreSQL support (../shared/design.md, "Scale-out"). A server store's
 * sites are cached for a few seconds (siteCache.ts); SQLite's are not: a site is read by its
 * primary key in microseconds, and uncached a `site rotate-key` run beside `serve` takes effect on
 * the very next request (issue 11, class 7).
 *
 * @example
 * const store = await openStore('./data/sitebeacon.db');
 */
export const openStore = async (location: string, options: StoreOptions = {}): Promise<Store> => {
  const store = openAdapter(location, options);
  return isServerStore(location) ? { ...store, sites: withSiteCache(store.sites) } : store;
};

const isServerStore = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

const openAdapter = (location: string, { sync }: StoreOptions): Store => {
  if (isServerStore(location)) {
    throw new Error('this collector does not support PostgreSQL yet: use an SQLite file (--db FILE)');
  }
  if (location == ':memory:') return createSqliteStore({ file: location, sync });
  const file = location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
  return createSqliteStore({ file, sync });
};
