import { describe, expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ErrorReport, ReceivedClient } from '../../core/records';
import type { IssueListOptions, Store } from '../../store/contract';
import { BOT, CHROME, SAFARI, ingest, listOf } from './issues.contract';
import type { StoreTest } from './storeTest';

const T0 = Date.UTC(2026, 4, 1, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const FIREFOX: ReceivedClient = { browser: 'Firefox', os: 'Linux', device: 'tablet', bot: false };

const fingerprints = async (store: Store, site: string, options: Partial<IssueListOptions>) =>
  (await store.issues.list(site, listOf(options))).rows.map((row) => row.fingerprint).sort();

const error = (type: string, message: string, fields: Partial<ErrorReport> = {}): ErrorReport => ({ error_type: type, error_message: message, ...fields });
const fp = (report: ErrorReport) => newErrorReport(report).fingerprint;
/** A number as letters: digits in a message are one group's (core/fingerprint.ts). */
const word = (index: number) => String(index).replace(/\d/g, (digit) => 'ghijklmnop'[Number(digit)]!);

/**
 * The issues' list (store/contract/issues.ts `list`): counts over the filtered reports of a range,
 * all-time seen times, every filter alone and with words, sorts and cursor paging, bots left out;
 * part of the store contract (store.contract.ts).
 *
 * @example
 * describeIssueListsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeIssueListsContract = (test: StoreTest) =>
  describe('issue lists', () => {
    test('visitors are distinct (day, visitor) pairs: two clients 2, one client on two pages 1; page views are sessions', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const report = error('javascript_error', 'cart is empty');
      await ingest(store, site, [{ ...report, page_url: 'https://shop.example/a', session_id: 's1' }], { visitor: 'aaaaaaaaaaaaaaaa' });
      await ingest(store, site, [{ ...report, page_url: 'https://shop.example/b', session_id: 's2', count: 3 }], { visitor: 'aaaaaaaaaaaaaaaa' });
      expect((await store.issues.list(site, listOf())).rows).toMatchObject([{ reports: 2, occurrences: 4, visitors: 1, page_views: 2 }]);
      await ingest(store, site, [{ ...report, session_id: 's2' }], { visitor: 'bbbbbbbbbbbbbbbb' });
      expect((await store.issues.list(site, listOf())).rows).toMatchObject([{ reports: 3, visitors: 2, page_views: 2 }]);
      // The same hash the next day is another pair (docs/visitors.md).
      await ingest(store, site, [report], { visitor: 'bbbbbbbbbbbbbbbb', received_at: T0 + DAY });
      expect((await store.issues.list(site, listOf())).rows).toMatchObject([{ visitors: 3 }]);
    });

    test('first and last seen are all-time whatever the range; counts are of the range', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const report = error('javascript_error', 'cart is empty');
      await ingest(store, site, [report], { received_at: T0 - 10 * DAY });
      await ingest(store, site, [report, report], { received_at: T0 });
      await ingest(store, site, [report], { received_at: T0 + DAY });
      const [row] = (await store.issues.list(site, listOf({ since: T0 - HOUR, until: T0 + HOUR }))).rows;
      expect(row).toMatchObject({ first_seen: T0 - 10 * DAY, last_seen: T0 + DAY, reports: 2, occurrences: 2 });
      expect((await store.issues.list(site, listOf({ since: T0 + 2 * DAY }))).rows).toEqual([]);
    });

    test('every filter, alone and with words (q): status, page, browser, os, device, release, environment, type, excluded types, range', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      // Two errors per value filtered: one whose message has "checkout", one without; each differs from the rest in one field only.
      const cases: Array<[Partial<IssueListOptions>, Partial<ErrorReport>, ReceivedClient, number]> = [
        [{ page: 'https://shop.example/p' }, { page_url: 'https://shop.example/p' }, CHROME, T0],
        [{ browser: 'Firefox' }, {}, FIREFOX, T0],
        [{ os: 'iOS' }, {}, SAFARI, T0],
        [{ device: 'tablet' }, {}, FIREFOX, T0],
        [{ release: '9.9' }, { release: '9.9' }, CHROME, T0],
        [{ environment: 'staging' }, { environment: 'staging' }, CHROME, T0],
        [{ since: T0 + DAY, until: T0 + DAY + HOUR }, {}, CHROME, T0 + DAY],
      ];
      const expected: string[][] = [];
      const withWord: string[] = [];
      for (const [index, [, fields, client, at]] of cases.entries()) {
        const pair = [error('javascript_error', `checkout ${word(index)} failed`, fields), error('javascript_error', `cart ${word(index)} failed`, fields)];
        await ingest(store, site, pair, { client, received_at: at });
        expected.push(pair.map(fp));
        withWord.push(fp(pair[0]!));
      }
      const other = error('resource_error', 'checkout image failed');
      await ingest(store, site, [other, error('javascript_error', 'plain checkout')], { received_at: T0 + HOUR });
      for (const [index, [filter]] of cases.entries()) {
        const range = filter.since === undefined ? { since: T0 - HOUR, until: T0 + 2 * HOUR } : {};
        // Firefox is the only tablet: the browser and device filters find the same four.
        const cases = index == 1 || index == 3 ? [1, 3] : [index];
        expect(await fingerprints(store, site, { ...range, ...filter }), JSON.stringify(filter)).toEqual(cases.flatMap((at) => expected[at]!).sort());
        expect(await fingerprints(store, site, { ...range, ...filter, q: 'CHECKOUT' }), JSON.stringify(filter)).toEqual(cases.map((at) => withWord[at]!).sort());
      }
      expect(await fingerprints(store, site, { type: 'resource_error' })).toEqual([fp(other)]);
      expect(await fingerprints(store, site, { type: 'resource_error', q: 'cart' })).toEqual([]);
      expect(await fingerprints(store, site, { excludeTypes: ['javascript_error'] })).toEqual([fp(other)]);
      expect(await fingerprints(store, site, { excludeTypes: ['javascript_error', 'resource_error'], q: 'checkout' })).toEqual([]);
      expect(await fingerprints(store, site, { q: 'image checkout' })).toEqual([fp(other)]);
      // Words are matched literally: % and _ are no wildcards.
      expect(await fingerprints(store, site, { q: '%' })).toEqual([]);
      await store.issues.update(site, fp(other), { status: 'resolved' });
      expect(await fingerprints(store, site, { status: 'resolved' })).toEqual([fp(other)]);
      expect(await fingerprints(store, site, { status: 'resolved', q: 'cart' })).toEqual([]);
      expect(await fingerprints(store, site, { status: 'unresolved' })).toHaveLength(15);
      expect(await fingerprints(store, site, { status: 'ignored' })).toEqual([]);
    });

    test("bots' reports are left out of lists and counts unless included", async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const people = error('javascript_error', 'cart is empty');
      const crawled = error('javascript_error', 'only crawlers see this');
      await ingest(store, site, [people, crawled], { client: BOT, visitor: 'cccccccccccccccc' });
      await ingest(store, site, [people], { visitor: 'dddddddddddddddd' });
      // A report stored before clients were parsed counts as a person's.
      await ingest(store, site, [people], { client: undefined });
      expect((await store.issues.list(site, listOf())).rows).toMatchObject([{ fingerprint: fp(people), reports: 2, visitors: 1 }]);
      const all = (await store.issues.list(site, listOf({ includeBots: true, sort: 'occurrences' }))).rows;
      expect(all.map((row) => [row.fingerprint, row.reports, row.visitors])).toEqual([[fp(people), 3, 2], [fp(crawled), 1, 1]]);
    });

    test("bots' reports not counted: the list's range, report filters, status, words, type and excluded types, or one issue's", async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const cart = error('javascript_error', 'cart is empty', { page_url: 'https://shop.example/cart' });
      const image = error('resource_error', 'image failed');
      const check = error('connectivity_check', 'sitebeacon check');
      await ingest(store, site, [cart, cart, image, check], { client: BOT });
      await ingest(store, site, [cart], { client: BOT, received_at: T0 - 2 * DAY });
      await ingest(store, site, [cart, image]);
      const range = { since: T0 - HOUR, until: T0 + HOUR, excludeTypes: ['connectivity_check'] };
      const bots = (options: Partial<IssueListOptions> & { fingerprint?: string }) => store.issues.botReports(site, { status: 'all', ...range, ...options });
      expect(await bots({})).toBe(3);
      expect(await bots({ excludeTypes: [] })).toBe(4);
      expect(await bots({ since: T0 - 3 * DAY })).toBe(4);
      expect(await bots({ page: 'https://shop.example/cart' })).toBe(2);
      expect(await bots({ browser: 'Chrome' })).toBe(0);
      expect(await bots({ q: 'IMAGE' })).toBe(1);
      expect(await bots({ type: 'javascript_error' })).toBe(2);
      expect(await bots({ fingerprint: fp(cart) })).toBe(2);
      await store.issues.update(site, fp(image), { status: 'resolved' });
      expect(await bots({ status: 'unresolved' })).toBe(2);
      expect(await bots({ status: 'resolved' })).toBe(1);
      expect(await store.issues.botReports(await seed.addSite([]), { status: 'all' })).toBe(0);
    });

    test('sorts: last seen, first seen, occurrences, visitors, each descending, ties by fingerprint', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const [a, b, c] = ['a', 'b', 'c'].map((name) => error('javascript_error', `error ${name}`));
      await ingest(store, site, [a!, a!, a!], { received_at: T0, visitor: '1111111111111111' });
      await ingest(store, site, [b!], { received_at: T0 + 1, visitor: '1111111111111111' });
      await ingest(store, site, [b!], { received_at: T0 + 2, visitor: '2222222222222222' });
      await ingest(store, site, [c!, c!, c!], { received_at: T0 + 3, visitor: '1111111111111111' });
      const order = async (sort: IssueListOptions['sort']) => (await store.issues.list(site, listOf({ sort }))).rows.map((row) => row.fingerprint);
      expect(await order('last_seen')).toEqual([fp(c!), fp(b!), fp(a!)]);
      expect(await order('first_seen')).toEqual([fp(c!), fp(b!), fp(a!)]);
      expect(await order('occurrences')).toEqual([fp(a!), fp(c!)].sort().concat(fp(b!)));
      expect(await order('visitors')).toEqual([fp(b!), ...[fp(a!), fp(c!)].sort()]);
    });

    test('cursor paging over 5,000 issues visits each once, in order, whatever the sort', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const reports = Array.from({ length: 5000 }, (_, index) => error('javascript_error', `error ${word(index)}`, { count: (index % 7) + 1 }));
      await store.errors.insert(site, reports.map((report) => newErrorReport(report)), { received_at: T0, client: CHROME });
      for (const sort of ['occurrences', 'last_seen'] as const) {
        const seen: Array<[number, string]> = [];
        let cursor: string | undefined;
        do {
          const page = await store.issues.list(site, listOf({ sort, limit: 700, cursor }));
          seen.push(...page.rows.map((row): [number, string] => [row[sort], row.fingerprint]));
          cursor = page.next_cursor ?? undefined;
        } while (cursor);
        expect(new Set(seen.map(([, print]) => print)).size).toBe(5000);
        expect(seen).toEqual([...seen].sort(([keyA, a], [keyB, b]) => keyB - keyA || (a < b ? -1 : a > b ? 1 : 0)));
      }
    });
  });
