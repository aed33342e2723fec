import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { EARLY_STUB } from '../../beacon/lib/earlyStub';
import { earlyStubSource } from '../core/setupUrls';
import { p75Rank } from '../core/vitals';
import { createTestCollector } from '../testing/testCollector';

describe("the read API's dashboard views", { timeout: 30_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let shop: string;
  let blog: string;
  let cookie: string;
  const get = async (path: string, headers: Record<string, string> = { cookie }) => {
    const response = await collector.request(path, { headers });
    return { status: response.status, body: (await response.json()) as any };
  };
  const now = Date.now();
  const DAY = 86_400_000;

  beforeEach(async () => {
    collector = createTestCollector();
    shop = await collector.addSite(['https://shop.example'], 'Shop');
    blog = await collector.addSite(['https://blog.example'], 'Blog');
    await collector.addUser('ann@shop.example', 'ann-password-1', [shop]);
    cookie = await collector.signIn('ann@shop.example', 'ann-password-1');
  }, 30_000);
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('GET /api/v1/sites lists what the caller may see: a user’s sites, a site key’s site, every site for an installation key', async () => {
    expect((await get('/api/v1/sites')).body.data.map((site: any) => site.name)).toEqual(['Shop']);
    const all = await get('/api/v1/sites', { authorization: `Bearer ${await collector.apiKey()}` });
    expect(all.body.data.map((site: any) => site.site_key).sort()).toEqual([blog, shop, 'default'].sort());
    const one = await get('/api/v1/sites', { authorization: `Bearer ${await collector.apiKey(blog)}` });
    expect(one.body.data.map((site: any) => site.site_key)).toEqual([blog]);
    expect((await get('/api/v1/sites', {})).status).toBe(401);
  });

  test('daily series, error groups with sessions and trends, one group’s detail, per-page vitals', async () => {
    const stack = 'TypeError: cart is empty\n    at checkout (https://shop.example/app.js:3:9)';
    const error = (session: string, page: string) => ({ error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is empty', stack, session_id: session, page_url: page });
    await collector.insertErrors(shop, [error('s1', 'https://shop.example/cart'), error('s2', 'https://shop.example/cart')], now - DAY, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
    await collector.insertErrors(shop, [{ ...error('s1', 'https://shop.example/pay'), count: 3 }], now, 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36');
    await collector.insertCsp(shop, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: 'https://cdn.example/x.png', document_uri: 'https://shop.example/' }], now);
    const lcp = [1200, 2600, 3100, 900, 4500];
    for (const [i, value] of lcp.entries()) await collector.upsertSession(shop, { session_id: `p${i}`, page_url: 'https://shop.example/cart', metrics: { LCP: { value } } }, now);

    const daily = await get(`/api/v1/sites/${shop}/daily?since=${new Date(now - 2 * DAY).toISOString()}`);
    expect(daily.status).toBe(200);
    expect(daily.body.days).toHaveLength(3);
    const today = daily.body.days.at(-1);
    const sorted = [...lcp].sort((a, b) => a - b);
    expect(today).toMatchObject({ day: new Date(now).toISOString().slice(0, 10), errors: 1, error_occurrences: 3, csp: 1, page_views: 5 });
    expect(today.p75.LCP).toBe(sorted[p75Rank(lcp.length)]);
    expect(daily.body.days[1]).toMatchObject({ errors: 2, error_occurrences: 2 });
    const counts = await get(`/api/v1/sites/${shop}/daily?since=${new Date(now - 2 * DAY).toISOString()}&p75=false`);
    expect(counts.body.days.at(-1)).toMatchObject({ errors: 1, page_views: 5, p75: { LCP: null } });
    expect((await get(`/api/v1/sites/${shop}/daily?p75=maybe`)).status).toBe(400);

    await collector.insertErrors(shop, [{ error_type: 'connectivity_check', error_message: 'sitebeacon check from web1' }], now);
    const groups = await get(`/api/v1/sites/${shop}/error-groups`);
    expect(groups.body.data).toHaveLength(1);
    const group = groups.body.data[0];
    expect(group).toMatchObject({ error_message: 'cart is empty', reports: 3, count: 5, sessions: 2 });
    // A point per UTC day of the default 7 days, zeros where nothing came.
    expect(group.daily.map((point: any) => point.count)).toEqual([0, 0, 0, 0, 0, 0, 2, 3]);
    expect(group.daily.at(-1).day).toBe(new Date(now).toISOString().slice(0, 10));

    const detail = await get(`/api/v1/sites/${shop}/error-groups/${group.fingerprint}`);
    expect(detail.body.group).toMatchObject({ fingerprint: group.fingerprint, count: 5, sessions: 2 });
    expect(detail.body.latest).toMatchObject({ stack, page_url: 'https://shop.example/pay' });
    expect(detail.body.pages).toEqual([{ page_url: 'https://shop.example/cart', reports: 2 }, { page_url: 'https://shop.example/pay', reports: 1 }]);
    expect(detail.body.browsers).toEqual([{ browser: 'Firefox 128 · Linux · desktop', reports: 2 }, { browser: 'Chrome 130 · Android · mobile', reports: 1 }]);
    expect((await get(`/api/v1/sites/${shop}/error-groups/0000000000000000`)).status).toBe(404);

    const csp = await get(`/api/v1/sites/${shop}/csp-groups`);
    expect(csp.body).toMatchObject({ site_key: shop, data: [{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 }] });
    expect((await get(`/api/v1/sites/${shop}/csp-groups?since=${new Date(now + 1000).toISOString()}`)).body.data).toEqual([]);
    // Blocked first (docs/csp-reports.md): an enforced block is listed above report-only groups with more reports.
    await collector.insertCsp(shop, [{ report_type: 'csp-violation', effective_directive: 'script-src-elem', blocked_uri: 'https://js.payments.example/v3', document_uri: 'https://shop.example/checkout', disposition: 'enforce' }], now);
    expect((await get(`/api/v1/sites/${shop}/csp-groups`)).body.data).toEqual([
      { directive: 'script-src-elem', blocked_host: 'js.payments.example', disposition: 'enforce', reports: 1 },
      { directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 },
    ]);

    // The Web Vitals: the summary's counts and the daily series' p75, a point per UTC day of the range.
    await collector.upsertSession(shop, { session_id: 'old', page_url: 'https://shop.example/', metrics: { LCP: { value: 9000 }, CLS: { value: 0.3 } } }, now - 2 * DAY);
    const vitals = await get(`/api/v1/sites/${shop}/vitals?since=${new Date(now - 2 * DAY).toISOString()}`);
    expect(vitals.status).toBe(200);
    const all = [...lcp, 9000].sort((a, b) => a - b);
    expect(vitals.body.vitals.LCP).toMatchObject({ samples: 6, p75: all[p75Rank(6)], rating: 'poor', good: 0.3333, needs_improvement: 0.3333, poor: 0.3333 });
    expect(vitals.body.vitals.LCP.daily.map((point: any) => [point.samples, point.p75])).toEqual([[1, 9000], [0, null], [5, sorted[p75Rank(5)]]]);
    expect(vitals.body.vitals.LCP.daily.at(-1).day).toBe(new Date(now).toISOString().slice(0, 10));
    expect(vitals.body.vitals.CLS).toMatchObject({ samples: 1, p75: 0.3, rating: 'poor', poor: 1 });
    expect(vitals.body.vitals.INP).toMatchObject({ samples: 0, p75: null, rating: null, good: 0 });
    expect(vitals.body.vitals.INP.daily).toHaveLength(3);
    const summary = await get(`/api/v1/sites/${shop}/summary?since=${new Date(now - 2 * DAY).toISOString()}`);
    for (const [name, metric] of Object.entries(summary.body.vitals)) expect(vitals.body.vitals[name]).toMatchObject(metric as object);
    // The default range is 7 days: a point per day, the old session in it.
    expect((await get(`/api/v1/sites/${shop}/vitals`)).body.vitals.LCP).toMatchObject({ samples: 6 });
    expect((await get(`/api/v1/sites/${shop}/vitals`)).body.vitals.LCP.daily).toHaveLength(8);

    const pages = await get(`/api/v1/sites/${shop}/pages`);
    expect(pages.body.data).toEqual([
      {
        route: '/cart',
        page_url: 'https://shop.example/cart',
        sessions: 5,
        metrics: { LCP: { samples: 5, p75: sorted[p75Rank(5)], rating: 'needs-improvement' }, INP: null, CLS: null, FCP: null, TTFB: null },
      },
      {
        route: '/',
        page_url: 'https://shop.example/',
        sessions: 1,
        metrics: { LCP: { samples: 1, p75: 9000, rating: 'poor' }, INP: null, CLS: { samples: 1, p75: 0.3, rating: 'poor' }, FCP: null, TTFB: null },
      },
    ]);
  });

  test('every view of another site is 403 for a user limited to one, and 401 signed out', async () => {
    for (const view of ['daily', 'error-groups', 'error-groups/0000000000000000', 'csp-groups', 'vitals', 'pages', 'setup', 'summary']) {
      expect((await get(`/api/v1/sites/${blog}/${view}`)).status).toBe(403);
      expect((await get(`/api/v1/sites/${shop}/${view}`, {})).status).toBe(401);
    }
  });

  test('the setup view: the generated script tag, CSP sources, origins and integrations, no agent token hash', async () => {
    await collector.store.agents.add({ id: 'agt_1', token_hash: 'secret-hash', hostname: 'web1', os: 'linux', arch: 'x86_64', agent_version: '1.0.0', site_key: shop });
    const setup = await get(`/api/v1/sites/${shop}/setup`);
    expect(setup.body).toMatchObject({
      site_key: shop,
      allowed_origins: ['https://shop.example'],
      snippet: `<script>${EARLY_STUB}</script>\n<script src="http://127.0.0.1:8787/beacon.js" data-site-key="${shop}" data-ingest-origin="http://127.0.0.1:8787" integrity="${setup.body.integrity}" crossorigin="anonymous" async></script>`,
      snippet_without_stub: `<script src="http://127.0.0.1:8787/beacon.js" data-site-key="${shop}" data-ingest-origin="http://127.0.0.1:8787" integrity="${setup.body.integrity}" crossorigin="anonymous" async></script>`,
      csp_sources: { 'script-src': ['http://127.0.0.1:8787', earlyStubSource()], 'connect-src': ['http://127.0.0.1:8787'] },
      wordpress: null,
      agents: [{ id: 'agt_1', hostname: 'web1' }],
      last_connectivity_check: null,
    });
    await collector.insertErrors(shop, [{ error_type: 'connectivity_check', error_message: 'sitebeacon check from web1' }], Date.parse('2026-01-01T00:00:00Z'));
    await collector.insertErrors(shop, [{ error_type: 'connectivity_check', error_message: 'sitebeacon check from web2' }]);
    expect((await get(`/api/v1/sites/${shop}/setup`)).body.last_connectivity_check).toMatchObject({ message: 'sitebeacon check from web2', reports: 1 });
    // Found among more error groups than any page of them (1,001 groups, each more frequent than the check).
    const letters = (n: number) => n.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)));
    await collector.insertErrors(shop, Array.from({ length: 1001 }, (_, i) => ({ error_type: 'javascript_error', error_message: `boom ${letters(i)}`, count: 5 })));
    expect((await get(`/api/v1/sites/${shop}/setup`)).body.last_connectivity_check).toMatchObject({ message: 'sitebeacon check from web2', reports: 1 });
    expect(JSON.stringify(setup.body)).not.toContain('secret-hash');
  });

  test("a CSP project's suggested policy and header are open to a signed-in user of its site only", async () => {
    const mine = await collector.store.cspProjects.create({ site_key: shop, name: 'Main', mode: 'report-only', base_policy: "default-src 'self'" });
    const theirs = await collector.store.cspProjects.create({ site_key: blog, name: 'Blog', mode: 'enforce', base_policy: "default-src 'self'" });
    await collector.insertCsp(shop, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: 'https://cdn.example/x.png', document_uri: 'https://shop.example/' }]);
    const suggestion = await get(`/api/v1/csp-projects/${mine.id}/suggested-policy`);
    expect(suggestion.status).toBe(200);
    expect(suggestion.body.policy).toContain('https://cdn.example');
    expect((await get(`/api/v1/csp-projects/${mine.id}/header?policy=suggested`)).status).toBe(200);
    for (const path of [`/api/v1/csp-projects/${theirs.id}/suggested-policy`, `/api/v1/csp-projects/${theirs.id}/header`]) {
      expect((await get(path)).status).toBe(403);
      expect((await get(path, {})).status).toBe(401);
    }
  });
});
