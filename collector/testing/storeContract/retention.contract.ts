import { describe, expect } from 'vitest';
import { DEFAULT_SITE_KEY } from '../../core/records';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

const DAY = 86_400_000;

/**
 * The retention part of the store contract (store/contract/retention.ts, RetentionStore), run by
 * describeStoreContract (store.contract.ts) with its fresh store for each test.
 *
 * @example
 * describeRetentionContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeRetentionContract = (test: StoreTest) =>
  describe('retention', () => {
    test('deleteBefore removes the oldest reports and sessions in batches, and the summary counts what remains', async ({ store, seed }) => {
      const cutoff = Date.UTC(2026, 5, 10, 12);
      const stack = 'TypeError: x\n    at checkout (https://shop.example/app.js:10:5)';
      const item = (n: number, count?: number) => ({ error_type: 'javascript_error', error_message: `Item ${n} missing`, stack, count });
      const shop = await seed.addSite(['https://shop.example']);
      // Old days, the cutoff's own day on both sides of it, and after.
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(1, 5), { error_type: 'resource_error', error_message: 'img failed' }], cutoff - 9 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(2), item(3)], cutoff - 2 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(4, 2)], cutoff - 3_600_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(5, 3)], cutoff + 3_600_000);
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(6)], cutoff + DAY);
      await seed.insertErrors(shop, [item(7)], cutoff - 4 * DAY);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/a.png'), violation('img-src', 'https://old.example/b.png')], cutoff - 5 * DAY);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/c.png'), { report_type: 'deprecation' }], cutoff - 1000);
      await seed.insertCsp(DEFAULT_SITE_KEY, [violation('img-src', 'https://cdn.example/d.png')], cutoff + 1000);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'old', metrics: { LCP: { value: 4000 } } }, cutoff - 3 * DAY);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'revisited', metrics: { LCP: { value: 1000 } } }, cutoff - 3 * DAY);
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 'revisited', metrics: { CLS: { value: 0.1 } } }, cutoff + 1000);
      await seed.upsertSession(shop, { session_id: 'gone', metrics: { LCP: { value: 3000 } } }, cutoff - DAY);

      const batches: number[] = [];
      for (let deleted = 3; deleted == 3; ) batches.push((deleted = await store.retention.deleteBefore(cutoff, { limit: 3 })));
      // 5 + 1 error reports, 4 CSP reports, 2 sessions: 12 rows, at most 3 at a time.
      expect(batches.reduce((sum, deleted) => sum + deleted, 0)).toBe(12);
      expect(Math.max(...batches)).toBe(3);
      expect(await store.retention.deleteBefore(cutoff, { limit: 3 })).toBe(0);

      expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((record) => record.error_message)).toEqual(['Item 5 missing', 'Item 6 missing']);
      expect(await seed.stored('errors', shop)).toEqual([]);
      expect(await store.errors.groups(DEFAULT_SITE_KEY, {})).toEqual([
        expect.objectContaining({ reports: 2, count: 4, first_seen: cutoff + 3_600_000, last_seen: cutoff + DAY }),
      ]);
      expect(await store.errors.groups(DEFAULT_SITE_KEY, { since: cutoff - 10 * DAY })).toEqual(await store.errors.groups(DEFAULT_SITE_KEY, {}));
      expect(await store.errors.groups(shop, {})).toEqual([]);
      expect((await seed.stored('csp', DEFAULT_SITE_KEY)).map((record) => record.blocked_uri)).toEqual(['https://cdn.example/d.png']);
      expect(await store.csp.groups(DEFAULT_SITE_KEY, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 }]);
      expect(await store.csp.evidence(DEFAULT_SITE_KEY, { limit: 10 })).toEqual([
        { directive: 'img-src', blocked_uri: 'https://cdn.example/d.png', document_uri: 'https://shop.example/', reports: 1 },
      ]);
      expect((await seed.stored('performance', DEFAULT_SITE_KEY)).map((session) => session.session_id)).toEqual(['revisited']);
      expect(await seed.stored('performance', shop)).toEqual([]);
      expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] })).toMatchObject({ samples: 1, p75: 1000 });
    });

    test("after deleteBefore the dashboard's reads count what remains, and a merged CSP violation is deleted and counted once", async ({ store, seed }) => {
      const cutoff = Date.UTC(2026, 5, 10, 12);
      const day = (n: number) => Date.UTC(2026, 5, 10 + n);
      const shop = await seed.addSite(['https://shop.example']);
      const report = (page: string, session: string) => ({ error_type: 'javascript_error', error_message: 'x broke', page_url: page, session_id: session });
      await seed.insertErrors(shop, [report('https://shop.example/a', 's1')], cutoff - 2 * DAY, 'Firefox/128');
      await seed.insertErrors(shop, [report('https://shop.example/b', 's2')], cutoff - 3_600_000, 'Firefox/128');
      await seed.insertErrors(shop, [report('https://shop.example/c', 's3'), report('https://shop.example/c', 's3')], cutoff + 3_600_000, 'Chrome/130');
      // Each violation arrives twice, the beacon's copy and the browser's report, and is stored once.
      const copy = (source: 'beacon' | 'report-uri', blocked: string) => ({ ...violation('img-src', blocked), line_number: 3, source });
      for (const [at, blocked] of [[cutoff - DAY, 'https://old.example/x.png'], [cutoff + 1000, 'https://cdn.example/y.png']] as const) {
        expect(await seed.insertCsp(shop, [copy('beacon', blocked)], at)).toBe(1);
        expect(await seed.insertCsp(shop, [copy('report-uri', blocked)], at + 500)).toBe(0);
      }
      await seed.upsertSession(shop, { session_id: 'gone', page_url: 'https://shop.example/a', metrics: { LCP: { value: 4000 } } }, cutoff - 2 * DAY);
      await seed.upsertSession(shop, { session_id: 'kept', page_url: 'https://shop.example/b', metrics: { LCP: { value: 1000 } } }, cutoff - 2 * DAY);
      await seed.upsertSession(shop, { session_id: 'kept', metrics: { CLS: { value: 0.1 } } }, cutoff + 1000);
      await seed.upsertSession(shop, { session_id: 'new', page_url: 'https://shop.example/c', metrics: { LCP: { value: 2000 } } }, cutoff + 1000);

      // 2 error reports, 1 CSP report (of 2 copies), 1 session.
      expect(await store.retention.deleteBefore(cutoff, { limit: 1000 })).toBe(4);

      const [group] = await store.errors.groups(shop, {});
      expect(group).toMatchObject({ reports: 2, count: 2, first_seen: cutoff + 3_600_000 });
      for (const since of [undefined, cutoff - 10 * DAY]) {
        expect(await store.errors.daily(shop, { since })).toEqual([{ day: day(0), reports: 2, count: 2 }]);
        expect(await store.errors.daily(shop, { since, fingerprint: group!.fingerprint })).toEqual([{ day: day(0), reports: 2, count: 2 }]);
        expect(await store.csp.daily(shop, { since })).toEqual([{ day: day(0), reports: 1 }]);
      }
      expect(await store.errors.sessions(shop, { fingerprint: group!.fingerprint })).toBe(1);
      expect(await store.errors.latest(shop, group!.fingerprint)).toMatchObject({ page_url: 'https://shop.example/c' });
      expect(await store.errors.breakdown(shop, { fingerprint: group!.fingerprint, field: 'user_agent', limit: 10 })).toEqual([{ value: 'Chrome/130', reports: 2 }]);
      expect(await seed.stored('csp', shop)).toMatchObject([{ blocked_uri: 'https://cdn.example/y.png', sources: ['beacon', 'report-uri'] }]);
      expect(await store.csp.groups(shop, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 1 }]);
      // A session is kept whole while it was updated after the cutoff, its older metrics too.
      expect(await store.performance.daily(shop)).toEqual([{ day: day(-2), sessions: 1 }, { day: day(0), sessions: 1 }]);
      expect(await store.performance.metricDaily(shop, { name: 'LCP' })).toEqual([
        { day: day(-2), samples: 1, p75: 1000 },
        { day: day(0), samples: 1, p75: 2000 },
      ]);
      expect(await store.performance.pages(shop, { limit: 10 })).toEqual([
        { route: '/b', page_url: 'https://shop.example/b', sessions: 1, metrics: { LCP: { samples: 1, p75: 1000 }, CLS: { samples: 1, p75: 0.1 } } },
        { route: '/c', page_url: 'https://shop.example/c', sessions: 1, metrics: { LCP: { samples: 1, p75: 2000 } } },
      ]);
    });
  });
