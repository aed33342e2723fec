import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isIdSegment, MAX_PATTERN_LENGTH, MAX_SEGMENTS, parseRoutePattern, routeOf, type RoutePattern } from './routes';

const pattern = (text: string): RoutePattern => {
  const parsed = parseRoutePattern(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.pattern;
};

describe('routeOf: a page URL grouped into its route', () => {
  test.each([
    ['https://shop.example/products/1?ref=1', '/products/:id'],
    ['https://shop.example/products/1?ref=2#reviews', '/products/:id'],
    ['https://shop.example/products/48213', '/products/:id'],
    ['https://shop.example/', '/'],
    ['https://shop.example', '/'],
    ['https://shop.example?utm_source=mail', '/'],
    ['https://shop.example/#/cart', '/'],
    ['https://shop.example/cart/', '/cart'],
    ['https://shop.example//cart//items/', '/cart/items'],
    ['https://shop.example:8443/cart', '/cart'],
    ['https://user:pw@shop.example/account/orders/20240611', '/account/orders/:id'],
    ['https://shop.example/orders/3f2b8c1e-9a4d-4e5f-8b6a-1c2d3e4f5a6b/invoice', '/orders/:id/invoice'],
    ['https://shop.example/orders/3F2B8C1E-9A4D-4E5F-8B6A-1C2D3E4F5A6B', '/orders/:id'],
    ['https://shop.example/assets/9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '/assets/:id'],
    ['https://shop.example/users/507f1f77bcf86cd799439011/profile', '/users/:id/profile'],
    ['https://shop.example/r/01HZX3K9Q2M7V5T8W4Y6B1C0DE', '/r/:id'],
    ['https://shop.example/p/%31%32%33', '/p/:id'],
    ['https://shop.example/blog/hello-world', '/blog/hello-world'],
    ['https://shop.example/blog/2024-in-review-what-we-shipped', '/blog/2024-in-review-what-we-shipped'],
    ['https://shop.example/docs/getting-started/install', '/docs/getting-started/install'],
    ['https://shop.example/acceptedface', '/acceptedface'],
    ['https://shop.example/en-US/checkout', '/en-US/checkout'],
    ['https://shop.example/caf%C3%A9/menu', '/caf%C3%A9/menu'],
    ['https://shop.example/bad%E0%A4%A/1', '/bad%E0%A4%A/:id'],
    ['/products/7?x=1', '/products/:id'],
    ['http://localhost:3000/admin/sites/42/edit', '/admin/sites/:id/edit'],
  ])('%s -> %s', (url, route) => {
    expect(routeOf(url)).toBe(route);
  });

  test('no URL, or nothing with a path, has the empty route', () => {
    for (const url of [undefined, null, '', 'about:blank', 'not a url', 'data:text/html,<p>1</p>', 'javascript:void(0)']) expect(routeOf(url)).toBe('');
  });

  test("a site's patterns win, the first that matches; literals match exactly, :name one segment, * the rest", () => {
    const patterns = ['/blog/:slug', '/docs/*', '/shop/:category/:product', '/shop/sale'].map(pattern);
    expect(routeOf('https://s.example/blog/hello-world?ref=x', patterns)).toBe('/blog/:slug');
    expect(routeOf('https://s.example/blog/2024', patterns)).toBe('/blog/:slug');
    expect(routeOf('https://s.example/blog', patterns)).toBe('/blog');
    expect(routeOf('https://s.example/blog/a/b', patterns)).toBe('/blog/a/b');
    expect(routeOf('https://s.example/docs/a/b/c', patterns)).toBe('/docs/*');
    expect(routeOf('https://s.example/docs', patterns)).toBe('/docs');
    expect(routeOf('https://s.example/shop/shoes/red-runner', patterns)).toBe('/shop/:category/:product');
    expect(routeOf('https://s.example/shop/sale', patterns)).toBe('/shop/sale');
    expect(routeOf('https://s.example/Blog/x', patterns)).toBe('/Blog/x');
    expect(routeOf('https://s.example/', [pattern('/')])).toBe('/');
    // Order decides between two that match.
    expect(routeOf('https://s.example/shop/sale/1', [pattern('/shop/:a/:b'), pattern('/shop/sale/:id')])).toBe('/shop/:a/:b');
  });

  test('hostile URLs: bounded segments and length, the same answer every time', () => {
    const many = `https://s.example/${Array.from({ length: 10_000 }, (_, index) => `s${index % 7}`).join('/')}`;
    const route = routeOf(many);
    expect(route.split('/')).toHaveLength(MAX_SEGMENTS + 2);
    expect(route.endsWith('/*')).toBe(true);
    expect(routeOf(`https://s.example/${'a'.repeat(1_000_000)}`)).toBe('/:id');
    expect(routeOf(`https://s.example/${'/'.repeat(1_000_000)}x`)).toBe('/');
    expect(routeOf(`https://s.example/a?${'?'.repeat(1_000_000)}`)).toBe('/a');
    expect(routeOf('https://s.example/' + '%'.repeat(100))).toBe('/' + '%'.repeat(100));
    expect(routeOf('https://s.example/x/' + '%FF'.repeat(30))).toBe('/x/' + '%FF'.repeat(30));
    // Patterns over a path longer than any of them: no match, and the path's route.
    expect(routeOf(many, [pattern('/s0/:x')])).toBe(route);
    expect(routeOf(many, [pattern('/s0/*')])).toBe('/s0/*');
  });

  test('property: any string gives a route of at most MAX_SEGMENTS segments (and /*), no query or fragment, in the same way twice', () => {
    fc.assert(
      fc.property(fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), fc.string({ maxLength: 3000 }), fc.webPath()), (url) => {
        const route = routeOf(url);
        expect(route).toBe(routeOf(url));
        if (route === '') return;
        expect(route.startsWith('/')).toBe(true);
        expect(route).not.toMatch(/[?#]/);
        expect(route.split('/').length).toBeLessThanOrEqual(MAX_SEGMENTS + 2);
      }),
    );
  });
});

test('isIdSegment: digits, UUIDs, long hex and generated tokens, very long segments; words are not', () => {
  for (const id of ['1', '0042', '9f86d081884c', 'A1B2C3D4E5F6A7B8', '01HZX3K9Q2M7V5T8W4Y6B1C0DE', 'x'.repeat(121)]) expect(isIdSegment(id), id).toBe(true);
  for (const word of ['products', 'hello-world', 'cafe', 'deadbeef', 'facade', 'v2', 'iphone15', 'page-2', 'abcdefghijklmnopqrstuvwxyz']) expect(isIdSegment(word), word).toBe(false);
});

describe('parseRoutePattern: hostile input refused with what is wrong', () => {
  test('patterns taken, a trailing / dropped', () => {
    expect(parseRoutePattern('/blog/:slug/')).toEqual({ pattern: { text: '/blog/:slug', segments: [{ literal: 'blog' }, { param: ':slug' }] } });
    expect(parseRoutePattern('/docs/*')).toEqual({ pattern: { text: '/docs/*', segments: [{ literal: 'docs' }, { rest: true }] } });
    expect(parseRoutePattern('/')).toEqual({ pattern: { text: '/', segments: [] } });
    expect(parseRoutePattern("/caf%C3%A9/~a.b_c-d!$&'()+,;=@")).toMatchObject({ pattern: { text: "/caf%C3%A9/~a.b_c-d!$&'()+,;=@" } });
  });

  test.each([
    ['blog/:slug', /starts with \//],
    ['', /starts with \//],
    [`/${'a'.repeat(MAX_PATTERN_LENGTH)}`, /at most 200 characters/],
    [`/${Array.from({ length: MAX_SEGMENTS + 1 }, () => 'a').join('/')}`, /at most 32 segments/],
    ['/blog?page=1', /no query/],
    ['/blog#top', /nor fragment/],
    ['/a//b', /empty segment/],
    ['/*/a', /last segment only/],
    ['/blog/:', /a parameter is/],
    ['/blog/:1slug', /a parameter is/],
    ['/blog/:slug-x', /a parameter is/],
    ['/blog post', /a segment is/],
    ['/a/\u0000', /a segment is/],
    ['/a/<script>', /a segment is/],
    ['/a/b\nc', /a segment is/],
  ])('%j refused', (input, message) => {
    const parsed = parseRoutePattern(input);
    expect('error' in parsed && parsed.error).toMatch(message);
  });
});
