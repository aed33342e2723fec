import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Store } from '../store/contract';
import { createPostgresStore } from '../store/postgres';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from '../testing/seed';
import { usePostgresDatabase, type TestDatabase } from '../testing/testDatabase';
import { readDaily } from './readDaily';
import { readErrorGroups } from './readErrorGroups';
import { readSummary } from './readSummary';

const DAY = 86_400_000;
const now = Date.UTC(2026, 5, 10, 12);
const postgres = usePostgresDatabase('counted_errors');

/** The views' counts on one store: `make` opens it; its `close` ends it and removes what it made. */
const describeCountedErrors = (name: string, make: () => Promise<{ store: Store; close: () => Promise<void> }>) =>
  describe(name, () => {
    let made: Awaited<ReturnType<typeof make>>;
    let store: Store;
    let site: { site_key: string };
    beforeAll(async () => {
      made = await make();
      store = made.store;
      const seed = seedStore(store);
      site = { site_key: await seed.addSite(['https://shop.example']) };
      const error = (message: string, count = 1) => ({ error_type: 'javascript_error', error_message: message, count });
      await seed.insertErrors(site.site_key, [error('cart is empty'), error('cart is empty', 2)], now - DAY);
      await seed.insertErrors(site.site_key, [error('pay failed')], now);
      // `sitebeacon check`'s submissions, on both days, from two machines: stored, never counted.
      const check = (machine: string) => ({ error_type: 'connectivity_check', error_message: `sitebeacon check from ${machine}` });
      await seed.insertErrors(site.site_key, [check('web1'), check('web2')], now - DAY);
      await seed.insertErrors(site.site_key, [check('web1')], now);
    });
    afterAll(() => made.close());

    test("the daily series counts what the error groups count: connectivity checks are in neither (the site page's Activity total equals its table's)", async () => {
      const query = { since: now - 2 * DAY };
      const daily = await readDaily(store, site, { ...query, p75: false }, { now });
      const groups = await readErrorGroups(store, site, { ...query, limit: 20 }, { now });
      expect(groups.data.map((group) => group.error_message)).toEqual(['cart is empty', 'pay failed']);
      const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
      expect(sum(daily.days.map((day) => day.errors))).toBe(sum(groups.data.map((group) => group.reports)));
      expect(sum(daily.days.map((day) => day.error_occurrences))).toBe(sum(groups.data.map((group) => group.count)));
      expect(daily.days.map(({ errors, error_occurrences }) => [errors, error_occurrences])).toEqual([
        [0, 0],
        [2, 3],
        [1, 1],
      ]);
    });

    test('the error groups leave connectivity checks out in the store, so a table of one row is still full', async () => {
      const { data } = await readErrorGroups(store, site, { since: now - 2 * DAY, limit: 1 }, { now });
      expect(data).toMatchObject([{ error_message: 'cart is empty', reports: 2, count: 3 }]);
    });

    test('the summary counts the same groups', async () => {
      const summary = await readSummary(store, site, { since: now - 2 * DAY, limit: 50 });
      expect(summary.errors.map((group) => group.error_message)).toEqual(['cart is empty', 'pay failed']);
      expect(summary.since).toBe(new Date(now - 2 * DAY).toISOString());
      expect((await readSummary(store, site)).since).toBeNull();
    });
  });

describeCountedErrors('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-reads-'));
  const store = createSqliteStore({ file: join(dir, 'reads.db') });
  return {
    store,
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describeCountedErrors('PostgreSQL', async () => {
  const schema: TestDatabase = await postgres.schema('reads');
  const store = await createPostgresStore({ url: schema.url });
  return {
    store,
    close: async () => {
      await store.close();
      await schema.drop();
    },
  };
});
