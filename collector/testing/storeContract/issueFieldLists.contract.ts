import { expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ErrorReport, ReceivedClient } from '../../core/records';
import type { IssueListOptions, IssueListRow, Store } from '../../store/contract';
import { BOT, CHROME, ingest, listOf, SAFARI } from './issues.contract';
import type { StoreTest } from './storeTest';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const D = Date.UTC(2026, 4, 10);
const FIREFOX: ReceivedClient = { browser: 'Firefox', os: 'Linux', device: 'desktop', bot: false };

interface Seeded {
  message: string;
  at: number;
  count?: number;
  client: ReceivedClient | undefined;
  visitor?: string;
  session: string;
  page?: string;
  release?: string;
  environment?: string;
}

const A = 'https://shop.example/a';
const B = 'https://shop.example/b';

/** Reports over five days of three issues, their fields varied, bots and a report of no client among them. */
const SEEDED: Seeded[] = [
  { message: 'cart is empty', at: D - 3 * DAY + 5 * HOUR, client: CHROME, visitor: 'v1', session: 's1', page: A, release: '1.0', environment: 'production' },
  { message: 'cart is empty', at: D - 2 * DAY + 2 * HOUR, count: 4, client: SAFARI, visitor: 'v1', session: 's2', page: B, release: '1.0', environment: 'production' },
  { message: 'cart is empty', at: D - 2 * DAY + 3 * HOUR, client: SAFARI, visitor: 'v1', session: 's2', page: B, release: '2.0', environment: 'staging' },
  { message: 'cart is empty', at: D - 2 * DAY + 20 * HOUR, client: BOT, visitor: 'v9', session: 's3', page: A, release: '2.0', environment: 'production' },
  { message: 'cart is empty', at: D - DAY, client: undefined, visitor: 'v2', session: 's4', page: A },
  { message: 'cart is empty', at: D - DAY + 7 * HOUR, client: FIREFOX, session: 's5', page: A, release: '2.0', environment: 'production' },
  { message: 'cart is empty', at: D - 1, count: 2, client: BOT, visitor: 'v9', session: 's3', page: B, release: '2.0', environment: 'production' },
  { message: 'cart is empty', at: D + 3 * HOUR, client: CHROME, visitor: 'v1', session: 's6', page: A, release: '2.0', environment: 'production' },
  { message: 'price missing', at: D - 3 * DAY + HOUR, client: FIREFOX, visitor: 'v3', session: 's7', page: B, release: '1.0', environment: 'staging' },
  { message: 'price missing', at: D - 2 * DAY + 13 * HOUR, client: SAFARI, visitor: 'v3', session: 's8', page: A, release: '1.0', environment: 'production' },
  { message: 'price missing', at: D - 2 * DAY + 14 * HOUR, client: SAFARI, visitor: 'v4', session: 's8', page: A, release: '1.0', environment: 'production' },
  { message: 'price missing', at: D - DAY + 6 * HOUR, count: 9, client: CHROME, visitor: 'v4', session: 's9', page: B, release: '2.0', environment: 'production' },
  { message: 'price missing', at: D + 11 * HOUR, client: CHROME, visitor: 'v5', session: 's9', page: B, release: '2.0', environment: 'production' },
  { message: 'late only', at: D + 12 * HOUR, client: SAFARI, visitor: 'v6', session: 's10', page: A, release: '2.0', environment: 'staging' },
  { message: 'crawled', at: D - DAY + HOUR, count: 3, client: BOT, visitor: 'v9', session: 's11', page: A, release: '2.0', environment: 'production' },
];

const RANGES = [
  { since: D - 2 * DAY + 12 * HOUR, until: D + 11 * HOUR },
  { since: D - 2 * DAY, until: D - 1 },
  { since: D - 3 * DAY + 2 * HOUR, until: D + 12 * HOUR - 1 },
  { since: D - 10 * DAY, until: D + 10 * DAY },
];

const FILTERS: Array<Partial<IssueListOptions>> = [
  {},
  { page: A },
  { page: B },
  { browser: 'Safari' },
  { os: 'Linux' },
  { device: 'desktop' },
  { device: 'mobile' },
  { release: '2.0' },
  { environment: 'production' },
  { environment: 'staging' },
];

const fingerprintOf = (message: string) => newErrorReport({ error_type: 'javascript_error', error_message: message }).fingerprint;

/** What a filter keeps of a seeded report, as the list's filters read a stored one. */
const kept = (seeded: Seeded, options: Partial<IssueListOptions>) =>
  seeded.at >= options.since! && seeded.at <= options.until! && (options.includeBots || !seeded.client?.bot)
  && (options.page === undefined || seeded.page === options.page) && (options.browser === undefined || seeded.client?.browser === options.browser)
  && (options.os === undefined || seeded.client?.os === options.os) && (options.device === undefined || seeded.client?.device === options.device)
  && (options.release === undefined || seeded.release === options.release) && (options.environment === undefined || seeded.environment === options.environment);

/**
 * The list the `stored` reports make, counted here one by one: every status, sorted as the store
 * sorts, ties by fingerprint. Seen times are all-time, of every report ever stored (an issue outlives
 * its reports: docs/retention.md).
 */
