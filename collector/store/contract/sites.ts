import type { ApiKey, Site } from '../../core/records';

export interface SiteStore {
  get(siteKey: string): Promise<Site | undefined>;
  /** Every site, by key. */
  list(): Promise<Site[]>;
  /** Creates a site; the key comes from core/keys.ts. Fails if the key exists. */
  create(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
  /** Creates the site, or replaces its name and origins if the key exists. */
  put(site: Pick<Site, 'site_key' | 'name' | 'allowed_origins'>): Promise<Site>;
  /**
   * Gives the site a new public key (`site rotate-key`): everything stored under the old key
   * (reports, sessions, API keys, install, actions, projects, agents) moves to the new one, at once,
   * dashboard users limited to the site see it under its new key, and the old key finds nothing
   * from then on. Undefined when no site has `siteKey`; fails if
   * `newSiteKey` exists.
   */
  rotateKey(siteKey: string, newSiteKey: string): Promise<Site | undefined>;
}

export interface ApiKeyStore {
  create(key: Pick<ApiKey, 'key_hash' | 'name' | 'site_key'>): Promise<ApiKey>;
  findByHash(keyHash: string): Promise<ApiKey | undefined>;
  /** Removes the key (`key revoke`): it is found no more. False when no key has this hash. */
  revoke(keyHash: string): Promise<boolean>;
}
