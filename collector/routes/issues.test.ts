import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fingerprintOf } from '../core/fingerprint';
import { createTestCollector } from '../testing/testCollector';

const SHOP = 'https://shop.example';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const TYPE_ERROR = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined' };
const RESOURCE = { error_type: 'resource_error', error_message: 'script failed to load', source_url: 'https://cdn.example/app.js?v=7' };
const CROSS_ORIGIN = { error_type: 'javascript_error', error_message: 'Script error.' };
const BOT_ONLY = { error_type: 'javascript_error', error_name: 'ReferenceError', error_message: 'gtag is not defined' };
const CHECK = { error_type: 'connectivity_check', error_message: 'sitebeacon check' };
const fp = (report: { error_type: string; error_name?: string; error_message: string; source_url?: string }) => fingerprintOf(report);

interface Item {
  fingerprint: string; title: string; explanation: string | null; status: string; regressed: boolean;
  occurrences: number; visitors: number; page_views_share: number; first_release: string | null; last_release: string | null;
  trend: { interval: string; buckets: Array<{ count: number; incomplete: boolean }> };
}

describe('the issues API', { timeout: 30_000 }, () => {
  let collector: ReturnType<typeof createTestCollector>;
  let site: string;
  let key: string;
  let views = 0;

  /** One page view's report, sent as the beacon sends it, from a browser of `userAgent`. */
  const report = (body: Record<string, unknown>, userAgent = FIREFOX, siteKey = site) =>
    collector.post(`/api/error-reports/${siteKey}`, { page_url: `${SHOP}/cart`, session_id: `view-${++views}`, ...body }, { origin: SHOP, 'user-agent': userAgent });
  const get = (path: string, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
    collector.request(`/api/v1/sites/${site}/issues${path}`, { headers });
  const json = async <T = Record<string, unknown>>(path: string) => {
    const response = await get(path);
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as T;
  };
  const list = async (query = '') => (await json<{ items: Item[]; next_cursor: string | null }>(`${query}`)).items;
  const patch = (fingerprint: string, body: unknown, headers: Record<string, string> = { authorization: `Bearer ${key}` }) =>
    collector.request(`/api/v1/sites/${site}/issues/${fingerprint}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });

  beforeEach(async () => {
    collector = createTestCollector();
    site = await collector.addSite([SHOP], 'Shop');
    key = await collector.apiKey(site);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('lists the site\'s issues with titles and counts; connectivity checks and bots left out unless bots=include', async () => {
    for (const body of [TYPE_ERROR, TYPE_ERROR, { ...TYPE_ERROR, count: 3 }]) expect((await report({ ...body, release: '1.0' })).status).toBe(202);
    await report(RESOURCE, CHROME);
    await report(CROSS_ORIGIN);
    await report(BOT_ONLY, GOOGLEBOT);
    await report(CHECK, 'sitebeacon-check');
    const items = await list();
    const byFingerprint = new Map(items.map((item) => [item.fingerprint, item]));
    expect([...byFingerprint.keys()].sort()).toEqual([fp(TYPE_ERROR), fp(RESOURCE), fp(CROSS_ORIGIN)].sort());
    expect(byFingerprint.get(fp(TYPE_ERROR))).toMatchObject({
      title: 'TypeError: cart is undefined',
      explanation: null,
      status: 'unresolved',
      regressed: false,
      occurrences: 5,
      visitors: 1,
      first_release: '1.0',
      last_release: '1.0',
      page_views_share: 0,
    });
    expect(byFingerprint.get(fp(RESOURCE))!.title).toBe('Failed to load https://cdn.example/app.js');
    expect(byFingerprint.get(fp(CROSS_ORIGIN))!.explanation).toMatch(/crossorigin.*Access-Control-Allow-Origin/s);
    // The default range is 14 days: daily buckets on UTC days, the last one still filling.
    const trend = byFingerprint.get(fp(TYPE_ERROR))!.trend;
    expect(trend.interval).toBe('day');
    expect(trend.buckets.at(-1)).toMatchObject({ count: 5, incomplete: true });
    expect(trend.buckets.slice(0, -1).every((bucket) => bucket.count == 0 && !bucket.incomplete)).toBe(true);
    const withBots = await list('?bots=include');
    expect(withBots.map((item) => item.fingerprint)).toContain(fp(BOT_ONLY));
    expect(withBots.map((item) => item.fingerprint)).not.toContain(fp(CHECK));
  });

  test('a range of 48 hours or less has hourly buckets', async () => {
    await report(TYPE_ERROR);
    const since = new Date(Date.now() - 6 * 3_600_000).toISOString();
    const [item] = await list(`?since=${since}`);
    expect(item!.trend.interval).toBe('hour');
    expect(item!.trend.buckets).toHaveLength(7);
    expect(item!.trend.buckets.at(-1)).toMatchObject({ count: 1, incomplete: true });
  });

  test('filters: browser, os, device, page, release, environment, type and q', async () => {
    await report({ ...TYPE_ERROR, release: '1.1', environment: 'production' }, FIREFOX);
    await report({ ...RESOURCE, release: '1.2', environment: 'staging', page_url: `${SHOP}/checkout` }, IPHONE);
    const only = async (query: string) => (await list(query)).map((item) => item.fingerprint);
    expect(await only('?browser=Firefox')).toEqual([fp(TYPE_ERROR)]);
    expect(await only('?device=mobile')).toEqual([fp(RESOURCE)]);
    expect(await only('?os=iOS')).toEqual([fp(RESOURCE)]);
    expect(await only(`?page=${encodeURIComponent(`${SHOP}/checkout`)}`)).toEqual([fp(RESOURCE)]);
    expect(await only('?release=1.1')).toEqual([fp(TYPE_ERROR)]);
    expect(await only('?environment=staging')).toEqual([fp(RESOURCE)]);
    expect(await only('?type=resource_error')).toEqual([fp(RESOURCE)]);
    expect(await only('?q=CART')).toEqual([fp(TYPE_ERROR)]);
    expect(await only('?release=9.9')).toEqual([]);
  });

  test('sorts, and pages with the cursor until next_cursor is null', async () => {
    await report({ ...TYPE_ERROR, count: 5 });
    await report(RESOURCE);
    await report(CROSS_ORIGIN);
    const sorted = await list('?sort=occurrences');
    expect(sorted[0]!.fingerprint).toBe(fp(TYPE_ERROR));
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: Item[]; next_cursor: string | null } = await json(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(1);
      seen.push(...page.items.map((item) => item.fingerprint));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen.sort()).toEqual([fp(TYPE_ERROR), fp(RESOURCE), fp(CROSS_ORIGIN)].sort());
  });

  test('page_views_share: the issue\'s page views over the performance sessions of the range', async () => {
    for (let index = 0; index < 4; index++) {
      const session = { session_id: `perf-${index}`, page_url: `${SHOP}/`, metrics: { LCP: { value: 1000 } } };
      expect((await collector.post(`/api/performance-sessions/${site}`, session, { origin: SHOP, 'user-agent': FIREFOX })).status).toBe(202);
    }
    await report(TYPE_ERROR);
    const [item] = await list();
    expect(item!.page_views_share).toBe(0.25);
  });

  test('PATCH resolves in a release; a report of that release or an earlier one does not regress it, a later release does', async () => {
    await report({ ...TYPE_ERROR, release: '1.1' });
    await report({ ...TYPE_ERROR, release: '1.2' });
    const resolved = await patch(fp(TYPE_ERROR), { status: 'resolved', resolved_in: '1.2' });
    expect(resolved.status).toBe(200);
    expect(await resolved.json()).toMatchObject({ status: 'resolved', resolved_in: '1.2', regressed: false, ignore_until: null });
    expect(await list()).toEqual([]);
    expect((await list('?status=resolved')).map((item) => item.fingerprint)).toEqual([fp(TYPE_ERROR)]);
    await report({ ...TYPE_ERROR, release: '1.1' });
    await report({ ...TYPE_ERROR, release: '1.2' });
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'resolved' });
    await report({ ...TYPE_ERROR, release: '1.3' });
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'unresolved', regressed: true, last_release: '1.3' });
    expect((await list()).map((item) => item.regressed)).toEqual([true]);
  });

  test('PATCH ignores until a count: unresolved again once that many more occurred', async () => {
    await report(TYPE_ERROR);
    expect((await patch(fp(TYPE_ERROR), { status: 'ignored', ignore_until_count: 2 })).status).toBe(200);
    expect((await list('?status=ignored')).length).toBe(1);
    await report(TYPE_ERROR);
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'ignored', ignore_until_count: 2 });
    await report(TYPE_ERROR);
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'unresolved', regressed: false });
  });

  test('PATCH ignores until a time: ignored before it, read as unresolved once it has passed, with no new report', async () => {
    await report(TYPE_ERROR);
    const later = new Date(Date.now() + 3_600_000).toISOString();
    expect(await (await patch(fp(TYPE_ERROR), { status: 'ignored', ignore_until: later })).json()).toMatchObject({ status: 'ignored', ignore_until: later });
    expect(await list()).toEqual([]);
    const past = new Date(Date.now() - 1000).toISOString();
    expect(await (await patch(fp(TYPE_ERROR), { status: 'ignored', ignore_until: past })).json()).toMatchObject({ status: 'unresolved', ignore_until: past });
    expect((await list()).map((item) => item.fingerprint)).toEqual([fp(TYPE_ERROR)]);
    // Back to unresolved by the owner: the ignore's time is forgotten.
    expect(await (await patch(fp(TYPE_ERROR), { status: 'unresolved' })).json()).toMatchObject({ status: 'unresolved', ignore_until: null });
  });

  test('one issue, its events (newest first, frames parsed, unmapped without a map: no_map) and its tags', async () => {
    const thrown = { ...TYPE_ERROR, stack: 'TypeError: cart is undefined\n    at pay (https://shop.example/app.js:1:2)' };
    const fingerprint = fp(thrown);
    await report({ ...thrown, release: '1.0', environment: 'production' }, FIREFOX);
    const causes = [{ error_name: 'Error', error_message: 'price service timed out', stack: 'Error: price service timed out\n    at quote (https://shop.example/app.js:9:1)' }];
    await report({ ...thrown, release: '1.1', causes }, IPHONE);
    const issue = await json(`/${fingerprint}`);
    expect(issue).toMatchObject({ fingerprint, occurrences: 2, visitors: 2, page_views_share: 0, resolved_in: null, ignore_until_count: null, ignore_until: null });
    const events = await json<{ items: Array<Record<string, unknown>>; next_cursor: string | null }>(`/${fingerprint}/events?limit=1`);
    expect(events.items).toEqual([
      expect.objectContaining({ release: '1.1', environment: null, os: 'iOS', device: 'mobile', message: 'cart is undefined', count: 1, page_url: `${SHOP}/cart`, causes,
        frames: [{ raw: 'at pay (https://shop.example/app.js:1:2)', file: 'https://shop.example/app.js', line: 1, column: 2, function: 'pay', original: null, unmapped: 'no_map', in_app: true }] }),
    ]);
    const older = await json<{ items: Array<Record<string, unknown>>; next_cursor: string | null }>(`/${fingerprint}/events?limit=1&cursor=${events.next_cursor}`);
    expect(older.items).toEqual([expect.objectContaining({ release: '1.0', environment: 'production', browser: 'Firefox', stack: expect.stringContaining('at pay'), causes: [] })]);
    expect(older.next_cursor).toBeNull();
    const tags = await json<Record<string, Array<{ value: string; count: number }>>>(`/${fingerprint}/tags`);
    expect(tags.browser!.map((tag) => tag.value).sort()).toEqual(['Firefox', 'Safari']);
    expect(tags.release!.map((tag) => tag.value).sort()).toEqual(['1.0', '1.1']);
    expect(tags.device!.reduce((total, tag) => total + tag.count, 0)).toBe(2);
    expect((await json<Record<string, unknown[]>>(`/${fingerprint}/tags?release=1.0`)).release).toEqual([{ value: '1.0', count: 1 }]);
    expect((await json<Record<string, unknown[]>>(`/${fingerprint}/tags?limit=1`)).browser).toHaveLength(1);
    expect((await get(`/${fingerprint}/tags?limit=0`)).status).toBe(400);
  });

  test('404 unknown_issue: a fingerprint the site has no report of, a malformed one, a connectivity check, another site\'s issue', async () => {
    await report(CHECK);
    const other = await collector.addSite(['https://blog.example'], 'Blog');
    await collector.post(`/api/error-reports/${other}`, TYPE_ERROR, { origin: 'https://blog.example', 'user-agent': FIREFOX });
    for (const fingerprint of ['0123456789abcdef', 'not-a-fingerprint', fp(CHECK), fp(TYPE_ERROR)]) {
      for (const path of [`/${fingerprint}`, `/${fingerprint}/events`, `/${fingerprint}/tags`]) {
        const response = await get(path);
        expect(response.status, path).toBe(404);
        expect(await response.json()).toMatchObject({ error: { code: 'unknown_issue' } });
      }
      expect((await patch(fingerprint, { status: 'resolved' })).status).toBe(404);
    }
  });

  test('401 without a key, 403 with another site\'s key, for reads and the change', async () => {
    await report(TYPE_ERROR);
    const other = await collector.addSite(['https://blog.example'], 'Blog');
    const otherKey = await collector.apiKey(other);
    expect((await get('', {})).status).toBe(401);
    expect((await get('', { authorization: `Bearer ${otherKey}` })).status).toBe(403);
    expect((await get(`/${fp(TYPE_ERROR)}/events`, { authorization: `Bearer ${otherKey}` })).status).toBe(403);
    expect((await patch(fp(TYPE_ERROR), { status: 'resolved' }, {})).status).toBe(401);
    expect((await patch(fp(TYPE_ERROR), { status: 'resolved' }, { authorization: `Bearer ${otherKey}` })).status).toBe(403);
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'unresolved' });
  });

  test('PATCH with the dashboard cookie needs the collector\'s own Origin (403 csrf)', async () => {
    await report(TYPE_ERROR);
    await collector.addUser('ann@shop.example', 'ann-password-1', [site]);
    const cookie = await collector.signIn('ann@shop.example', 'ann-password-1');
    for (const origin of [undefined, 'https://evil.example']) {
      const refused = await patch(fp(TYPE_ERROR), { status: 'resolved' }, { cookie, ...(origin ? { origin } : {}) });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'csrf' } });
    }
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'unresolved' });
    expect((await get('', { cookie })).status).toBe(200);
    const changed = await patch(fp(TYPE_ERROR), { status: 'resolved' }, { cookie, origin: 'http://collector.test' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toMatchObject({ status: 'resolved' });
  });

  test('400 for bad query values, naming them', async () => {
    await report(TYPE_ERROR);
    const cases: Array<[string, RegExp]> = [
      ['?status=open', /status/],
      ['?sort=random', /sort/],
      ['?limit=0', /limit/],
      ['?limit=101', /limit/],
      ['?limit=ten', /limit/],
      ['?since=yesterday', /since/],
      ['?until=2026-13-45', /until/],
      ['?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z', /since/],
      ['?device=phone', /device/],
      ['?bots=maybe', /bots/],
      ['?cursor=%00%01', /cursor/],
      [`?cursor=${Buffer.from('id:12').toString('base64url')}`, /cursor/],
      [`?q=${'x'.repeat(201)}`, /q/],
      ['?status=all&status=resolved', /status/],
      [`?release=${'r'.repeat(201)}`, /release/],
    ];
    for (const [query, named] of cases) {
      const response = await get(query);
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code, query).toBe('bad_request');
      expect(body.error.message, query).toMatch(named);
    }
    expect((await get(`/${fp(TYPE_ERROR)}/events?limit=1000`)).status).toBe(400);
  });

  test('400 for bad changes: an unknown status or field, fields of another status, out-of-range values', async () => {
    await report(TYPE_ERROR);
    for (const body of [
      { status: 'closed' },
      {},
      { status: 'unresolved', resolved_in: '1.2' },
      { status: 'resolved', ignore_until_count: 3 },
      { status: 'ignored', ignore_until_count: 0 },
      { status: 'ignored', ignore_until_count: 2.5 },
      { status: 'ignored', ignore_until: 'next week' },
      { status: 'resolved', resolved_in: 'x'.repeat(201) },
      { status: 'resolved', resolved_in: '1.2\n' },
      { status: 'resolved', resolvedIn: '1.2' },
      [{ status: 'resolved' }],
    ]) {
      const response = await patch(fp(TYPE_ERROR), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request' } });
    }
    expect(await json(`/${fp(TYPE_ERROR)}`)).toMatchObject({ status: 'unresolved' });
  });
});
