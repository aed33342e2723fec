import { describe, expect } from 'vitest';
import { unpackMapTextSync } from '../../store/sourceMapText';
import { UnknownSiteError } from '../../store/unknownSiteError';
import type { StoreTest } from './storeTest';

const DAY = 86_400_000;
const ID = '0ae942fd-a409-4fc6-a82c-91eb9fcbbf72';
const mapText = (marker: string) => JSON.stringify({ version: 3, sources: [`src/${marker}.js`], names: [], mappings: 'AAAA', sourcesContent: ['é ✓ 𝄞'] });

/**
 * The source maps part of the store contract (store/contract/sourceMaps.ts), run by
 * describeStoreContract (store.contract.ts) with its fresh store for each test.
 *
 * @example
 * describeSourceMapsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeSourceMapsContract = (test: StoreTest) =>
  describe('source maps', () => {
    test('put stores a map by site, release and URL, text as given; a second put replaces it; another site sees none', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const blog = await seed.addSite(['https://blog.example']);
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/app.min.js', debug_id: null, text: mapText('old') }, Date.UTC(2026, 0, 1));
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/app.min.js', debug_id: ID, text: mapText('new') }, Date.UTC(2026, 0, 2));
      await store.sourceMaps.put(shop, { release: '1.1', url: '~/app.min.js', debug_id: null, text: mapText('next') });
      const again = await reopen();
      expect(await again.sourceMaps.text(shop, '1.0', '~/app.min.js')).toBe(mapText('new'));
      expect(await again.sourceMaps.text(shop, '1.1', '~/app.min.js')).toBe(mapText('next'));
      expect(await again.sourceMaps.text(shop, '1.0', 'https://shop.example/app.min.js')).toBeUndefined();
      expect(await again.sourceMaps.text(blog, '1.0', '~/app.min.js')).toBeUndefined();
      // The same, compressed: what the source map thread decompresses.
      expect(unpackMapTextSync((await again.sourceMaps.packed(shop, '1.1', '~/app.min.js'))!)).toBe(mapText('next'));
      expect(await again.sourceMaps.packed(blog, '1.0', '~/app.min.js')).toBeUndefined();
      expect(await again.sourceMaps.list(shop, '1.0')).toEqual([
        { release: '1.0', url: '~/app.min.js', debug_id: ID, size: mapText('new').length, uploaded_at: '2026-01-02T00:00:00.000Z' },
      ]);
      expect(await again.sourceMaps.list(blog, '1.0')).toEqual([]);
    });

    test('by debug ID: the latest uploaded map with it, only the site\'s own', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const blog = await seed.addSite(['https://blog.example']);
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/a.js', debug_id: ID, text: mapText('first') }, 1000);
      await store.sourceMaps.put(shop, { release: '1.1', url: '~/a.js', debug_id: ID, text: mapText('second') }, 2000);
      expect(await store.sourceMaps.textByDebugId(shop, ID)).toBe(mapText('second'));
      expect(unpackMapTextSync((await store.sourceMaps.packedByDebugId(shop, ID))!)).toBe(mapText('second'));
      expect(await store.sourceMaps.packedByDebugId(blog, ID)).toBeUndefined();
      expect(await store.sourceMaps.textByDebugId(blog, ID)).toBeUndefined();
      expect(await store.sourceMaps.textByDebugId(shop, '00000000-0000-0000-0000-000000000000')).toBeUndefined();
    });

    test('the debug IDs stored for a URL, whatever the release: at most two, a map without one as null', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const blog = await seed.addSite(['https://blog.example']);
      const OTHER = '9f0c3a52-1b7e-4f8e-a0d1-2c3b4d5e6f70';
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/app.3f2a.js', debug_id: ID, text: mapText('a') });
      await store.sourceMaps.put(shop, { release: '1.1', url: '~/app.3f2a.js', debug_id: ID, text: mapText('a') });
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/app.min.js', debug_id: ID, text: mapText('b') });
      await store.sourceMaps.put(shop, { release: '1.1', url: '~/app.min.js', debug_id: OTHER, text: mapText('c') });
      await store.sourceMaps.put(shop, { release: '1.2', url: '~/app.min.js', debug_id: null, text: mapText('d') });
      await store.sourceMaps.put(shop, { release: '1.0', url: '~/plain.js', debug_id: null, text: mapText('e') });
      expect(await store.sourceMaps.debugIds(shop, '~/app.3f2a.js')).toEqual([ID]);
      expect(await store.sourceMaps.debugIds(shop, '~/app.min.js')).toHaveLength(2);
      expect(await store.sourceMaps.debugIds(shop, '~/plain.js')).toEqual([null]);
      expect(await store.sourceMaps.debugIds(shop, '~/none.js')).toEqual([]);
      expect(await store.sourceMaps.debugIds(blog, '~/app.3f2a.js')).toEqual([]);
    });

    test('list by URL; delete one URL, then the whole release; counts what went', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      for (const url of ['~/b.js', '~/a.js', 'https://cdn.shop.example/c.js']) {
        await store.sourceMaps.put(shop, { release: '2.0', url, debug_id: null, text: mapText(url.length.toString()) });
      }
      await store.sourceMaps.put(shop, { release: '2.1', url: '~/a.js', debug_id: null, text: mapText('keep') });
      expect((await store.sourceMaps.list(shop, '2.0')).map((map) => map.url)).toEqual(['https://cdn.shop.example/c.js', '~/a.js', '~/b.js']);
      expect(await store.sourceMaps.delete(shop, '2.0', '~/a.js')).toBe(1);
      expect(await store.sourceMaps.delete(shop, '2.0', '~/a.js')).toBe(0);
      expect((await store.sourceMaps.list(shop, '2.0')).map((map) => map.url)).toEqual(['https://cdn.shop.example/c.js', '~/b.js']);
      expect(await store.sourceMaps.delete(shop, '2.0')).toBe(2);
      expect(await store.sourceMaps.list(shop, '2.0')).toEqual([]);
      expect(await store.sourceMaps.text(shop, '2.1', '~/a.js')).toBe(mapText('keep'));
    });

    test('a put under a key no site has rejects with UnknownSiteError and stores nothing; a rotated site keeps its maps', async ({ store, seed }) => {
      await expect(store.sourceMaps.put('nosuchsite', { release: '1', url: '~/a.js', debug_id: null, text: mapText('x') })).rejects.toBeInstanceOf(UnknownSiteError);
      expect(await store.sourceMaps.list('nosuchsite', '1')).toEqual([]);
      const shop = await seed.addSite(['https://shop.example']);
      await store.sourceMaps.put(shop, { release: '1', url: '~/a.js', debug_id: null, text: mapText('x') });
      await store.sites.rotateKey(shop, 'rotatedshopkey');
      expect(await store.sourceMaps.text('rotatedshopkey', '1', '~/a.js')).toBe(mapText('x'));
      expect(await store.sourceMaps.text(shop, '1', '~/a.js')).toBeUndefined();
    });

    test('retention removes maps uploaded before the cutoff whose release no report since names; the rest stay', async ({ store, seed }) => {
      const cutoff = Date.UTC(2026, 5, 10);
      const shop = await seed.addSite(['https://shop.example']);
      await seed.insertErrors(shop, [{ error_type: 'javascript_error', error_message: 'old', release: 'gone' }], cutoff - 5 * DAY);
      await seed.insertErrors(shop, [{ error_type: 'javascript_error', error_message: 'new', release: 'live' }], cutoff + DAY);
      const put = (release: string, at: number) => store.sourceMaps.put(shop, { release, url: '~/a.js', debug_id: null, text: mapText(release) }, at);
      await put('gone', cutoff - 9 * DAY);
      await put('live', cutoff - 9 * DAY);
      await put('fresh', cutoff + 1000);
      while ((await store.retention.deleteBefore(cutoff, { limit: 100 })) > 0);
      expect(await store.sourceMaps.list(shop, 'gone')).toEqual([]);
      expect(await store.sourceMaps.list(shop, 'live')).toHaveLength(1);
      expect(await store.sourceMaps.list(shop, 'fresh')).toHaveLength(1);
    });
  });
