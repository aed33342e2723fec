import { describe, expect } from 'vitest';
import { hashApiKey } from '../../core/keys';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

/**
 * Revocation that takes effect on the next request, key rotation, and a store that says whether it
 * can write, part of the store contract (store.contract.ts), run by describeStoreContract with its
 * fresh store for each test.
 *
 * @example
 * describeRevocationContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeRevocationContract = (test: StoreTest) =>
  describe('revocation, rotation, writability', () => {

    test('a revoked API key is found no more; other keys stay', async ({ store, reopen }) => {
      await store.apiKeys.create({ key_hash: hashApiKey('one'), name: 'one', site_key: undefined });
      await store.apiKeys.create({ key_hash: hashApiKey('two'), name: 'two', site_key: undefined });
      expect(await store.apiKeys.revoke(hashApiKey('one'))).toBe(true);
      expect(await store.apiKeys.findByHash(hashApiKey('one'))).toBeUndefined();
      expect(await store.apiKeys.revoke(hashApiKey('one'))).toBe(false);
      expect(await (await reopen()).apiKeys.findByHash(hashApiKey('two'))).toMatchObject({ name: 'two' });
    });

    test("rotating a site's key moves everything stored under it, and only it, to the new key", async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example'], 'Shop');
      const blog = await seed.addSite(['https://blog.example'], 'Blog');
      for (const site of [shop, blog]) {
        await seed.insertErrors(site, [{ error_type: 'js', error_message: site }]);
        await seed.insertCsp(site, [violation('img-src', 'https://cdn.example/a.png')]);
        await seed.upsertSession(site, { session_id: 's', metrics: { LCP: { value: 1000 } } });
        await store.apiKeys.create({ key_hash: hashApiKey(`key-${site}`), name: site, site_key: site });
        await store.wordpress.put({ site_key: site, site_url: `https://${site}.example`, name: site });
        await store.actions.add(site, { type: 'ping' });
        await store.cspProjects.create({ site_key: site, name: site, mode: 'report-only', base_policy: "default-src 'self'" });
        await store.agents.add({ id: `agt_${site}`, token_hash: hashApiKey(site), hostname: 'h', os: 'linux', arch: 'amd64', agent_version: '1', site_key: site });
      }
      const limited = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: [blog, shop] });
      const every = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
      const rotated = await store.sites.rotateKey(shop, 'newshopkey');
      expect(rotated).toMatchObject({ site_key: 'newshopkey', name: 'Shop', allowed_origins: ['https://shop.example'] });
      for (const view of [store, await reopen()]) {
        expect(await view.sites.get(shop)).toBeUndefined();
        expect((await view.errors.list('newshopkey')).data.map((report) => report.error_message)).toEqual([shop]);
        expect((await view.errors.groups('newshopkey')).length).toBe(1);
        expect((await view.csp.list('newshopkey')).data).toHaveLength(1);
        expect((await view.csp.groups('newshopkey')).length).toBe(1);
        expect((await view.performance.list('newshopkey')).data).toHaveLength(1);
        expect((await view.performance.metricCounts('newshopkey', { name: 'LCP', thresholds: [2500, 4000] })).samples).toBe(1);
        expect((await view.apiKeys.findByHash(hashApiKey(`key-${shop}`)))?.site_key).toBe('newshopkey');
        expect(await view.wordpress.get('newshopkey')).toMatchObject({ site_url: `https://${shop}.example` });
        expect(await view.actions.pending('newshopkey')).toHaveLength(1);
        expect(await view.cspProjects.list('newshopkey')).toHaveLength(1);
        expect((await view.agents.get(`agt_${shop}`))?.site_key).toBe('newshopkey');
        for (const kind of ['errors', 'csp', 'performance'] as const) expect((await view[kind].list(shop)).data).toEqual([]);
        expect(await view.wordpress.get(shop)).toBeUndefined();
        // The other site is untouched.
        expect((await view.errors.list(blog)).data).toHaveLength(1);
        expect((await view.apiKeys.findByHash(hashApiKey(`key-${blog}`)))?.site_key).toBe(blog);
        expect((await view.agents.get(`agt_${blog}`))?.site_key).toBe(blog);
        expect(await view.users.findByEmail(limited.email)).toEqual({ ...limited, site_keys: [blog, 'newshopkey'] });
        expect(await view.users.findByEmail(every.email)).toEqual(every);
      }
      expect(await store.sites.rotateKey('nope', 'other')).toBeUndefined();
      await expect(store.sites.rotateKey('newshopkey', blog)).rejects.toThrow();
      expect(await store.sites.get('newshopkey')).toMatchObject({ name: 'Shop' });
    });

    test("revoking a site's WordPress install removes it and its pending actions; a server agent, by id", async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example']);
      await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop' });
      const done = await store.actions.add(shop, { type: 'ping' });
      await store.actions.complete(done.id, { status: 'succeeded' });
      await store.actions.add(shop, { type: 'flush_cache' });
      expect(await store.wordpress.revoke(shop)).toBe(true);
      expect(await store.wordpress.get(shop)).toBeUndefined();
      expect(await store.wordpress.findByUrl('https://shop.example')).toBeUndefined();
      expect(await store.actions.pending(shop)).toEqual([]);
      expect(await store.actions.get(done.id)).toMatchObject({ status: 'succeeded' });
      expect(await store.wordpress.revoke(shop)).toBe(false);

      await store.agents.add({ id: 'agt_1', token_hash: hashApiKey('t1'), hostname: 'a', os: 'linux', arch: 'amd64', agent_version: '1' });
      await store.agents.add({ id: 'agt_2', token_hash: hashApiKey('t2'), hostname: 'b', os: 'linux', arch: 'amd64', agent_version: '1' });
      expect(await store.agents.revoke('agt_1')).toBe(true);
      expect(await store.agents.revoke('agt_1')).toBe(false);
      const next = await reopen();
      expect(await next.agents.get('agt_1')).toBeUndefined();
      expect(await next.agents.get('agt_2')).toMatchObject({ hostname: 'b' });
    });

    test('a store that can write says so, and the probe changes nothing', async ({ store }) => {
      await expect(store.checkWritable()).resolves.toBeUndefined();
      const sites = await store.sites.list();
      await expect(store.checkWritable()).resolves.toBeUndefined();
      expect(await store.sites.list()).toEqual(sites);
    });
  });
