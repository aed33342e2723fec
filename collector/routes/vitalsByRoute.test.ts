import { expect, test } from 'vitest';
import { useSiteCollector } from '../testing/useSiteCollector';

// Routes over HTTP (docs/vitals.md, "Routes"): each session's route worked out at ingest from its
// page URL and the site's patterns, `/pages` per route and `/vitals?route=`.

const shop = 'https://shop.example';
const site = useSiteCollector(shop);
const send = async (session: Record<string, unknown>) =>
  expect((await site.collector.post(`/api/performance-sessions/${site.key}`, session, { origin: shop })).status).toBe(202);

test("sessions grouped by route: query and fragment dropped, ids as :id, the site's patterns first; a route's vitals", async () => {
  expect(await site.collector.store.routes.add(site.key, '/blog/:slug', 50)).toBe('added');
  const lcp = { '/products/1?ref=mail': 4200, '/products/2': 3900, '/products/3#reviews': 1200, '/blog/hello-world': 1500, '/blog/2024-plans': 1700, '/': 800 };
  let n = 0;
  for (const [path, value] of Object.entries(lcp)) await send({ session_id: `s${n++}`, page_url: `${shop}${path}`, metrics: { LCP: { value } } });
  // What a body says of its route is not read: the collector works it out.
  await send({ session_id: 'sneaky', page_url: `${shop}/products/4`, route: '/admin', metrics: { LCP: { value: 4500 } } });

  const pages = await site.get(`/api/v1/sites/${site.key}/pages`);
  expect(pages.status).toBe(200);
  expect(pages.body.data.map(({ route, page_url, sessions }: any) => [route, page_url, sessions])).toEqual([
    ['/products/:id', `${shop}/products/1?ref=mail`, 4],
    ['/blog/:slug', `${shop}/blog/2024-plans`, 2],
    ['/', `${shop}/`, 1],
  ]);
  expect(pages.body.data[0].metrics.LCP).toEqual({ samples: 4, p75: 4200, rating: 'poor' });

  const product = await site.get(`/api/v1/sites/${site.key}/vitals?route=${encodeURIComponent('/products/:id')}`);
  expect(product.body).toMatchObject({ route: '/products/:id', device: null, vitals: { LCP: { samples: 4, p75: 4200, rating: 'poor' } } });
  const blog = await site.get(`/api/v1/sites/${site.key}/vitals?route=${encodeURIComponent('/blog/:slug')}&device=mobile`);
  expect(blog.body).toMatchObject({ route: '/blog/:slug', device: 'mobile', vitals: { LCP: { samples: 0, p75: null } } });
  expect((await site.get(`/api/v1/sites/${site.key}/vitals`)).body).toMatchObject({ route: null, vitals: { LCP: { samples: 7 } } });
  const [sneaky] = (await site.collector.stored('performance', site.key, { limit: 100 })).filter((session: any) => session.session_id == 'sneaky');
  expect(sneaky).toMatchObject({ route: '/products/:id' });
});

test('a route that is too long, holds control characters or is given twice is refused with a 400 naming it', async () => {
  for (const query of [`route=/${'a'.repeat(5000)}`, 'route=%2Fa%00b', 'route=%0A', 'route=/a&route=/b']) {
    const { status, body } = await site.get(`/api/v1/sites/${site.key}/vitals?${query}`);
    expect(status, query.slice(0, 40)).toBe(400);
    expect(body.error.message).toMatch(/route/);
  }
});
