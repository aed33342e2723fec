import { describe, expect } from 'vitest';
import { hashApiKey, newApiKey } from '../../core/keys';
import { DEFAULT_SITE_KEY } from '../../core/records';
import type { StoreTest } from './storeTest';

/**
 * Sites and API keys (store/contract/sites.ts), part of the store contract (store.contract.ts), run
 * by describeStoreContract with its fresh store for each test.
 *
 * @example
 * describeSitesContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeSitesContract = (test: StoreTest) =>
  describe('sites and keys', () => {

    test('a new database has the default site, which the unkeyed endpoints store under', async ({ store }) => {
      expect(await store.sites.get(DEFAULT_SITE_KEY)).toMatchObject({ site_key: DEFAULT_SITE_KEY, allowed_origins: [] });
    });

    test('create, get, list and put a site; create refuses a key that exists', async ({ store }) => {
      const created = await store.sites.create({ site_key: 'a1', name: 'Shop', allowed_origins: ['https://shop.example'] });
      expect(created).toMatchObject({ site_key: 'a1', name: 'Shop', allowed_origins: ['https://shop.example'] });
      expect(Date.parse(created.created_at)).not.toBeNaN();
      await expect(store.sites.create({ site_key: 'a1', name: 'Again', allowed_origins: [] })).rejects.toThrow();
      await store.sites.put({ site_key: 'a1', name: 'Shop 2', allowed_origins: ['https://shop.example', 'https://www.shop.example'] });
      expect(await store.sites.get('a1')).toMatchObject({ name: 'Shop 2', allowed_origins: ['https://shop.example', 'https://www.shop.example'] });
      await store.sites.put({ site_key: 'b2', name: 'Blog', allowed_origins: [] });
      expect((await store.sites.list()).map((site) => site.site_key)).toEqual(expect.arrayContaining(['a1', 'b2', DEFAULT_SITE_KEY]));
      expect(await store.sites.get('nope')).toBeUndefined();
    });

    test('a site or key one process creates is found by another at once (the adapters cache nothing)', async ({ store, reopen }) => {
      const other = await reopen();
      expect(await other.sites.get('c3')).toBeUndefined();
      await store.sites.create({ site_key: 'c3', name: 'Shop', allowed_origins: [] });
      expect(await other.sites.get('c3')).toMatchObject({ name: 'Shop' });
      await store.apiKeys.create({ key_hash: hashApiKey('k'), name: 'ci', site_key: 'c3' });
      expect(await other.apiKeys.findByHash(hashApiKey('k'))).toMatchObject({ site_key: 'c3' });
    });

    test('an API key is found by its hash only, with its site or none', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const key = newApiKey();
      await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'ci', site_key: shop });
      await store.apiKeys.create({ key_hash: hashApiKey('installation'), name: 'all', site_key: undefined });
      expect(await store.apiKeys.findByHash(hashApiKey(key))).toMatchObject({ name: 'ci', site_key: shop });
      expect((await store.apiKeys.findByHash(hashApiKey('installation')))?.site_key).toBeUndefined();
      expect(await store.apiKeys.findByHash(hashApiKey('other'))).toBeUndefined();
    });
  });
