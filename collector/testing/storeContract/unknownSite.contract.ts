import { describe, expect } from 'vitest';
import { hashApiKey } from '../../core/keys';
import { DEFAULT_SITE_KEY, type CspReport } from '../../core/records';
import { UnknownSiteError } from '../../store/unknownSiteError';
import type { StoreTest } from './storeTest';

const violation = (source?: CspReport['source'], blocked = 'https://cdn.example/a.png'): CspReport => ({
  report_type: 'csp-violation',
  document_uri: 'https://shop.example/',
  effective_directive: 'img-src',
  violated_directive: 'img-src',
  blocked_uri: blocked,
  ...(source ? { source } : {}),
});

/**
 * Writes under a site key no site has (any longer), part of the store contract
 * (store.contract.ts; store/contract.ts, "UnknownSiteError"): another process rotated the key after this
 * one looked it up. Each such write (a report, or a management write: a WordPress install, an
 * action, a CSP project, an agent, an API key for a site) rejects with UnknownSiteError and stores
 * nothing; the other writes committed with it in one group are stored, once.
 *
 * @example
 * describeUnknownSiteContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeUnknownSiteContract = (test: StoreTest) =>
  describe('writes under an unknown site key', () => {
    const rejectsAsUnknown = async (write: Promise<unknown>, siteKey: string) => {
      const error = await write.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(UnknownSiteError);
      expect(error).toMatchObject({ siteKey });
    };

    test('after another process rotated the key, every report write under the old one rejects with UnknownSiteError and stores nothing', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example']);
      await seed.insertErrors(shop, [{ error_type: 'js', error_message: 'before' }]);
      await seed.upsertSession(shop, { session_id: 's1', metrics: { LCP: { value: 1000 } } });
      // The other process (the CLI's `site rotate-key`, another collector).
      expect(await (await reopen()).sites.rotateKey(shop, 'rotatedshop')).toMatchObject({ site_key: 'rotatedshop' });

      await rejectsAsUnknown(seed.insertErrors(shop, [{ error_type: 'js', error_message: 'after' }]), shop);
      await rejectsAsUnknown(seed.insertCsp(shop, [violation()]), shop);
      // A report that may be a copy of a stored violation takes the one-by-one path (README, "CSP reports").
      await rejectsAsUnknown(seed.insertCsp(shop, [violation('beacon')]), shop);
      // s1 moved with the site: under the old key it is a new session, which has no site.
      await rejectsAsUnknown(seed.upsertSession(shop, { session_id: 's1', metrics: { CLS: { value: 0.5 } } }), shop);
      await rejectsAsUnknown(seed.upsertSession(shop, { session_id: 's2', metrics: { LCP: { value: 2000 } } }), shop);

      for (const view of [store, await reopen()]) {
        for (const kind of ['errors', 'csp', 'performance'] as const) expect((await view[kind].list(shop)).data).toEqual([]);
        expect((await view.errors.list('rotatedshop')).data.map((report) => report.error_message)).toEqual(['before']);
        expect((await view.csp.list('rotatedshop')).data).toEqual([]);
        expect((await view.performance.list('rotatedshop')).data).toMatchObject([{ session_id: 's1', metrics: { LCP: { value: 1000 } } }]);
        expect((await view.performance.list('rotatedshop')).data[0]!.metrics).not.toHaveProperty('CLS');
        expect((await view.errors.groups('rotatedshop')).map((group) => group.reports)).toEqual([1]);
        expect(await view.csp.groups('rotatedshop')).toEqual([]);
      }
      expect(await store.sites.get(shop)).toBeUndefined();
    });

    test('a key that was never a site\'s rejects the same way, and the writes sent with it (one group commit) are stored once', async ({ store, seed, reopen }) => {
      const blog = await seed.addSite(['https://blog.example']);
      const shop = await seed.addSite(['https://shop.example']);
      await (await reopen()).sites.rotateKey(shop, 'rotatedshop');
      // Issued in one turn of the event loop: the adapters commit them together.
      const writes = [
        seed.insertErrors(blog, [{ error_type: 'js', error_message: 'one' }]),
        seed.insertErrors('nosuchsite', [{ error_type: 'js', error_message: 'lost' }]),
        seed.upsertSession(blog, { session_id: 's1', metrics: { LCP: { value: 1200 } } }),
        seed.insertCsp(shop, [violation()]),
        seed.insertCsp(blog, [violation()]),
        seed.insertCsp(blog, [violation('report-uri', 'https://cdn.example/b.png')]),
        seed.upsertSession('nosuchsite', { session_id: 's1', metrics: { LCP: { value: 9 } } }),
        seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'two' }, { error_type: 'js', error_message: 'three' }]),
      ];
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      await rejectsAsUnknown(writes[1]!, 'nosuchsite');
      await rejectsAsUnknown(writes[3]!, shop);
      await rejectsAsUnknown(writes[6]!, 'nosuchsite');
      expect((await seed.stored('errors', blog)).map((report) => report.error_message)).toEqual(['one']);
      expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((report) => report.error_message)).toEqual(['two', 'three']);
      expect(await seed.stored('performance', blog)).toMatchObject([{ session_id: 's1', metrics: { LCP: { value: 1200 } } }]);
      expect((await seed.stored('csp', blog)).map((report) => [report.blocked_uri, report.sources])).toEqual([
        ['https://cdn.example/a.png', undefined],
        ['https://cdn.example/b.png', ['report-uri']],
      ]);
      expect(await store.csp.groups(blog, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 2 }]);
      for (const kind of ['errors', 'csp', 'performance'] as const) {
        expect(await seed.stored(kind, 'nosuchsite')).toEqual([]);
        expect(await seed.stored(kind, 'rotatedshop')).toEqual([]);
      }
    });

    const agent = (id: string, siteKey?: string) => ({
      id,
      token_hash: hashApiKey(id),
      hostname: 'web1',
      os: 'linux',
      arch: 'amd64',
      agent_version: '1.0.0',
      ...(siteKey === undefined ? {} : { site_key: siteKey }),
    });
    const project = (siteKey: string) => ({ site_key: siteKey, name: 'Main', mode: 'report-only' as const, base_policy: "default-src 'self'" });

    test('after another process rotated the key, every management write under the old one rejects with UnknownSiteError and stores nothing', async ({ store, reopen }) => {
      const shop = await store.sites.create({ site_key: 'shopkey', name: 'Shop', allowed_origins: ['https://shop.example'] });
      await store.wordpress.put({ site_key: shop.site_key, site_url: 'https://shop.example', name: 'Shop' });
      await (await reopen()).sites.rotateKey(shop.site_key, 'rotatedshop');

      // The plugin registering again: the install moved to the new key, so its URL is taken (a
      // UNIQUE column checked before the foreign key) ...
      await rejectsAsUnknown(store.wordpress.put({ site_key: 'shopkey', site_url: 'https://shop.example', name: 'Shop again' }), 'shopkey');
      // ... and a URL of its own fails only the foreign key.
      await rejectsAsUnknown(store.wordpress.put({ site_key: 'shopkey', site_url: 'https://other.example', name: 'Other' }), 'shopkey');
      await rejectsAsUnknown(store.actions.add('shopkey', { type: 'clear_cache' }), 'shopkey');
      await rejectsAsUnknown(store.cspProjects.create(project('shopkey')), 'shopkey');
      await rejectsAsUnknown(store.agents.add(agent('agt_old', 'shopkey')), 'shopkey');
      await rejectsAsUnknown(store.apiKeys.create({ key_hash: hashApiKey('old'), name: 'old', site_key: 'shopkey' }), 'shopkey');

      for (const view of [store, await reopen()]) {
        expect(await view.wordpress.get('shopkey')).toBeUndefined();
        expect(await view.wordpress.findByUrl('https://other.example')).toBeUndefined();
        expect(await view.wordpress.findByUrl('https://shop.example')).toMatchObject({ site_key: 'rotatedshop', name: 'Shop' });
        expect(await view.actions.pending('shopkey')).toEqual([]);
        expect(await view.actions.pending('rotatedshop')).toEqual([]);
        expect(await view.cspProjects.list()).toEqual([]);
        expect(await view.agents.get('agt_old')).toBeUndefined();
        expect(await view.apiKeys.findByHash(hashApiKey('old'))).toBeUndefined();
      }
      // Under the new key every one of them works.
      expect(await store.wordpress.put({ site_key: 'rotatedshop', site_url: 'https://shop.example', name: 'Shop again' })).toMatchObject({ name: 'Shop again' });
      expect(await store.actions.add('rotatedshop', { type: 'clear_cache' })).toMatchObject({ site_key: 'rotatedshop', status: 'pending' });
      expect(await store.cspProjects.create(project('rotatedshop'))).toMatchObject({ site_key: 'rotatedshop' });
      expect(await store.agents.add(agent('agt_new', 'rotatedshop'))).toMatchObject({ site_key: 'rotatedshop' });
      expect(await store.apiKeys.create({ key_hash: hashApiKey('new'), name: 'new', site_key: 'rotatedshop' })).toMatchObject({ site_key: 'rotatedshop' });
    });

    test('management writes under a key that was never a site\'s reject alone: the writes sent with them (one group commit), and those of no site, are stored once', async ({ store, seed }) => {
      const blog = await seed.addSite(['https://blog.example']);
      // Issued in one turn of the event loop: the adapters commit them together.
      const writes = [
        store.actions.add(blog, { type: 'clear_cache' }),
        store.actions.add('nosuchsite', { type: 'clear_cache' }),
        seed.insertErrors(blog, [{ error_type: 'js', error_message: 'one' }]),
        store.cspProjects.create(project('nosuchsite')),
        store.cspProjects.create(project(blog)),
        store.agents.add(agent('agt_lost', 'nosuchsite')),
        store.agents.add(agent('agt_installation')),
        store.wordpress.put({ site_key: 'nosuchsite', site_url: 'https://lost.example', name: 'Lost' }),
        store.wordpress.put({ site_key: blog, site_url: 'https://blog.example', name: 'Blog' }),
        store.apiKeys.create({ key_hash: hashApiKey('lost'), name: 'lost', site_key: 'nosuchsite' }),
        store.apiKeys.create({ key_hash: hashApiKey('installation'), name: 'installation' }),
      ];
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.map((outcome) => outcome.status)).toEqual([
        'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled',
      ]);
      for (const index of [1, 3, 5, 7, 9]) await rejectsAsUnknown(writes[index]!, 'nosuchsite');
      expect(await store.actions.pending(blog)).toMatchObject([{ type: 'clear_cache' }]);
      expect(await store.actions.pending('nosuchsite')).toEqual([]);
      expect((await seed.stored('errors', blog)).map((report) => report.error_message)).toEqual(['one']);
      expect(await store.cspProjects.list()).toMatchObject([{ site_key: blog }]);
      expect(await store.agents.get('agt_lost')).toBeUndefined();
      expect(await store.agents.get('agt_installation')).toMatchObject({ hostname: 'web1' });
      expect(await store.agents.get('agt_installation')).not.toHaveProperty('site_key');
      expect(await store.wordpress.get('nosuchsite')).toBeUndefined();
      expect(await store.wordpress.findByUrl('https://lost.example')).toBeUndefined();
      expect(await store.wordpress.get(blog)).toMatchObject({ site_url: 'https://blog.example' });
      expect(await store.apiKeys.findByHash(hashApiKey('lost'))).toBeUndefined();
      expect(await store.apiKeys.findByHash(hashApiKey('installation'))).toMatchObject({ name: 'installation' });
    });
  });
