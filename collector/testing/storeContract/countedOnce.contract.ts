import { describe, expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ReceivedClient } from '../../core/records';
import { readDaily } from '../../reads/readDaily';
import type { StoreContext } from './storeContext';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const PAGE = 'https://shop.example/';
const PERSON: ReceivedClient = { browser: 'Firefox', os: 'Linux', device: 'desktop', bot: false };
const BOT: ReceivedClient = { browser: 'Googlebot', os: null, device: 'desktop', bot: true };
const load = (url: string, page = PAGE) => ({ error_type: 'resource_error', error_message: `${url} failed`, source_url: url, page_url: page });
const thrown = (message: string, count?: number) => ({ error_type: 'javascript_error', error_message: message, ...(count ? { count } : {}) });

/**
 * What the site page's Activity counts (docs/issues.md, "A resource a CSP blocked" and "Bots"), on
 * every store: a failed load a CSP violation explains counted once, as the violation
 * (core/countedOnce.ts), in the days, the hours, the totals and the previous range's; known bots'
 * errors left out unless the read includes them. Part of the store contract (store.contract.ts).
 *
 * @example
 * describeCountedOnceContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeCountedOnceContract = (test: StoreTest) =>
  describe('activity counts once, bots left out', () => {
    const now = Date.UTC(2026, 5, 10, 12, 30);

    const seedActivity = async ({ store, seed }: Pick<StoreContext, 'store' | 'seed'>) => {
      const site = await seed.addSite([]);
      const errors = (reports: object[], at: number, client = PERSON) =>
        store.errors.insert(site, reports.map((report) => newErrorReport(report as never)), { received_at: at, client });
      // Blocked, and reported twice: the load (a fragment on its page) and, a minute later, the
      // violation (WebKit's report-to writes the default port).
      await errors([load('https://ads.example/a.js', `${PAGE}#top`)], now - 2 * HOUR);
      await seed.insertCsp(site, [violation('script-src-elem', 'https://ads.example:443/a.js')], now - 2 * HOUR + MINUTE);
      // Failed on its own: no violation names its URL, though one arrived near it.
      await errors([load('https://cdn.example/b.png')], now - 2 * HOUR);
      // A violation of its URL eleven minutes later explains nothing: past one violation's copies.
      await errors([load('https://cdn.example/c.png')], now - 5 * HOUR);
      await seed.insertCsp(site, [violation('img-src', 'https://cdn.example/c.png')], now - 5 * HOUR + 11 * MINUTE);
      await errors([thrown('cart is empty', 3)], now - HOUR);
      // A bot's error, and a bot's blocked load with its violation.
      await errors([thrown('crawler tripped')], now - HOUR, BOT);
      await errors([load('https://ads.example/d.js')], now - 3 * HOUR, BOT);
      await seed.insertCsp(site, [violation('script-src-elem', 'https://ads.example/d.js')], now - 3 * HOUR - MINUTE);
      // The previous 24 hours: a blocked load whose violation arrived first.
      await seed.insertCsp(site, [violation('img-src', 'https://cdn.example/e.png')], now - 30 * HOUR);
      await errors([load('https://cdn.example/e.png')], now - 30 * HOUR + 5 * MINUTE);
      return site;
    };

    test('a failed load a violation explains counts once, as the violation, in days, hours, totals and the previous range', async ({ store, seed }) => {
      const site = await seedActivity({ store, seed });
      const view = await readDaily(store, { site_key: site }, { since: now - DAY, p75: false }, { now });
      // b.png, c.png and the thrown error (3 occurrences); a.js is the violation's, the bots' are left out.
      expect(view.totals).toEqual({ errors: 3, error_occurrences: 5, csp: 3, page_views: 0 });
      expect(view.previous).toMatchObject({ errors: 0, error_occurrences: 0, csp: 1 });
      const sum = (points: Array<{ errors: number; error_occurrences: number; csp: number }>) =>
        points.reduce((total, point) => ({ errors: total.errors + point.errors, error_occurrences: total.error_occurrences + point.error_occurrences, csp: total.csp + point.csp }), { errors: 0, error_occurrences: 0, csp: 0 });
      expect(sum(view.days)).toEqual({ errors: 3, error_occurrences: 5, csp: 3 });
      expect(sum(view.hours!)).toEqual({ errors: 3, error_occurrences: 5, csp: 3 });
      expect(view.hours!.find((point) => point.hour == new Date(now - 2.5 * HOUR).toISOString())).toMatchObject({ errors: 1, csp: 1 });
    });

    test("bots' errors count only when the read includes them; their blocked load still counts once", async ({ store, seed }) => {
      const site = await seedActivity({ store, seed });
      const view = await readDaily(store, { site_key: site }, { since: now - DAY, p75: false, bots: 'include' }, { now });
      expect(view.totals).toEqual({ errors: 4, error_occurrences: 6, csp: 3, page_views: 0 });
      expect(view.hours!.reduce((total, point) => total + point.errors, 0)).toBe(4);
      expect(view.days.reduce((total, point) => total + point.errors, 0)).toBe(4);
      // The issues list counts what Activity does: bots left out by default.
      const { rows } = await store.issues.list(site, { status: 'all', sort: 'occurrences', limit: 25, since: now - DAY, until: now });
      expect(rows.reduce((total, row) => total + row.occurrences, 0)).toBe(6); // a.js's failed load is its issue's occurrence
    });

    test('a burst of violations beside many failed loads: the loads within ten minutes either way, edges included, count once', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const insert = (at: number) => store.errors.insert(site, [newErrorReport(load('https://cdn.example/x.png') as never)], { received_at: at, client: PERSON });
      const blockedAt = now - 3 * HOUR + 5 * MINUTE;
      await seed.insertCsp(site, [violation('img-src', 'https://cdn.example/x.png')], blockedAt);
      // Many loads of the day before and one violation: a store may look near the violation only.
      for (let n = 0; n < 30; n++) await insert(now - 30 * HOUR + n * MINUTE);
      for (const at of [blockedAt - 9 * MINUTE, blockedAt + 10 * MINUTE, blockedAt + 10 * MINUTE + 1, blockedAt - 25 * MINUTE]) await insert(at);
      const { loads } = await store.errors.blockedLoads(site, { since: now - 2 * DAY, limit: 100 });
      expect(loads.map((each) => each.received_at)).toEqual(expect.arrayContaining([blockedAt - 9 * MINUTE, blockedAt + 10 * MINUTE]));
      expect(loads.map((each) => each.received_at)).toEqual([...loads.map((each) => each.received_at)].sort((a, b) => a - b));
      const view = await readDaily(store, { site_key: site }, { since: now - DAY, p75: false }, { now });
      expect(view.totals).toMatchObject({ errors: 2, csp: 1 });
      expect(view.previous).toMatchObject({ errors: 30, csp: 0 });
    });

    test("a report-only policy's violation blocked nothing: the failed load beside it is an error of its own", async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const at = now - 2 * HOUR;
      await store.errors.insert(site, [newErrorReport(load('https://cdn.example/r.png') as never)], { received_at: at, client: PERSON });
      await seed.insertCsp(site, [{ ...violation('img-src', 'https://cdn.example/r.png'), disposition: 'report' }], at + MINUTE);
      await store.errors.insert(site, [newErrorReport(load('https://cdn.example/s.png') as never)], { received_at: at, client: PERSON });
      await seed.insertCsp(site, [{ ...violation('img-src', 'https://cdn.example/s.png'), disposition: 'enforce' }], at + MINUTE);
      const view = await readDaily(store, { site_key: site }, { since: now - DAY, p75: false }, { now });
      expect(view.totals).toMatchObject({ errors: 1, error_occurrences: 1, csp: 2 });
    });

    test("the store's series leave bots out when asked, per day from the first day's since, per hour, of one group too", async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const insert = (reports: object[], at: number, client: ReceivedClient) =>
        store.errors.insert(site, reports.map((report) => newErrorReport(report as never)), { received_at: at, client });
      await insert([thrown('a', 2), thrown('b')], now - 2 * DAY, PERSON);
      await insert([thrown('a', 4)], now - 2 * DAY, BOT);
      await insert([thrown('a')], now - 2 * DAY - HOUR, BOT);
      await insert([thrown('a')], now, BOT);
      const since = now - 2 * DAY - 30 * MINUTE;
      const dayOf = (at: number) => Math.floor(at / DAY) * DAY;
      expect(await store.errors.daily(site, { since, withoutBots: true })).toEqual([{ day: dayOf(now - 2 * DAY), reports: 2, count: 3 }]);
      expect(await store.errors.daily(site, { since })).toEqual([
        { day: dayOf(now - 2 * DAY), reports: 3, count: 7 },
        { day: dayOf(now), reports: 1, count: 1 },
      ]);
      const [a] = (await store.errors.groups(site, {})).filter((group) => group.error_message == 'a');
      expect(await store.errors.daily(site, { since: 0, fingerprint: a!.fingerprint, withoutBots: true })).toEqual([{ day: dayOf(now - 2 * DAY), reports: 1, count: 2 }]);
      expect(await store.errors.hourly(site, { since: now - HOUR, withoutBots: true })).toEqual([]);
      expect(await store.errors.hourly(site, { since: now - HOUR })).toEqual([{ hour: now - 30 * MINUTE, reports: 1, count: 1 }]);
    });
  });
