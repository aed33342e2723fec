import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Summary } from '../core/summary';
import { VITALS_THRESHOLDS } from '../core/vitals';
import { createTestCollector } from '../testing/testCollector';

describe('read API', () => {
  let collector: ReturnType<typeof createTestCollector>;
  let shop: string;
  let blog: string;
  let installationKey: string;
  let shopKey: string;

  const makeKey = (siteKey?: string) => collector.apiKey(siteKey);
  const get = (path: string, key?: string, header: 'authorization' | 'x-api-key' = 'authorization') =>
    collector.request(path, { headers: key ? { [header]: header == 'authorization' ? `Bearer ${key}` : key } : {} });

  beforeEach(async () => {
    collector = createTestCollector();
    shop = await collector.addSite(['https://shop.example'], 'Shop');
    blog = await collector.addSite(['https://blog.example'], 'Blog');
    installationKey = await makeKey();
    shopKey = await makeKey(shop);
  });
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('no key, a wrong key: 401 unauthorized; a key of another site: 403 forbidden', async () => {
    const path = `/api/v1/sites/${blog}/error-reports`;
    for (const response of [await get(path), await get(path, 'sbk_wrong'), await get(path, `${shopKey}x`)]) {
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'unauthorized' } });
    }
    const forbidden = await get(path, shopKey);
    expect(forbidden.status).toBe(403);
    expect(await forbidden.json()).toMatchObject({ error: { code: 'forbidden' } });
    expect((await get(path, installationKey)).status).toBe(200);
    expect((await get(`/api/v1/sites/${shop}/error-reports`, shopKey, 'x-api-key')).status).toBe(200);
  });

  test('an unknown site is 404 unknown_site for an installation key', async () => {
    const response = await get('/api/v1/sites/nope/summary', installationKey);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'unknown_site' } });
  });

  test('lists page with a cursor, oldest first, and filter by since', async () => {
    for (let i = 0; i < 5; i++) {
      await collector.insertErrors(shop, [{ error_type: 'js', error_message: `m${i}` }], Date.parse(`2026-0${i + 1}-01T00:00:00Z`));
    }
    const messages: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await get(`/api/v1/sites/${shop}/error-reports?limit=2${cursor ? `&cursor=${cursor}` : ''}`, shopKey);
      const page = (await response.json()) as { data: Array<{ error_message: string }>; next_cursor: string | null };
      messages.push(...page.data.map((record) => record.error_message));
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(messages).toEqual(['m0', 'm1', 'm2', 'm3', 'm4']);
    const recent = (await (await get(`/api/v1/sites/${shop}/error-reports?since=2026-04-01T00:00:00Z`, shopKey)).json()) as {
      data: Array<{ error_message: string }>;
    };
    expect(recent.data.map((record) => record.error_message)).toEqual(['m3', 'm4']);
  });

  test.each(['limit=0', 'limit=abc', 'limit=5000', 'since=yesterday', 'cursor=-1'])('a bad query (%s) is 400 bad_request', async (query) => {
    const response = await get(`/api/v1/sites/${shop}/csp-reports?${query}`, shopKey);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { code: 'bad_request' } });
  });

  test('the summary groups errors by fingerprint and CSP violations by directive and blocked host', async () => {
    const at = Date.now();
    const stack = 'TypeError: x\n    at checkout (https://shop.example/app.js:10:5)';
    await collector.insertErrors(
      shop,
      [
        { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'Item 1 missing', stack, count: 3 },
        { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'Item 2 missing', stack },
        { error_type: 'resource_error', error_message: 'img failed to load', source_url: 'https://cdn.example/a.png' },
      ],
      at,
    );
    const violation = (directive: string, blocked: string) => ({
      report_type: 'csp-violation',
      document_uri: 'https://shop.example/',
      effective_directive: directive,
      violated_directive: directive,
      blocked_uri: blocked,
    });
    await collector.insertCsp(
      shop,
      [violation('img-src', 'https://cdn.example/a.png'), violation('img-src', 'https://cdn.example/b.png'), violation('script-src', 'inline')],
      at,
    );
    const summary = (await (await get(`/api/v1/sites/${shop}/summary`, shopKey)).json()) as Summary;
    expect(summary.errors.map((group) => [group.error_type, group.reports, group.count])).toEqual([
      ['javascript_error', 2, 4],
      ['resource_error', 1, 1],
    ]);
    expect(summary.csp).toEqual([
      { directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 2 },
      { directive: 'script-src', blocked_host: 'inline', disposition: 'report', reports: 1 },
    ]);
  });

  test('the summary p75 and rating shares per metric match a direct computation', async () => {
    // A fixed pseudo-random spread of values around each metric's thresholds.
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    const values: Record<string, number[]> = {};
    for (let i = 0; i < 137; i++) {
      const metrics: Record<string, { value: number }> = {};
      for (const [name, [, poor]] of VITALS_THRESHOLDS) {
        const value = Math.round(random() * poor * 1.6 * 1000) / 1000;
        (values[name] ??= []).push(value);
        metrics[name] = { value };
      }
      await collector.upsertSession(shop, { session_id: `s${i}`, metrics }, Date.now());
    }
    // An update replaces a value: the old one must not count.
    await collector.upsertSession(shop, { session_id: 's0', metrics: { LCP: { value: 99_999 } } }, Date.now());
    values.LCP![0] = 99_999;

    const summary = (await (await get(`/api/v1/sites/${shop}/summary`, shopKey)).json()) as Summary;
    for (const [name, [good, poor]] of VITALS_THRESHOLDS) {
      const sorted = [...values[name]!].sort((a, b) => a - b);
      const expected = {
        samples: 137,
        p75: sorted[Math.ceil(sorted.length * 0.75) - 1],
        good: Number((sorted.filter((value) => value <= good).length / 137).toFixed(4)),
        needs_improvement: Number((sorted.filter((value) => value > good && value <= poor).length / 137).toFixed(4)),
        poor: Number((sorted.filter((value) => value > poor).length / 137).toFixed(4)),
      };
      expect(summary.vitals[name]).toEqual(expected);
    }
  });

  test('with since in the middle of a day, the summary counts exactly the reports received since', async () => {
    const hour = 3_600_000;
    const start = Date.parse('2026-03-01T00:00:00Z');
    for (let i = 0; i < 72; i++) {
      const receivedAt = start + i * hour;
      await collector.insertErrors(
        shop,
        [{ error_type: 'js', error_message: `kind ${i % 3}`, count: 1 + (i % 2) }],
        receivedAt,
      );
      await collector.insertCsp(
        shop,
        [{ report_type: 'csp-violation', document_uri: 'https://shop.example/', effective_directive: 'img-src', blocked_uri: `https://cdn${i % 2}.example/x` }],
        receivedAt,
      );
    }
    for (const since of ['2026-03-01T00:00:00Z', '2026-03-02T13:30:00Z', '2026-03-03T23:00:00Z', '2026-03-09T00:00:00Z']) {
      const summary = (await (await get(`/api/v1/sites/${shop}/summary?since=${since}`, shopKey)).json()) as Summary;
      const reports = await collector.stored('errors', shop, { since: Date.parse(since), limit: 1000 });
      const expected = new Map<string, { reports: number; count: number }>();
      for (const report of reports) {
        const group = expected.get(report.error_message) ?? { reports: 0, count: 0 };
        group.reports += 1;
        group.count += report.count ?? 1;
        expected.set(report.error_message, group);
      }
      expect(Object.fromEntries(summary.errors.map((group) => [group.error_message.replace(/\d+/, '<n>'), { reports: group.reports, count: group.count }]))).toEqual(
        Object.fromEntries(
          [...expected].reduce((merged, [message, group]) => {
            // Messages differing only in a number are one fingerprint.
            const key = message.replace(/\d+/, '<n>');
            const sum = merged.get(key) ?? { reports: 0, count: 0 };
            merged.set(key, { reports: sum.reports + group.reports, count: sum.count + group.count });
            return merged;
          }, new Map<string, { reports: number; count: number }>()),
        ),
      );
      const csp = await collector.stored('csp', shop, { since: Date.parse(since), limit: 1000 });
      expect(summary.csp.reduce((total, group) => total + group.reports, 0)).toBe(csp.length);
    }
  });

  test('the test reports of sitebeacon check (connectivity_check) are stored and listed, but not counted in the summary', async () => {
    await collector.insertErrors(shop, [
      { error_type: 'connectivity_check', error_message: 'sitebeacon check from ci' },
      { error_type: 'javascript_error', error_message: 'x is not defined' },
    ]);
    const summary = (await (await get(`/api/v1/sites/${shop}/summary`, shopKey)).json()) as Summary;
    expect(summary.errors.map((group) => group.error_type)).toEqual(['javascript_error']);
    const listed = (await (await get(`/api/v1/sites/${shop}/error-reports`, shopKey)).json()) as { data: Array<{ error_type: string }> };
    expect(listed.data.map((record) => record.error_type)).toEqual(['connectivity_check', 'javascript_error']);
  });

  test('a site with no data has an empty summary', async () => {
    const summary = (await (await get(`/api/v1/sites/${blog}/summary`, installationKey)).json()) as Summary;
    expect(summary.errors).toEqual([]);
    expect(summary.csp).toEqual([]);
    expect(summary.vitals.LCP).toEqual({ samples: 0, p75: null, good: 0, needs_improvement: 0, poor: 0 });
  });
});
