import fc from 'fast-check';
import { describe, expect } from 'vitest';
import { COPY_WINDOW_MS, CSP_SOURCES } from '../../core/cspCopies';
import { DEFAULT_SITE_KEY, type CspReport, type CspSource } from '../../core/records';
import { seedStore } from '../seed';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

/**
 * CSP reports (store/contract/cspReports.ts), part of the store contract (store.contract.ts), run
 * by describeStoreContract with its fresh store for each test.
 *
 * @example
 * describeCspReportsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeCspReportsContract = (test: StoreTest) =>
  describe('CSP reports', () => {

    test('CSP reports: list, groups by directive and blocked host, and bounded evidence with a sample each', async ({ store, seed }) => {
      const now = Date.UTC(2026, 5, 10, 12);
      await seed.insertCsp(
        DEFAULT_SITE_KEY,
        [
          violation('img-src', 'https://cdn.example/a.png'),
          violation('img-src', 'https://cdn.example/b.png'),
          violation('img-src', 'https://cdn.example/c.png'),
          violation('script-src-elem', 'inline'),
          violation('connect-src', 'https://api.example/x', 'https://shop.example/cart'),
        ],
        now,
      );
      await seed.insertCsp(DEFAULT_SITE_KEY, [{ report_type: 'deprecation', body: { id: 'x' } }], now);
      expect((await seed.stored('csp', DEFAULT_SITE_KEY)).map((record) => `${record.report_type} ${record.blocked_host}`)).toEqual([
        'csp-violation cdn.example', 'csp-violation cdn.example', 'csp-violation cdn.example', 'csp-violation inline',
        'csp-violation api.example', 'deprecation ',
      ]);
      expect(await store.csp.groups(DEFAULT_SITE_KEY, {})).toEqual([
        { directive: 'img-src', blocked_host: 'cdn.example', disposition: 'report', reports: 3 },
        { directive: 'connect-src', blocked_host: 'api.example', disposition: 'report', reports: 1 },
        { directive: 'script-src-elem', blocked_host: 'inline', disposition: 'report', reports: 1 },
      ]);
      const evidence = await store.csp.evidence(DEFAULT_SITE_KEY, { limit: 2 });
      expect(evidence).toHaveLength(2);
      expect(evidence[0]).toMatchObject({ directive: 'img-src', reports: 3, document_uri: 'https://shop.example/' });
      expect(evidence[0]!.blocked_uri).toMatch(/^https:\/\/cdn\.example\/[abc]\.png$/);
      expect(evidence[1]).toMatchObject({ directive: 'connect-src', blocked_uri: 'https://api.example/x', document_uri: 'https://shop.example/cart', reports: 1 });
    });

    // docs/csp-reports.md, "Blocked first".
    test('groups per disposition, enforced first whatever their counts; a merged copy moves its count to the group its fields name', async ({ store, seed }) => {
      const now = Date.UTC(2026, 5, 10, 12);
      const shop = await seed.addSite(['https://shop.example']);
      const checkout = 'https://shop.example/checkout';
      await seed.insertCsp(
        shop,
        [
          ...Array.from({ length: 5 }, () => ({ ...violation('img-src', 'https://ads.example/a.png'), disposition: 'report' })),
          { ...violation('script-src-elem', 'https://js.payments.example/v3', checkout), disposition: 'enforce' },
          { ...violation('img-src', 'https://ads.example/b.png'), disposition: 'enforce' },
          { ...violation('img-src', 'https://ads.example/c.png'), disposition: 'unknown' },
        ],
        now,
      );
      // Another day: the per-day aggregate and the range's first day read together.
      await seed.insertCsp(shop, [{ ...violation('script-src-elem', 'https://js.payments.example/v3', checkout), disposition: 'enforce' }], now + 86_400_000);
      expect(await store.csp.groups(shop, { since: now - 3_600_000 })).toEqual([
        { directive: 'script-src-elem', blocked_host: 'js.payments.example', disposition: 'enforce', reports: 2 },
        { directive: 'img-src', blocked_host: 'ads.example', disposition: 'enforce', reports: 1 },
        { directive: 'img-src', blocked_host: 'ads.example', disposition: 'report', reports: 6 },
      ]);
      // The beacon's copy said report, the browser's own report (whose fields the stored one takes) enforce.
      const copy = { ...violation('font-src', 'https://fonts.example/a.woff2'), line_number: 3, column_number: 1 };
      expect(await seed.insertCsp(shop, [{ ...copy, source: 'beacon', disposition: 'report' }], now)).toBe(1);
      expect(await seed.insertCsp(shop, [{ ...copy, source: 'report-to', disposition: 'enforce' }], now + 1_000)).toBe(0);
      const fonts = (await store.csp.groups(shop, { since: now - 3_600_000 })).filter((group) => group.directive == 'font-src');
      expect(fonts).toEqual([{ directive: 'font-src', blocked_host: 'fonts.example', disposition: 'enforce', reports: 1 }]);
      expect(await store.csp.daily(shop, { since: now - 3_600_000 })).toEqual([
        { day: Math.floor(now / 86_400_000) * 86_400_000, reports: 9 },
        { day: (Math.floor(now / 86_400_000) + 1) * 86_400_000, reports: 1 },
      ]);
    });

    // One violation, one count (README, "CSP reports"; store/contract/cspReports.ts, CspReportStore.insert;
    // core/cspCopies.ts).
    describe('copies of one violation', () => {
      const now = Date.UTC(2026, 5, 10, 12);
      const copy = (source: CspSource, fields: Partial<CspReport> = {}): CspReport => ({
        ...violation('img-src', 'https://cdn.example.net/x.png', 'https://shop.example/cart?step=2'),
        line_number: 9,
        column_number: 27,
        source,
        ...fields,
      });

      test("the beacon's copy, then the browser's report: stored once with both sources, the browser's fields, the first arrival's time; counted once", async ({ store, seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        expect(await seed.insertCsp(shop, [copy('beacon', { disposition: 'enforce', script_sample: 'x' })], now, 'UA beacon')).toBe(1);
        expect(await seed.insertCsp(shop, [copy('report-uri', { status_code: 0, original_policy: "img-src 'self'" })], now + 2_000, 'UA native')).toBe(0);
        const stored = await seed.stored('csp', shop);
        expect(stored).toHaveLength(1);
        expect(stored[0]).toMatchObject({ source: 'report-uri', sources: ['beacon', 'report-uri'], status_code: 0, original_policy: "img-src 'self'" });
        expect(stored[0]).toMatchObject({ received_at: new Date(now).toISOString(), user_agent: 'UA beacon' });
        expect(stored[0]).not.toHaveProperty('disposition');
        expect(stored[0]).not.toHaveProperty('script_sample');
        // Counted by the browser's fields: the beacon's `enforce` is replaced by a report that does not say.
        expect(await store.csp.groups(shop, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example.net', disposition: 'report', reports: 1 }]);
        expect((await store.csp.evidence(shop, { limit: 10 })).map((group) => group.reports)).toEqual([1]);
      });

      test("the browser's report, then the beacon's copy: the browser's fields stay, the beacon's source is added", async ({ seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        expect(await seed.insertCsp(shop, [copy('report-to', { status_code: 200, age: 10 })], now)).toBe(1);
        expect(await seed.insertCsp(shop, [copy('beacon', { status_code: 0 })], now + 1_000)).toBe(0);
        const stored = await seed.stored('csp', shop);
        expect(stored).toMatchObject([{ source: 'report-to', sources: ['report-to', 'beacon'], status_code: 200, age: 10 }]);
      });

      test('never merged: copies from one side, report-uri with report-to, another site, another violation, outside the window, no source', async ({ store, seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        const blog = await seed.addSite(['https://shop.example']);
        expect(await seed.insertCsp(shop, [copy('beacon'), copy('beacon')], now)).toBe(2);
        expect(await seed.insertCsp(shop, [copy('report-uri'), copy('report-uri'), copy('report-to'), copy('report-to')], now)).toBe(2);
        expect(await seed.insertCsp(blog, [copy('report-uri')], now)).toBe(1);
        expect(await seed.insertCsp(shop, [copy('report-uri', { line_number: 10 }), copy('report-uri', { blocked_uri: 'https://cdn.example.net/y.png' })], now)).toBe(2);
        expect(await seed.insertCsp(shop, [copy('beacon')], now + COPY_WINDOW_MS + 1)).toBe(1);
        expect(await seed.insertCsp(shop, [copy('beacon')], now - COPY_WINDOW_MS - 1)).toBe(1);
        expect(await seed.insertCsp(shop, [copy('beacon', { source: undefined }), copy('report-uri', { source: undefined })], now)).toBe(2);
        const stored = await seed.stored('csp', shop);
        expect(stored.map((record) => record.sources ?? null)).toEqual([
          ['beacon', 'report-uri'], ['beacon', 'report-uri'], ['report-to'], ['report-to'], ['report-uri'], ['report-uri'],
          ['beacon'], ['beacon'], null, null,
        ]);
        expect((await store.csp.groups(shop, {})).reduce((sum, group) => sum + group.reports, 0)).toBe(stored.length);
      });

      test("a popular violation (a report from each of 150 visitors, then each visitor's beacon copy): each copy merges into the oldest report still awaiting one", async ({ seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        const visitors = Array.from({ length: 150 }, (_, index) => index);
        for (const index of visitors) expect(await seed.insertCsp(shop, [copy('report-to', { age: index })], now + index)).toBe(1);
        for (const index of visitors) expect(await seed.insertCsp(shop, [copy('beacon')], now + 60_000 + index)).toBe(0);
        const stored = await seed.stored('csp', shop);
        expect(stored.map((record) => [record.age, record.sources])).toEqual(visitors.map((index) => [index, ['report-to', 'beacon']]));
        // Every report holds both sides now: a further copy is a report of its own.
        expect(await seed.insertCsp(shop, [copy('beacon')], now + 120_000)).toBe(1);
        expect(await seed.stored('csp', shop)).toHaveLength(151);
      });

      test('any arrival order of N beacon copies and M browser reports within the window makes max(N, M) reports, as many as groups count', async ({ store, seed }) => {
        const arrivals = fc.array(fc.tuple(fc.constantFrom(...CSP_SOURCES), fc.integer({ min: 0, max: COPY_WINDOW_MS / 2 })), { maxLength: 8 });
        await fc.assert(
          fc.asyncProperty(arrivals, async (sequence) => {
            const shop = await seed.addSite(['https://shop.example']);
            for (const [source, offset] of sequence) await seed.insertCsp(shop, [copy(source)], now + offset);
            const beacon = sequence.filter(([source]) => source == 'beacon').length;
            const expected = Math.max(beacon, sequence.length - beacon);
            expect(await seed.stored('csp', shop)).toHaveLength(expected);
            expect((await store.csp.groups(shop, {}))[0]?.reports ?? 0).toBe(expected);
          }),
          { numRuns: 25 },
        );
      });

      test('copies arriving at once (one group commit, and two processes) are matched as one after the other would be: max(N, M) reports, each counted once', async ({ store, seed, reopen }) => {
        const other = seedStore(await reopen());
        const arrivals = fc.array(fc.tuple(fc.constantFrom(...CSP_SOURCES), fc.integer({ min: 0, max: COPY_WINDOW_MS / 2 }), fc.boolean()), { maxLength: 12 });
        await fc.assert(
          fc.asyncProperty(arrivals, async (sequence) => {
            const shop = await seed.addSite(['https://shop.example']);
            const storedAnew = await Promise.all(
              sequence.map(([source, offset, elsewhere]) => (elsewhere ? other : seed).insertCsp(shop, [copy(source)], now + offset)),
            );
            const beacon = sequence.filter(([source]) => source == 'beacon').length;
            const expected = Math.max(beacon, sequence.length - beacon);
            const stored = await seed.stored('csp', shop);
            expect(stored).toHaveLength(expected);
            expect(storedAnew.reduce((sum, count) => sum + count, 0)).toBe(expected);
            expect((await store.csp.groups(shop, {}))[0]?.reports ?? 0).toBe(expected);
            // Each merged report holds one copy from each side, and none holds two from one.
            for (const record of stored) expect(new Set(record.sources!.map((source) => source == 'beacon')).size).toBe(record.sources!.length);
          }),
          { numRuns: 25 },
        );
      });

      test('copies arriving at once whose windows differ: each merges into the oldest report awaiting it within its own window', async ({ seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        for (const offset of [0, 1, 5]) expect(await seed.insertCsp(shop, [copy('report-to', { age: offset })], now + offset)).toBe(1);
        // The first copy's window starts at now + 3: of the three, only the last is within it.
        const storedAnew = await Promise.all([
          seed.insertCsp(shop, [copy('beacon')], now + COPY_WINDOW_MS + 3),
          seed.insertCsp(shop, [copy('beacon')], now + COPY_WINDOW_MS),
        ]);
        expect(storedAnew).toEqual([0, 0]);
        const stored = await seed.stored('csp', shop);
        expect(stored.map((record) => [record.age, record.sources])).toEqual([
          [0, ['report-to', 'beacon']],
          [1, ['report-to']],
          [5, ['report-to', 'beacon']],
        ]);
      });

      test('one call of many copies: each merges into the oldest stored report awaiting its side, or into a report stored before it in the call', async ({ seed }) => {
        const shop = await seed.addSite(['https://shop.example']);
        expect(await seed.insertCsp(shop, [copy('report-to', { age: 1 }), copy('report-to', { age: 2 })], now)).toBe(2);
        expect(await seed.insertCsp(shop, [copy('beacon'), copy('beacon'), copy('beacon'), copy('report-uri', { age: 4 }), copy('beacon')], now + 1_000)).toBe(2);
        const stored = await seed.stored('csp', shop);
        expect(stored.map((record) => [record.age ?? null, record.sources])).toEqual([
          [1, ['report-to', 'beacon']],
          [2, ['report-to', 'beacon']],
          [4, ['beacon', 'report-uri']],
          [null, ['beacon']],
        ]);
      });
    });
  });
