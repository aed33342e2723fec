import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fingerprintOf } from '../core/fingerprint';
import type { Store } from '../store/contract';
import { openStore } from '../store/openStore';
import { seedStore } from '../testing/seed';
import { createTestDatabase } from '../testing/testDatabase';
import { createTestCollector } from '../testing/testCollector';
import { readIssue } from './readIssue';
import { readIssues } from './readIssues';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const NOW = Date.UTC(2026, 10, 20, 12, 30);
const ERROR = { error_type: 'javascript_error', error_name: 'TypeError', error_message: 'cart is undefined' };
const LIST = { status: 'all', sort: 'last_seen', limit: 25 } as const;

/** The views read both stores alike: a real SQLite file, and a database of the test run's PostgreSQL. */
const STORES: Array<[name: string, open: () => Promise<{ store: Store; close: () => Promise<void> }>]> = [
  ['SQLite', async () => createTestCollector()],
  [
    'PostgreSQL',
    async () => {
      const database = await createTestDatabase('read_issues');
      const store = await openStore(database.url);
      return { store, close: async () => (await store.close(), await database.drop()) };
    },
  ],
];

describe.each(STORES)('issues views on %s', (_name, open) => {
  let store: Store;
  let close: () => Promise<void>;
  let site: string;
  beforeEach(async () => {
    ({ store, close } = await open());
    const seed = seedStore(store);
    site = await seed.addSite(['https://shop.example']);
    await seed.insertErrors(site, [{ ...ERROR, release: '1.0' }], NOW - 30 * DAY);
    await seed.insertErrors(site, [{ ...ERROR, release: '1.1', count: 2 }], NOW - HOUR);
  }, 30_000);
  afterEach(() => close());

  test('first_seen and first_release are all-time; occurrences are the range\'s (14 days by default)', async () => {
    const { since, until, items } = await readIssues(store, { site_key: site }, LIST, { now: NOW });
    expect(since).toBe(new Date(NOW - 14 * DAY).toISOString());
    expect(until).toBe(new Date(NOW).toISOString());
    expect(items).toEqual([
      expect.objectContaining({
        fingerprint: fingerprintOf(ERROR),
        first_seen: new Date(NOW - 30 * DAY).toISOString(),
        last_seen: new Date(NOW - HOUR).toISOString(),
        first_release: '1.0',
        last_release: '1.1',
        occurrences: 2,
      }),
    ]);
    expect(items[0]!.trend.interval).toBe('day');
    expect(items[0]!.trend.buckets).toHaveLength(15);
    expect(items[0]!.trend.buckets.at(-1)).toEqual({ start: new Date(Date.UTC(2026, 10, 20)).toISOString(), count: 2, incomplete: true });
  });

  test('since and until choose the range: a range that ends before the recent report counts only the old one', async () => {
    const old = await readIssues(store, { site_key: site }, { ...LIST, since: NOW - 40 * DAY, until: NOW - 10 * DAY }, { now: NOW });
    expect(old.items.map((item) => item.occurrences)).toEqual([1]);
    expect(old.items[0]!.trend.buckets.reduce((total, bucket) => total + bucket.count, 0)).toBe(1);
    expect(old.items[0]!.trend.buckets.at(-1)!.incomplete).toBe(true);
    const none = await readIssues(store, { site_key: site }, { ...LIST, since: NOW - 20 * DAY, until: NOW - 10 * DAY }, { now: NOW });
    expect(none.items).toEqual([]);
  });

  test('a range of 48 hours or less has hourly buckets: the report an hour ago is in the bucket of 11:00', async () => {
    const { items } = await readIssues(store, { site_key: site }, { ...LIST, since: NOW - 2 * DAY }, { now: NOW });
    const { interval, buckets } = items[0]!.trend;
    expect(interval).toBe('hour');
    expect(buckets).toHaveLength(49);
    expect(buckets.filter((bucket) => bucket.count > 0)).toEqual([{ start: new Date(Date.UTC(2026, 10, 20, 11)).toISOString(), count: 2, incomplete: false }]);
  });

  test('one issue counts its range as the list does, and is undefined for a fingerprint without reports', async () => {
    const issue = await readIssue(store, { site_key: site }, { fingerprint: fingerprintOf(ERROR), since: NOW - 40 * DAY }, { now: NOW });
    expect(issue).toMatchObject({ occurrences: 3, status: 'unresolved', resolved_in: null, since: new Date(NOW - 40 * DAY).toISOString() });
    expect(await readIssue(store, { site_key: site }, { fingerprint: '0000000000000000' }, { now: NOW })).toBeUndefined();
  });
});
