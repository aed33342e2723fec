import { describe, expect } from 'vitest';
import { DEFAULT_SITE_KEY } from '../../core/records';
import { p75Rank } from '../../core/vitals';
import { describeCountedOnceContract } from './countedOnce.contract';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

const DAY = 86_400_000;

/**
 * The dashboard's reads in the store contract (store/contract.ts: errors.daily/hourly/sessions/latest/breakdown,
 * csp.daily/hourly, performance.daily/hourly/metricDaily/pages), run by describeStoreContract (store.contract.ts)
 * with its fresh store for each test; and what Activity counts (countedOnce.contract.ts).
 *
 * @example
 * describeDashboardReadsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeDashboardReadsContract = (test: StoreTest) =>
  describe('dashboard reads', () => {
    const now = Date.UTC(2026, 5, 10, 12);
    const day = (n: number) => Date.UTC(2026, 5, 10 + n);

    test('error daily series: per UTC day, of all groups or one, exact from since', async ({ store, seed }) => {
      const a = { error_type: 'javascript_error', error_message: 'a broke', session_id: 's1', page_url: 'https://shop.example/a' };
      const b = { error_type: 'javascript_error', error_message: 'b broke' };
      await seed.insertErrors(DEFAULT_SITE_KEY, [a, { ...a, count: 2 }, b], now - 2 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [a], now - 2 * DAY + 3_600_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [b, b], now);
      expect(await store.errors.daily(DEFAULT_SITE_KEY)).toEqual([
        { day: day(-2), reports: 4, count: 5 },
        { day: day(0), reports: 2, count: 2 },
      ]);
      // since inside day -2: only what came after it on that day.
      expect(await store.errors.daily(DEFAULT_SITE_KEY, { since: now - 2 * DAY + 1 })).toEqual([
        { day: day(-2), reports: 1, count: 1 },
        { day: day(0), reports: 2, count: 2 },
      ]);
      const [groupA] = (await store.errors.groups(DEFAULT_SITE_KEY, {})).filter((group) => group.error_message == 'a broke');
      expect(await store.errors.daily(DEFAULT_SITE_KEY, { fingerprint: groupA!.fingerprint })).toEqual([{ day: day(-2), reports: 3, count: 4 }]);
      expect(await store.errors.groups(DEFAULT_SITE_KEY, { fingerprint: groupA!.fingerprint })).toEqual([groupA]);
      expect(await store.errors.groups(DEFAULT_SITE_KEY, { fingerprint: 'none' })).toEqual([]);
    });

    test("a group's texts are its latest report's in range, ties in count go to the last seen, then by fingerprint", async ({ store, seed }) => {
      const stack = 'TypeError: x\n    at checkout (https://shop.example/app.js:10:5)';
      const item = (n: number) => ({ error_type: 'javascript_error', error_name: 'TypeError', error_message: `Item ${n} missing`, stack });
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(1)], now - 3 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(2), item(3)], now - 2 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'resource_error', error_message: 'b.png failed' }], now - 2 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'resource_error', error_message: 'a.png failed' }], now - 2 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'resource_error', error_message: 'c.png failed' }], now - DAY);
      for (const since of [undefined, now - 3 * DAY + 1, now - 2 * DAY]) {
        const [item, last, ...tied] = await store.errors.groups(DEFAULT_SITE_KEY, { since });
        const reports = since === undefined ? 3 : 2;
        expect(item).toMatchObject({ error_message: 'Item 3 missing', reports, count: reports, last_seen: now - 2 * DAY });
        // Three groups of one report: the last seen first, then the two seen at one time by fingerprint.
        expect(last).toMatchObject({ error_message: 'c.png failed', last_seen: now - DAY });
        expect(tied.map((group) => group.error_message).sort()).toEqual(['a.png failed', 'b.png failed']);
        expect(tied.map((group) => group.fingerprint)).toEqual(tied.map((group) => group.fingerprint).sort());
      }
      const [group] = await store.errors.groups(DEFAULT_SITE_KEY, { since: now - 3 * DAY + 1, fingerprint: (await store.errors.groups(DEFAULT_SITE_KEY))[0]!.fingerprint });
      expect(group).toMatchObject({ error_message: 'Item 3 missing', reports: 2, first_seen: now - 2 * DAY });
    });

    test("one error group's sessions, latest report and its pages and browsers", async ({ store, seed }) => {
      const report = (page: string, session?: string, message = 'x broke') => ({ error_type: 'js', error_message: message, page_url: page, session_id: session, stack: `at ${page}` });
      await seed.insertErrors(DEFAULT_SITE_KEY, [report('https://s.example/a', 's1'), report('https://s.example/a', 's2')], now - DAY, 'Firefox/128');
      await seed.insertErrors(DEFAULT_SITE_KEY, [report('https://s.example/b', 's1'), report('https://s.example/c')], now, 'Chrome/130');
      await seed.insertErrors(DEFAULT_SITE_KEY, [report('https://s.example/z', 's9', 'other')], now);
      const [group] = (await store.errors.groups(DEFAULT_SITE_KEY, {})).filter((each) => each.error_message == 'x broke');
      const fingerprint = group!.fingerprint;
      expect(await store.errors.sessions(DEFAULT_SITE_KEY, { fingerprint })).toBe(2);
      expect(await store.errors.sessions(DEFAULT_SITE_KEY, { fingerprint, since: now })).toBe(1);
      expect(await store.errors.latest(DEFAULT_SITE_KEY, fingerprint)).toMatchObject({ page_url: 'https://s.example/c', stack: 'at https://s.example/c' });
      expect(await store.errors.latest(DEFAULT_SITE_KEY, 'none')).toBeUndefined();
      expect(await store.errors.breakdown(DEFAULT_SITE_KEY, { fingerprint, field: 'page_url', limit: 10 })).toEqual([
        { value: 'https://s.example/a', reports: 2 },
        { value: 'https://s.example/b', reports: 1 },
        { value: 'https://s.example/c', reports: 1 },
      ]);
      expect(await store.errors.breakdown(DEFAULT_SITE_KEY, { fingerprint, field: 'user_agent', since: now, limit: 1 })).toEqual([{ value: 'Chrome/130', reports: 2 }]);
    });

    test('CSP violations per day, and page views per day', async ({ store, seed }) => {
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/a.png'), violation('img-src', 'inline')], now - DAY);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/a.png'), { report_type: 'deprecation', body: {} }], now);
      expect(await store.csp.daily(DEFAULT_SITE_KEY)).toEqual([{ day: day(-1), reports: 2 }, { day: day(0), reports: 1 }]);
      expect(await store.csp.daily(DEFAULT_SITE_KEY, { since: now })).toEqual([{ day: day(0), reports: 1 }]);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p1', metrics: { LCP: { value: 1 } } }, now - DAY);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p1', metrics: { CLS: { value: 0 } } }, now);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p2', metrics: {} }, now);
      expect(await store.performance.daily(DEFAULT_SITE_KEY)).toEqual([{ day: day(-1), sessions: 1 }, { day: day(0), sessions: 1 }]);
      expect(await store.performance.daily(DEFAULT_SITE_KEY, { since: now })).toEqual([{ day: day(0), sessions: 1 }]);
    });

    test('errors, CSP violations and page views per UTC hour, exact from since; errors of all groups or one', async ({ store, seed }) => {
      const HOUR = 3_600_000;
      const a = { error_type: 'javascript_error', error_message: 'a broke' };
      await seed.insertErrors(DEFAULT_SITE_KEY, [a, { ...a, count: 3 }], now - 2 * HOUR + 60_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'javascript_error', error_message: 'b broke' }], now - 2 * HOUR + 120_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [a], now + 59 * 60_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [a], now - 3 * HOUR);
      expect(await store.errors.hourly(DEFAULT_SITE_KEY, { since: now - 2 * HOUR })).toEqual([
        { hour: now - 2 * HOUR, reports: 3, count: 5 },
        { hour: now, reports: 1, count: 1 },
      ]);
      expect(await store.errors.hourly(DEFAULT_SITE_KEY, { since: now - 2 * HOUR + 90_000 })).toEqual([
        { hour: now - 2 * HOUR, reports: 1, count: 1 },
        { hour: now, reports: 1, count: 1 },
      ]);
      const [groupA] = (await store.errors.groups(DEFAULT_SITE_KEY, {})).filter((group) => group.error_message == 'a broke');
      expect(await store.errors.hourly(DEFAULT_SITE_KEY, { since: now - 2 * HOUR, fingerprint: groupA!.fingerprint })).toEqual([
        { hour: now - 2 * HOUR, reports: 2, count: 4 },
        { hour: now, reports: 1, count: 1 },
      ]);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/a.png'), { report_type: 'deprecation', body: {} }], now - HOUR + 1);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('script-src', 'inline')], now - 5 * HOUR);
      expect(await store.csp.hourly(DEFAULT_SITE_KEY, { since: now - 2 * HOUR })).toEqual([{ hour: now - HOUR, reports: 1 }]);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p1', metrics: { LCP: { value: 1 } } }, now - HOUR);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p1', metrics: { CLS: { value: 0 } } }, now + 1);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p2', metrics: {} }, now + 2);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'p0', metrics: {} }, now - 4 * HOUR);
      expect(await store.performance.hourly(DEFAULT_SITE_KEY, { since: now - 2 * HOUR })).toEqual([{ hour: now - HOUR, sessions: 1 }, { hour: now, sessions: 1 }]);
      expect(await store.performance.hourly(DEFAULT_SITE_KEY, { since: now - HOUR + 1 })).toEqual([{ hour: now, sessions: 1 }]);
    });

    test('daily p75 and per-page vitals: the value at the p75 rank, as core/vitals.ts computes it', async ({ store, seed }) => {
      const values = { [now - DAY]: [100, 900, 1200, 2600, 2700], [now]: [4100, 5000, 700, 300] } as Record<number, number[]>;
      let i = 0;
      for (const [at, list] of Object.entries(values)) {
        for (const value of list) {
          const page = i % 2 ? 'https://s.example/odd' : 'https://s.example/even';
          await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `s${i++}`, page_url: page, metrics: { LCP: { value }, CLS: { value: value / 10_000 } } }, Number(at));
        }
      }
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'bare', metrics: {} }, now);
      const p75 = (list: number[]) => [...list].sort((x, y) => x - y)[p75Rank(list.length)]!;
      expect(await store.performance.metricDaily(DEFAULT_SITE_KEY, { name: 'LCP' })).toEqual([
        { day: day(-1), samples: 5, p75: p75(values[now - DAY]!) },
        { day: day(0), samples: 4, p75: p75(values[now]!) },
      ]);
      expect(await store.performance.metricDaily(DEFAULT_SITE_KEY, { name: 'INP' })).toEqual([]);
      // The Web Vitals view's one read: the counts and the days of the two reads it stands for.
      expect(await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] })).toEqual({
        samples: 9, good: 5, needs_improvement: 2, poor: 2, p75: p75([...values[now - DAY]!, ...values[now]!]),
        daily: [
          { day: day(-1), samples: 5, p75: p75(values[now - DAY]!) },
          { day: day(0), samples: 4, p75: p75(values[now]!) },
        ],
      });
      for (const [name, thresholds] of [['LCP', [2500, 4000]], ['CLS', [0.1, 0.25]], ['INP', [200, 500]]] as const) {
        for (const since of [undefined, now - DAY + 1, now, now + 1]) {
          expect(await store.performance.metricCountsWithDays(DEFAULT_SITE_KEY, { name, thresholds, since })).toEqual({
            ...(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name, thresholds, since })),
            daily: await store.performance.metricDaily(DEFAULT_SITE_KEY, { name, since }),
          });
        }
      }
      const all = [...values[now - DAY]!, ...values[now]!];
      const even = all.filter((_, index) => index % 2 == 0);
      const odd = all.filter((_, index) => index % 2 == 1);
      const pages = await store.performance.pages(DEFAULT_SITE_KEY, { limit: 10 });
      expect(pages).toEqual([
        { route: '/even', page_url: 'https://s.example/even', sessions: 5, metrics: { LCP: { samples: 5, p75: p75(even) }, CLS: { samples: 5, p75: p75(even) / 10_000 } } },
        { route: '/odd', page_url: 'https://s.example/odd', sessions: 4, metrics: { LCP: { samples: 4, p75: p75(odd) }, CLS: { samples: 4, p75: p75(odd) / 10_000 } } },
        { route: '', page_url: '', sessions: 1, metrics: {} },
      ]);
      expect(await store.performance.pages(DEFAULT_SITE_KEY, { limit: 1, since: now })).toEqual([
        { route: '/even', page_url: 'https://s.example/even', sessions: 2, metrics: { LCP: { samples: 2, p75: p75([5000, 300]) }, CLS: { samples: 2, p75: p75([5000, 300]) / 10_000 } } },
      ]);
    });

    // The site page's Activity as it counts (docs/issues.md, "A resource a CSP blocked", "Bots").
    describeCountedOnceContract(test);
  });
