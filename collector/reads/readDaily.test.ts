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
import { violation } from '../testing/storeContract/violation';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 5, 10, 12, 20);
const postgres = usePostgresDatabase('read_daily');

/** The site page's Activity read (docs/dashboard.md, "Pages and ranges") on one store. */
const describeReadDaily = (name: string, make: () => Promise<{ store: Store; close: () => Promise<void> }>) =>
  describe(name, () => {
    let made: Awaited<ReturnType<typeof make>>;
    let site: { site_key: string };
    beforeAll(async () => {
      made = await make();
      const seed = seedStore(made.store);
      site = { site_key: await seed.addSite(['https://shop.example']) };
      const error = (message: string, count = 1) => ({ error_type: 'javascript_error', error_message: message, count });
      const check = { error_type: 'connectivity_check', error_message: 'sitebeacon check from web1' };
      // This 24 hours: 3 errors (4 occurrences), a check, a violation, a page view; the 24 before: 2 errors, 2 violations, a check.
      await seed.insertErrors(site.site_key, [error('cart is empty'), error('cart is empty', 2)], now - 23 * HOUR);
      await seed.insertErrors(site.site_key, [error('pay failed'), check], now - 10 * 60_000);
      await seed.insertCsp(site.site_key, [violation('img-src', 'https://cdn.example/a.png')], now - HOUR);
      await seed.upsertSession(site.site_key, { session_id: 'v1', metrics: {} }, now - 2 * HOUR);
      await seed.insertErrors(site.site_key, [error('cart is empty'), check], now - 30 * HOUR);
      await seed.insertErrors(site.site_key, [error('pay failed')], now - 24 * HOUR - 1);
      await seed.insertCsp(site.site_key, [violation('img-src', 'https://cdn.example/a.png'), violation('script-src', 'inline')], now - 47 * HOUR);
      // Before both ranges: in neither.
      await seed.insertErrors(site.site_key, [error('cart is empty')], now - 49 * HOUR);
    });
    afterAll(() => made.close());

    test('24 hours: hourly points, the first from since, the last incomplete; totals; the previous 24 hours; connectivity checks in none', async () => {
      const view = await readDaily(made.store, site, { since: now - DAY, p75: false }, { now });
      expect(view.until).toBe(new Date(now).toISOString());
      expect(view.hours).toHaveLength(25);
      expect(view.hours!.at(0)).toMatchObject({ hour: new Date(Date.UTC(2026, 5, 9, 12)).toISOString(), errors: 0, incomplete: false });
      expect(view.hours!.at(-1)).toMatchObject({ hour: new Date(Date.UTC(2026, 5, 10, 12)).toISOString(), errors: 1, error_occurrences: 1, incomplete: true });
      expect(view.hours!.filter((hour) => hour.incomplete)).toHaveLength(1);
      expect(view.hours!.find((hour) => hour.hour == new Date(Date.UTC(2026, 5, 9, 13)).toISOString())).toMatchObject({ errors: 2, error_occurrences: 3 });
      const sum = (key: 'errors' | 'error_occurrences' | 'csp' | 'page_views') => view.hours!.reduce((total, hour) => total + hour[key], 0);
      expect({ errors: sum('errors'), error_occurrences: sum('error_occurrences'), csp: sum('csp'), page_views: sum('page_views') }).toEqual(view.totals);
      expect(view.totals).toEqual({ errors: 3, error_occurrences: 4, csp: 1, page_views: 1 });
      expect(view.previous).toEqual({
        since: new Date(now - 2 * DAY).toISOString(),
        until: new Date(now - DAY).toISOString(),
        errors: 2,
        error_occurrences: 2,
        csp: 2,
        page_views: 0,
      });
    });

    test('7 days: no hourly points; the previous 7 days counted the same way', async () => {
      const view = await readDaily(made.store, site, { since: now - 7 * DAY, p75: false }, { now });
      expect(view.hours).toBeNull();
      expect(view.days).toHaveLength(8);
      expect(view.totals).toEqual({ errors: 6, error_occurrences: 7, csp: 3, page_views: 1 });
      expect(view.previous).toMatchObject({ errors: 0, csp: 0, page_views: 0 });
    });
  });

describeReadDaily('SQLite', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'sitebeacon-read-daily-'));
  const store = createSqliteStore({ file: join(directory, 'db.sqlite') });
  return { store, close: async () => { await store.close(); rmSync(directory, { recursive: true, force: true }); } };
});

describeReadDaily('PostgreSQL', async () => {
  const schema: TestDatabase = await postgres.schema('read_daily');
  const store = await createPostgresStore({ url: schema.url });
  return { store, close: async () => { await store.close(); await schema.drop(); } };
});
