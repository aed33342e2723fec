import { describe, expect } from 'vitest';
import { clientOf } from '../../core/clientOf';
import { p75Rank } from '../../core/vitals';
import { UnknownSiteError } from '../../store/unknownSiteError';
import type { StoreTest } from './storeTest';
import { DEVICE_USER_AGENTS } from './vitalsByDevice.contract';

/**
 * Routes (docs/vitals.md, "Routes"): each session stored with its page URL's route, the per-route
 * vitals (`pages`, `metricCountsWithDays` with `route`), and a site's route patterns
 * (store/contract/routePatterns.ts). Part of the store contract (store.contract.ts).
 *
 * @example
 * describeRoutesContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeRoutesContract = (test: StoreTest) =>
  describe('routes', () => {
    const now = Date.UTC(2026, 5, 10, 12);
    const p75 = (list: number[]) => [...list].sort((x, y) => x - y)[p75Rank(list.length)]!;

    test("sessions are stored with their route, grouped by it per page and read by it per metric; a later page URL's route replaces it", async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example'], 'Shop');
      const upsert = (session_id: string, page_url: string | undefined, lcp: number, options: { route?: string; device?: 'mobile' | 'desktop' } = {}) =>
        store.performance.upsert(shop, { session_id, page_url, route: options.route, metrics: { LCP: { value: lcp } } }, {
          received_at: now,
          client: clientOf(DEVICE_USER_AGENTS[options.device ?? 'desktop'].userAgent),
        });
      await upsert('p1', 'https://shop.example/products/2?ref=mail', 1000);
      await upsert('p2', 'https://shop.example/products/1?ref=1#reviews', 3000, { device: 'mobile' });
      await upsert('p3', 'https://shop.example/products/3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b', 5000, { device: 'mobile' });
      // The caller's route (the site's patterns, worked out at ingest) is kept as given.
      await upsert('b1', 'https://shop.example/blog/hello-world', 2000, { route: '/blog/:slug' });
      await upsert('b2', 'https://shop.example/blog/second-post', 2200, { route: '/blog/:slug' });
      await upsert('c1', 'https://shop.example/cart', 900);
      // A session's first submission without a page URL, then one with it.
      await upsert('late', undefined, 100);
      await store.performance.upsert(shop, { session_id: 'late', page_url: 'https://shop.example/cart/', metrics: {} }, { received_at: now });
      // A submission without a page URL keeps the route; one with another page URL replaces it.
      await store.performance.upsert(shop, { session_id: 'c1', metrics: { CLS: { value: 0.3 } } }, { received_at: now });
      await upsert('moved', 'https://shop.example/checkout', 700);
      await store.performance.upsert(shop, { session_id: 'moved', page_url: 'https://shop.example/products/9', metrics: {} }, { received_at: now });

      const stored = Object.fromEntries((await seed.stored('performance', shop)).map((session) => [session.session_id, session.route]));
      expect(stored).toEqual({ p1: '/products/:id', p2: '/products/:id', p3: '/products/:id', b1: '/blog/:slug', b2: '/blog/:slug', c1: '/cart', late: '/cart', moved: '/products/:id' });

      const products = [1000, 3000, 5000, 700];
      expect(await store.performance.pages(shop, { limit: 10 })).toEqual([
        { route: '/products/:id', page_url: 'https://shop.example/products/1?ref=1#reviews', sessions: 4, metrics: { LCP: { samples: 4, p75: p75(products) } } },
        // Ties by the route's bytes.
        { route: '/blog/:slug', page_url: 'https://shop.example/blog/hello-world', sessions: 2, metrics: { LCP: { samples: 2, p75: p75([2000, 2200]) } } },
        { route: '/cart', page_url: 'https://shop.example/cart', sessions: 2, metrics: { LCP: { samples: 2, p75: p75([900, 100]) }, CLS: { samples: 1, p75: 0.3 } } },
      ]);
      expect((await store.performance.pages(shop, { limit: 1, device: 'mobile' })).map(({ route, sessions }) => [route, sessions])).toEqual([['/products/:id', 2]]);

      const thresholds = [2500, 4000] as const;
      expect(await store.performance.metricCountsWithDays(shop, { name: 'LCP', thresholds, route: '/products/:id' })).toEqual({
        samples: 4, good: 2, needs_improvement: 1, poor: 1, p75: p75(products), daily: [{ day: Date.UTC(2026, 5, 10), samples: 4, p75: p75(products) }],
      });
      expect(await store.performance.metricCountsWithDays(shop, { name: 'LCP', thresholds, route: '/products/:id', device: 'mobile' })).toMatchObject({ samples: 2, p75: 5000 });
      expect(await store.performance.metricCountsWithDays(shop, { name: 'LCP', thresholds, route: '/products/:id', device: 'tablet' })).toMatchObject({ samples: 0, p75: null });
      expect(await store.performance.metricCountsWithDays(shop, { name: 'LCP', thresholds, route: '/nowhere' })).toMatchObject({ samples: 0, p75: null, daily: [] });
      expect(await store.performance.metricCountsWithDays(shop, { name: 'LCP', thresholds })).toMatchObject({ samples: 8 });
    });

    test("a site's route patterns: kept in the order added, once each, at most `max`; removed; moved with a rotated key", async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example'], 'Shop');
      const blog = await seed.addSite(['https://blog.example'], 'Blog');
      expect(await store.routes.list(shop)).toEqual([]);
      expect(await store.routes.add(shop, '/blog/:slug', 3)).toBe('added');
      expect(await store.routes.add(shop, '/docs/*', 3)).toBe('added');
      expect(await store.routes.add(shop, '/blog/:slug', 3)).toBe('exists');
      expect(await store.routes.add(shop, '/a/:b', 3)).toBe('added');
      expect(await store.routes.add(shop, '/c', 3)).toBe('full');
      expect(await store.routes.add(blog, '/c', 3)).toBe('added');
      expect(await store.routes.list(shop)).toEqual(['/blog/:slug', '/docs/*', '/a/:b']);
      expect(await store.routes.remove(shop, '/docs/*')).toBe(true);
      expect(await store.routes.remove(shop, '/docs/*')).toBe(false);
      expect(await store.routes.add(shop, '/docs/*', 3)).toBe('added');
      const again = await reopen();
      expect(await again.routes.list(shop)).toEqual(['/blog/:slug', '/a/:b', '/docs/*']);
      expect(await again.routes.list(blog)).toEqual(['/c']);

      await expect(store.routes.add('no-such-site', '/x', 3)).rejects.toBeInstanceOf(UnknownSiteError);
      expect(await store.routes.list('no-such-site')).toEqual([]);
      const rotated = await store.sites.rotateKey(shop, `${shop}-new`);
      expect(await store.routes.list(rotated!.site_key)).toEqual(['/blog/:slug', '/a/:b', '/docs/*']);
      expect(await store.routes.list(shop)).toEqual([]);
      await expect(store.routes.add(shop, '/x', 3)).rejects.toBeInstanceOf(UnknownSiteError);
    });

    test('two processes adding at once never pass the bound', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite(['https://shop.example'], 'Shop');
      const other = await reopen();
      const results = await Promise.all(Array.from({ length: 8 }, (_, index) => (index % 2 ? other : store).routes.add(shop, `/p${index}`, 5)));
      expect(results.filter((result) => result == 'added')).toHaveLength(5);
      expect(results.filter((result) => result == 'full')).toHaveLength(3);
      expect(await store.routes.list(shop)).toHaveLength(5);
    });
  });
