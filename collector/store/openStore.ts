import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Store } from './contract';
import { withSiteCache } from './siteCache';
import { createSqliteStore } from './sqlite';

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
export const openStore = async (location: string): Promise<Store> => {
  const store = openAdapter(location);
  return isServerStore(location) ? { ...store, sites: withSiteCache(store.sites) } : store;
};

const isServerStore = (location: string) => /^postgres(?:ql)?:\/\//i.test(location);

const openAdapter = (location: string): Store => {
  if (isServerStore(location)) {
    throw new Error('this collector does not support PostgreSQL yet: use an SQLite file (--db FILE)');
  }
  if (location == ':memory:') return createSqliteStore({ file: location });
  const file = location.startsWith('file:') ? fileURLToPath(location) : resolve(location);
  return createSqliteStore({ file });
};