const expectedList = (stored: readonly Seeded[], options: IssueListOptions) => {
  const rows = new Map<string, { fingerprint: string; reports: number; occurrences: number; visitors: Set<string>; sessions: Set<string>; first_seen: number; last_seen: number }>();
  for (const seeded of SEEDED) {
    const fingerprint = fingerprintOf(seeded.message);
    const row = rows.get(fingerprint) ?? { fingerprint, reports: 0, occurrences: 0, visitors: new Set(), sessions: new Set(), first_seen: seeded.at, last_seen: seeded.at };
    row.first_seen = Math.min(row.first_seen, seeded.at);
    row.last_seen = Math.max(row.last_seen, seeded.at);
    rows.set(fingerprint, row);
    if (!stored.includes(seeded) || !kept(seeded, options)) continue;
    row.reports += 1;
    row.occurrences += seeded.count ?? 1;
    if (seeded.visitor) row.visitors.add(`${Math.floor(seeded.at / DAY)}:${seeded.visitor}`);
    row.sessions.add(seeded.session);
  }
  const listed = [...rows.values()].filter((row) => row.reports > 0).map(({ visitors, sessions, ...row }) => ({ ...row, visitors: visitors.size, page_views: sessions.size }));
  const key = (row: (typeof listed)[number]) => row[options.sort];
  return listed.sort((a, b) => key(b) - key(a) || (a.fingerprint < b.fingerprint ? -1 : 1));
};

/** Each issue's occurrences per UTC day from the day `since` falls in to `until`, counted here one by one. */
const expectedTrends = (stored: readonly Seeded[], options: Partial<IssueListOptions> & { since: number; until: number }) => {
  const start = Math.floor(options.since / DAY) * DAY;
  const buckets = Math.max(1, Math.ceil((options.until - start) / DAY));
  const trends = new Map(['cart is empty', 'price missing', 'late only', 'crawled'].map((message) => [fingerprintOf(message), new Array<number>(buckets).fill(0)]));
  for (const seeded of stored) {
    if (kept(seeded, { ...options, since: start })) trends.get(fingerprintOf(seeded.message))![Math.floor((seeded.at - start) / DAY)]! += seeded.count ?? 1;
  }
  return trends;
};

const everyPage = async (store: Store, site: string, options: IssueListOptions) => {
  const rows: IssueListRow[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.issues.list(site, { ...options, cursor });
    rows.push(...page.rows);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return rows;
};

const countsOf = (rows: IssueListRow[]) =>
  rows.map(({ fingerprint, reports, occurrences, visitors, page_views, first_seen, last_seen }) => ({ fingerprint, reports, occurrences, visitors, page_views, first_seen, last_seen }));

/**
 * The issues' list filtered by one report field, and sorted by visitors, which a store may count
 * from per-day counts (docs/issues.md, "The list at a million reports"): the rows, counts and order
 * the reports make, counted one by one here, for every field, ranges starting and ending inside a
 * day or on its edges, bots out and in, every sort, paged; and the same as the list filtered by two
 * fields, which counts every report. Then again once retention has deleted the oldest reports, a
 * day partly. Called by issueFastList.contract.ts's suite.
 */
export const issueFieldListTests = (test: StoreTest) =>
  test('filtered by a field or sorted by visitors, agree with the reports counted one by one, before and after retention', async ({ store, seed }) => {
    const site = await seed.addSite([]);
    for (const seeded of SEEDED) {
      const fields = { page_url: seeded.page, release: seeded.release, environment: seeded.environment, count: seeded.count };
      const report: ErrorReport = { error_type: 'javascript_error', error_message: seeded.message, session_id: seeded.session, ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) };
      await ingest(store, site, [report], { received_at: seeded.at, client: seeded.client, visitor: seeded.visitor });
    }
    const resolved = fingerprintOf('late only');
    await store.issues.update(site, resolved, { status: 'resolved' });
    const check = async (stored: readonly Seeded[], ranges: typeof RANGES) => {
      for (const range of ranges) {
        for (const includeBots of [false, true]) {
          for (const filter of FILTERS) {
            // Daily trends (a range over 48 hours), as the list's rows have them.
            const trendOptions = { ...range, ...filter, includeBots, since: Math.floor(range.since / DAY) * DAY, bucketMs: DAY };
            const trends = await store.issues.trends(site, [...expectedTrends(stored, range).keys()], trendOptions);
            expect(trends, JSON.stringify(trendOptions)).toEqual(expectedTrends(stored, { ...range, ...filter, includeBots }));
            for (const sort of ['last_seen', 'first_seen', 'occurrences', 'visitors'] as const) {
              const options = listOf({ ...range, ...filter, includeBots, sort, limit: 2 });
              const label = JSON.stringify({ ...range, ...filter, includeBots, sort });
              expect(countsOf(await everyPage(store, site, options)), label).toEqual(expectedList(stored, options));
              // Two filters count every report of the range: the same rows as one filter and another.
              const both = { ...options, ...(filter.environment === undefined ? { environment: 'production' } : { release: '2.0' }) };
              expect(countsOf(await everyPage(store, site, both)), label).toEqual(expectedList(stored, both));
              if (sort != 'last_seen') continue;
              const unresolved = await everyPage(store, site, { ...options, status: 'unresolved' });
              expect(countsOf(unresolved), label).toEqual(expectedList(stored, options).filter((row) => row.fingerprint != resolved));
            }
          }
        }
      }
    };
    await check(SEEDED, RANGES);
    // Retention (docs/retention.md): the first day's reports go, and the second's before its middle.
    const before = D - 2 * DAY + 13 * HOUR + 30 * 60_000;
    await store.retention.deleteBefore(before, { limit: 1000 });
    await check(SEEDED.filter((seeded) => seeded.at >= before), [RANGES[2]!, RANGES[3]!]);
  });
