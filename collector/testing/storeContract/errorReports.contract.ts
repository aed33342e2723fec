import { describe, expect } from 'vitest';
import { DEFAULT_SITE_KEY } from '../../core/records';
import { UnknownSiteError } from '../../store/unknownSiteError';
import type { StoreTest } from './storeTest';

const DAY = 86_400_000;

/**
 * Error reports (store/contract/errorReports.ts), part of the store contract (store.contract.ts),
 * run by describeStoreContract with its fresh store for each test.
 *
 * @example
 * describeErrorReportsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeErrorReportsContract = (test: StoreTest) =>
  describe('error reports', () => {

    test('error reports list oldest first in pages by opaque cursor, and filter by since', async ({ store, seed }) => {
      for (let i = 0; i < 5; i++) await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: `m${i}` }], Date.UTC(2026, i, 1));
      const first = await store.errors.list(DEFAULT_SITE_KEY, { limit: 2 });
      expect(first.data.map((record) => record.error_message)).toEqual(['m0', 'm1']);
      expect(typeof first.next_cursor).toBe('string');
      const second = await store.errors.list(DEFAULT_SITE_KEY, { limit: 2, cursor: first.next_cursor! });
      expect(second.data.map((record) => record.error_message)).toEqual(['m2', 'm3']);
      const last = await store.errors.list(DEFAULT_SITE_KEY, { limit: 2, cursor: second.next_cursor! });
      expect(last).toMatchObject({ data: [{ error_message: 'm4' }], next_cursor: null });
      const recent = await store.errors.list(DEFAULT_SITE_KEY, { since: Date.UTC(2026, 3, 1) });
      expect(recent.data.map((record) => record.error_message)).toEqual(['m3', 'm4']);
      expect(recent.data[0]).toMatchObject({ site_key: DEFAULT_SITE_KEY, received_at: '2026-04-01T00:00:00.000Z' });
    });

    test('a report keeps every field it was given, and only those', async ({ store, seed }) => {
      await seed.insertErrors(
        DEFAULT_SITE_KEY,
        [{ error_type: 'javascript_error', error_message: 'x', error_name: 'TypeError', line: 3, column: 0, count: 2, extra: { release: '1.2' } }],
        Date.UTC(2026, 0, 1),
        'Mozilla/5.0 Test',
      );
      const [stored] = (await store.errors.list(DEFAULT_SITE_KEY)).data;
      expect(stored).toMatchObject({ error_name: 'TypeError', line: 3, column: 0, count: 2, extra: { release: '1.2' }, user_agent: 'Mozilla/5.0 Test' });
      expect(stored!.fingerprint).toMatch(/^[0-9a-f]{16}$/);
      expect(stored).not.toHaveProperty('stack');
      expect(stored).not.toHaveProperty('source_url');
    });

    test("a report's causes read back with it, in order, in the list (what `export` writes) and as its group's latest; a report without has none", async ({ store, seed }) => {
      const causes = [
        { error_name: 'TypeError', error_message: 'fetch failed', stack: 'TypeError: fetch failed\n    at load (https://shop.example/app.js:3:9)' },
        { error_message: 'inner \0 one', aggregate: true },
      ];
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'javascript_error', error_message: 'load failed', causes }], Date.UTC(2026, 0, 1));
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'javascript_error', error_message: 'plain' }, { error_type: 'js', error_message: 'empty', causes: [] }], Date.UTC(2026, 0, 2));
      const [withCauses, without, empty] = await seed.stored('errors', DEFAULT_SITE_KEY);
      // Text as every store keeps it (storedText.ts): NUL becomes U+FFFD.
      const kept = [causes[0], { error_message: 'inner \uFFFD one', aggregate: true }];
      expect(withCauses!.causes).toEqual(kept);
      expect(without).not.toHaveProperty('causes');
      expect(empty).not.toHaveProperty('causes');
      expect((await store.errors.latest(DEFAULT_SITE_KEY, withCauses!.fingerprint))!.causes).toEqual(kept);
      expect(await store.errors.latest(DEFAULT_SITE_KEY, without!.fingerprint)).not.toHaveProperty('causes');
    });

    test('a write for an unknown site is refused, and the writes beside it still commit', async ({ seed }) => {
      const results = await Promise.allSettled([
        seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'a' }]),
        seed.insertErrors('no-such-site', [{ error_type: 'js', error_message: 'b' }]),
        seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'c' }]),
      ]);
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(UnknownSiteError);
      expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((record) => record.error_message)).toEqual(['a', 'c']);
    });

    test('what a write resolved is there for the next process, and close() commits what is queued', async ({ store, seed, reopen }) => {
      const written = seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'last' }]);
      await store.close();
      await expect(written).resolves.toBe(1);
      const next = await reopen();
      expect((await next.errors.list(DEFAULT_SITE_KEY)).data.map((record) => record.error_message)).toEqual(['last']);
    });

    test('writes made in one turn are listed in the order they were made', async ({ seed }) => {
      await Promise.all(['m0', 'm1', 'm2', 'm3'].map((message) => seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: message }])));
      expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((record) => record.error_message)).toEqual(['m0', 'm1', 'm2', 'm3']);
    });

    test('error groups by fingerprint: reports, occurrences, first and last seen, most first, from since', async ({ store, seed }) => {
      const now = Date.UTC(2026, 5, 10, 12);
      const stack = 'TypeError: x\n    at checkout (https://shop.example/app.js:10:5)';
      const item = (n: number) => ({ error_type: 'javascript_error', error_name: 'TypeError', error_message: `Item ${n} missing`, stack });
      await seed.insertErrors(DEFAULT_SITE_KEY, [item(1)], now - 3 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ ...item(2), count: 3 }, { error_type: 'resource_error', error_message: 'img failed' }], now);
      const groups = await store.errors.groups(DEFAULT_SITE_KEY, {});
      expect(groups.map(({ error_type, reports, count }) => [error_type, reports, count])).toEqual([
        ['javascript_error', 2, 4],
        ['resource_error', 1, 1],
      ]);
      expect(groups[0]).toMatchObject({ first_seen: now - 3 * DAY, last_seen: now });
      const recent = await store.errors.groups(DEFAULT_SITE_KEY, { since: now - DAY });
      expect(recent.map(({ reports, count }) => [reports, count])).toEqual([
        [1, 3],
        [1, 1],
      ]);
      expect(await store.errors.groups(DEFAULT_SITE_KEY, { limit: 1 })).toHaveLength(1);
      // Excluded types are left out of both the whole days and the day `since` falls in.
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'connectivity_check', error_message: 'check', count: 9 }], now - 3 * DAY);
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'connectivity_check', error_message: 'check', count: 9 }], now);
      expect((await store.errors.groups(DEFAULT_SITE_KEY, {}))[0]).toMatchObject({ error_type: 'connectivity_check', reports: 2, count: 18 });
      for (const since of [undefined, now - 5 * DAY, now - DAY]) {
        const kept = await store.errors.groups(DEFAULT_SITE_KEY, { since, excludeTypes: ['connectivity_check', 'resource_error'] });
        expect(kept.map((group) => group.error_type)).toEqual(['javascript_error']);
        // `types` keeps only those: the setup page's last connectivity check, however many groups the site has.
        const only = await store.errors.groups(DEFAULT_SITE_KEY, { since, limit: 1, types: ['connectivity_check', 'no_such_type'] });
        expect(only.map((group) => [group.error_type, group.reports])).toEqual([['connectivity_check', since == now - DAY ? 1 : 2]]);
      }
    });
  });
