import type { Site } from '../core/records';
import type { SiteStore } from './contract';

/**
 * Every browser request looks its site up: found sites are kept for `ttlMs`. Changes made through
 * this store clear the entry at once; changes made by another process (the CLI, another collector)
 * show within `ttlMs` (../shared/design.md, "Scale-out": within 5 seconds). Unknown keys are not
 * cached, so a site added elsewhere works at once. At most `maxEntries` are kept.
 *
 * @example
 * const sites = withSiteCache(store.sites); // what openStore() hands out
 */
export const withSiteCache = (
  sites: SiteStore,
  { ttlMs = 5000, maxEntries = 10_000, now = () => performance.now() }: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
): SiteStore => {
  const cache = new Map<string, { site: Site; until: number }>();
  return {
    ...sites,
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
  };
};
