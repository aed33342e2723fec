import { afterEach, beforeEach, expect, test } from 'vitest';
import { fingerprintOf } from '../core/fingerprint';
import { createTestCollector } from '../testing/testCollector';

const SHOP = 'https://shop.example';
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const CART = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined' };
const GTAG = { error_type: 'javascript_error', error_name: 'ReferenceError', error_message: 'gtag is not defined' };
const CHECK = { error_type: 'connectivity_check', error_message: 'sitebeacon check' };

let collector: ReturnType<typeof createTestCollector>;
let site: string;
let key: string;

const report = (body: Record<string, unknown>, userAgent: string) =>
  collector.post(`/api/error-reports/${site}`, { page_url: `${SHOP}/cart`, ...body }, { origin: SHOP, 'user-agent': userAgent });
const read = async (path: string) => {
  const response = await collector.request(`/api/v1/sites/${site}/issues${path}`, { headers: { authorization: `Bearer ${key}` } });
  expect(response.status, await response.clone().text()).toBe(200);
  return (await response.json()) as { bot_reports: number; items?: Array<{ fingerprint: string; occurrences: number }>; occurrences?: number };
};

beforeEach(async () => {
  collector = createTestCollector();
  site = await collector.addSite([SHOP], 'Shop');
  key = await collector.apiKey(site);
});
afterEach(async () => {
  expect(collector.errors).toEqual([]);
  await collector.close();
});

test("bots' reports left out are counted in bot_reports (docs/issues.md, \"Bots\"): the list's, one issue's; 0 with bots=include; never a connectivity check's", async () => {
  for (const [body, agent] of [[CART, FIREFOX], [CART, GOOGLEBOT], [GTAG, GOOGLEBOT], [GTAG, GOOGLEBOT], [CHECK, GOOGLEBOT]] as const) {
    expect((await report(body, agent)).status).toBe(202);
  }
  const list = await read('');
  expect(list.items!.map((item) => [item.fingerprint, item.occurrences])).toEqual([[fingerprintOf(CART), 1]]);
  expect(list.bot_reports).toBe(3);
  expect((await read('?q=gtag')).bot_reports).toBe(2);
  expect((await read('?page=https%3A%2F%2Fshop.example%2Fother')).bot_reports).toBe(0);
  expect((await read('?status=resolved')).bot_reports).toBe(0);
  const included = await read('?bots=include');
  expect(included.bot_reports).toBe(0);
  expect(included.items!.map((item) => item.occurrences).sort()).toEqual([2, 2]);
  expect(await read(`/${fingerprintOf(CART)}`)).toMatchObject({ occurrences: 1, bot_reports: 1 });
  expect(await read(`/${fingerprintOf(CART)}?bots=include`)).toMatchObject({ occurrences: 2, bot_reports: 0 });
  expect(await read(`/${fingerprintOf(GTAG)}`)).toMatchObject({ occurrences: 0, bot_reports: 2 });
});

test("the site page's Activity (GET .../daily) counts what the issues list counts: bots' errors only with bots=include; connectivity checks never", async () => {
  for (const [body, agent] of [[CART, FIREFOX], [CART, GOOGLEBOT], [GTAG, GOOGLEBOT], [CHECK, GOOGLEBOT], [CHECK, FIREFOX]] as const) {
    expect((await report(body, agent)).status).toBe(202);
  }
  const daily = async (query: string) => {
    const response = await collector.request(`/api/v1/sites/${site}/daily?p75=false${query}`, { headers: { authorization: `Bearer ${key}` } });
    return { status: response.status, body: (await response.json()) as { totals: { errors: number }; hours: Array<{ errors: number }> | null; error?: { code: string } } };
  };
  const since = `&since=${encodeURIComponent(new Date(Date.now() - 86_400_000).toISOString())}`;
  const left = await daily(since);
  expect(left.body.totals.errors).toBe(1);
  expect(left.body.hours!.reduce((total, hour) => total + hour.errors, 0)).toBe(1);
  expect((await read('')).items!.reduce((total, item) => total + item.occurrences, 0)).toBe(1);
  expect((await daily(`${since}&bots=include`)).body.totals.errors).toBe(3);
  expect((await daily('&bots=include')).body.totals.errors).toBe(3);
  const refused = await daily('&bots=all');
  expect(refused.status).toBe(400);
  expect(refused.body.error?.code).toBe('bad_request');
});
