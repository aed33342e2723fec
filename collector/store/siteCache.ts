import type { Site } from '../core/records';
import type { Store } from './contract';
import { UnknownSiteError } from './unknownSiteError';

/**
 * Every browser request looks its site up: found sites are kept for `ttlMs`. Changes made through
 * this store clear the entry at once; changes made by another process (the CLI, another collector)
 * show within `ttlMs` (docs/scale-out.md: within 5 seconds). Unknown keys are not
 * cached, so a site added elsewhere works at once. At most `maxEntries` are kept.
 *
 * A write under a cached key that another process has rotated meanwhile (a report, a WordPress
 * install, an action, a CSP project, an agent, an API key: any call of any part of the store)
 * rejects with UnknownSiteError (contract.ts): the entry is dropped at once, so the next request
 * under that key looks it up, finds nothing and is answered 404 before it reaches the write path.
 *
 * @example
 * const cached = withSiteCache(store); // what openStore() hands out for PostgreSQL
 */
export const withSiteCache = (
  store: Store,
  { ttlMs = 5000, maxEntries = 10_000, now = () => performance.now() }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): Store => {
  const { sites } = store;
  const cache = new Map<string, { site: Site; until: number }>();
  const forgetUnknown = (error: unknown): never => {
    if (error instanceof UnknownSiteError) cache.delete(error.siteKey);
    throw error;
  };
  // Every method of every part of the store (store.errors, store.agents, ...), not a list of the
  // writes: a write added later forgets its key too.
  const forgetting = (part: object) =>
    Object.fromEntries(
      Object.entries(part).map(([name, method]: [string, unknown]) => {
        if (typeof method != 'function') return [name, method];
        return [name, (...args: unknown[]) => {
          const result: unknown = method.apply(part, args);
          return result instanceof Promise ? result.catch(forgetUnknown) : result;
        }];
      }),
    );
  const parts = Object.fromEntries(
    Object.entries(store).map(([name, part]: [string, unknown]) => [name, typeof part == 'object' && part !== null ? forgetting(part) : part]),
  ) as unknown as Store;
  return {
    ...parts,
    sites: {
      ...parts.sites,
      async get(siteKey) {
        const cached = cache.get(siteKey);
        if (cached && cached.until > now()) return cached.site;
        const site = await sites.get(siteKey);
        if (!site) return undefined;
        if (cache.size >= maxEntries) cache.clear();
        cache.set(siteKey, { site, until: now() + ttlMs });
        return site;
      },
      async create(site) {
        cache.delete(site.site_key);
        return sites.create(site);
      },
      async put(site) {
        cache.delete(site.site_key);
        return sites.put(site);
      },
      async rotateKey(siteKey, newSiteKey) {
        cache.delete(siteKey);
        cache.delete(newSiteKey);
        return sites.rotateKey(siteKey, newSiteKey);
      },
    },
  };
};
