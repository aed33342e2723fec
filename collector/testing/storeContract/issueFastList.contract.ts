import { describe, expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ErrorReport, ReceivedClient } from '../../core/records';
import type { IssueListOptions, Store } from '../../store/contract';
import { issueFieldListTests } from './issueFieldLists.contract';
import { BOT, CHROME, ingest, listOf } from './issues.contract';
import type { StoreTest } from './storeTest';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D = Date.UTC(2026, 4, 10);

interface Seeded {
  message: string;
  at: number;
  count?: number;
  client: ReceivedClient | undefined;
  visitor: string;
  session: string;
}

/** Reports over five days, bots among them, at a day's first and last millisecond too. */
const SEEDED: Seeded[] = [
  { message: 'cart is empty', at: D - 3 * DAY + 5 * HOUR, client: CHROME, visitor: 'aaaaaaaaaaaaaaaa', session: 's1' },
  { message: 'cart is empty', at: D - 2 * DAY + 2 * HOUR, count: 4, client: CHROME, visitor: 'aaaaaaaaaaaaaaaa', session: 's1' },
  { message: 'cart is empty', at: D - 2 * DAY + 20 * HOUR, client: BOT, visitor: 'bbbbbbbbbbbbbbbb', session: 's2' },
  { message: 'cart is empty', at: D - DAY, client: undefined, visitor: 'cccccccccccccccc', session: 's3' },
  { message: 'cart is empty', at: D - 1, count: 2, client: BOT, visitor: 'bbbbbbbbbbbbbbbb', session: 's2' },
  { message: 'cart is empty', at: D + 3 * HOUR, client: CHROME, visitor: 'aaaaaaaaaaaaaaaa', session: 's4' },
  { message: 'price missing', at: D - 2 * DAY + 13 * HOUR, client: CHROME, visitor: 'dddddddddddddddd', session: 's5' },
  { message: 'price missing', at: D - DAY + 6 * HOUR, count: 9, client: CHROME, visitor: 'dddddddddddddddd', session: 's6' },
  { message: 'price missing', at: D + 11 * HOUR, client: CHROME, visitor: 'eeeeeeeeeeeeeeee', session: 's6' },
  { message: 'only crawlers see this', at: D - DAY + HOUR, count: 3, client: BOT, visitor: 'bbbbbbbbbbbbbbbb', session: 's7' },
  { message: 'late only', at: D + 12 * HOUR, client: CHROME, visitor: 'ffffffffffffffff', session: 's8' },
  { message: 'early only', at: D - 3 * DAY + HOUR, client: CHROME, visitor: 'ffffffffffffffff', session: 's9' },
  { message: 'edge of the range', at: D - 2 * DAY + 12 * HOUR, client: CHROME, visitor: 'ffffffffffffffff', session: 's9' },
];

const report = (seeded: Seeded): ErrorReport => ({
  error_type: 'javascript_error',
  error_message: seeded.message,
  environment: 'production',
  page_url: 'https://shop.example/cart',
  session_id: seeded.session,
  ...(seeded.count === undefined ? {} : { count: seeded.count }),
});

/** What the list must say, counted here from what was seeded: reports and occurrences per message. */
const expectedCounts = ({ since, until, includeBots }: { since: number; until: number; includeBots: boolean }) => {
  const counts = new Map<string, { reports: number; occurrences: number }>();
  for (const seeded of SEEDED) {
    if (seeded.at < since || seeded.at > until || (!includeBots && seeded.client?.bot)) continue;
    const count = counts.get(seeded.message) ?? { reports: 0, occurrences: 0 };
    counts.set(seeded.message, { reports: count.reports + 1, occurrences: count.occurrences + (seeded.count ?? 1) });
  }
  return counts;
};

const everyPage = async (store: Store, site: string, options: IssueListOptions) => {
  const rows = [];
  let cursor: string | undefined;
  do {
    const page = await store.issues.list(site, { ...options, cursor });
    rows.push(...page.rows);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return rows;
};

/**
 * The issues' list without a filter on a report's fields (docs/issues.md, "The list at a million
 * reports"), which a store may count from its per-day aggregates: the same rows, counts and order
 * as the list filtered by two fields every report has (which counts every report), for ranges
 * starting and ending inside a day or on its edges, bots out and in, every sort but visitors, paged;
 * and filtered by one field or sorted by visitors (issueFieldLists.contract.ts); part of the store contract.
 *
 * @example
 * describeIssueFastListContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeIssueFastListContract = (test: StoreTest) =>
  describe('issue lists without report filters', () => {
    test('agree with the list filtered by two fields every report has, and with the reports counted one by one', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      for (const seeded of SEEDED) {
        await ingest(store, site, [report(seeded)], { received_at: seeded.at, client: seeded.client, visitor: seeded.visitor });
      }
      await store.issues.update(site, newErrorReport(report(SEEDED[6]!)).fingerprint, { status: 'resolved' });
      const ranges = [
        { since: D - 2 * DAY + 12 * HOUR, until: D + 11 * HOUR },
        { since: D - 2 * DAY, until: D - 1 },
        { since: D - 3 * DAY + 2 * HOUR, until: D + 12 * HOUR - 1 },
        { since: D - 2 * DAY + 12 * HOUR + 1, until: D + 12 * HOUR },
        { since: D - 10 * DAY, until: D + 10 * DAY },
      ];
      for (const range of ranges) {
        for (const includeBots of [false, true]) {
          const expected = expectedCounts({ ...range, includeBots });
          for (const sort of ['last_seen', 'first_seen', 'occurrences'] as const) {
            for (const status of ['all', 'unresolved'] as const) {
              const options = listOf({ ...range, includeBots, sort, status, limit: 2 });
              const label = JSON.stringify({ ...range, includeBots, sort, status });
              const fast = await everyPage(store, site, options);
              // Two filters count every report of the range.
              expect(fast, label).toEqual(await everyPage(store, site, { ...options, environment: 'production', page: 'https://shop.example/cart' }));
              if (status == 'all') {
                const counted = fast.map((row) => [row.error_message, { reports: row.reports, occurrences: row.occurrences }]);
                expect(new Map(counted as Array<[string, { reports: number; occurrences: number }]>), label).toEqual(expected);
              }
            }
          }
          const filteredOut = await store.issues.list(site, listOf({ ...range, includeBots, environment: 'staging' }));
          expect(filteredOut.rows).toEqual([]);
        }
      }
      // The bots' own issue: listed with its counts only when they are included.
      const crawled = { since: D - DAY, until: D - 1 };
      expect((await store.issues.list(site, listOf({ ...crawled, q: 'crawlers' }))).rows).toEqual([]);
      expect((await store.issues.list(site, listOf({ ...crawled, q: 'crawlers', includeBots: true }))).rows).toMatchObject([
        { reports: 1, occurrences: 3, visitors: 1, page_views: 1 },
      ]);
    });
    issueFieldListTests(test);
  });
