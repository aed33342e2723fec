import { describe, expect } from 'vitest';
import { visitorDay, visitorHash } from '../../core/visitorHash';
import type { Store } from '../../store/contract';
import type { StoreTest } from './storeTest';

const DAY = 86_400_000;
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
const error = { error_type: 'javascript_error', error_message: 'cart is empty' };

/** A client's visitor on the day of `at`, as the collector computes it at ingest (http/visitorOf.ts). */
const visitorAt = async (store: Store, siteKey: string, at: number, address: string, userAgent = FIREFOX) =>
  visitorHash(await store.visitorSalts.salt(visitorDay(at)), { siteKey, address, userAgent });

/**
 * Visitors (docs/visitors.md): the daily salts (store/contract/visitorSalts.ts), each report's and
 * session's `visitor`, and an error group's visitors as distinct (UTC day, visitor) pairs; part of
 * the store contract (store.contract.ts).
 *
 * @example
 * describeVisitorsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeVisitorsContract = (test: StoreTest) =>
  describe('visitors', () => {
    test("a day's salt is 32 random bytes, the same on every later ask and for another process on the database", async ({ store, reopen }) => {
      const day = visitorDay(Date.UTC(2026, 5, 1));
      const salt = await store.visitorSalts.salt(day);
      expect(salt).toHaveLength(32);
      expect(Buffer.from(await store.visitorSalts.salt(day))).toEqual(Buffer.from(salt));
      expect(Buffer.from(await (await reopen()).visitorSalts.salt(day))).toEqual(Buffer.from(salt));
      expect(Buffer.from(await store.visitorSalts.salt(day + 1))).not.toEqual(Buffer.from(salt));
    });

    test('two processes asking for a new day at once get one salt', async ({ store, reopen }) => {
      const other = await reopen();
      const day = visitorDay(Date.UTC(2026, 5, 2));
      const [one, two] = await Promise.all([store.visitorSalts.salt(day), other.visitorSalts.salt(day)]);
      expect(Buffer.from(one)).toEqual(Buffer.from(two));
    });

    test("the day before's salt is kept; older ones are deleted: a client cannot be followed past them", async ({ store }) => {
      const day = visitorDay(Date.UTC(2026, 5, 1));
      const first = Buffer.from(await store.visitorSalts.salt(day));
      const second = Buffer.from(await store.visitorSalts.salt(day + 1));
      await store.visitorSalts.salt(day + 2);
      expect(Buffer.from(await store.visitorSalts.salt(day + 1))).toEqual(second);
      // Deleted with day + 2: asked again, the first day has a new salt, not the one it had.
      expect(Buffer.from(await store.visitorSalts.salt(day))).not.toEqual(first);
    });

    test('the prune deletes a salt of three days ago with no report arriving, and keeps the day before and the day', async ({ store, reopen }) => {
      const today = visitorDay(Date.UTC(2026, 5, 10, 12));
      // An idle collector: its last report, three days ago, created that day's salt; none since.
      const old = Buffer.from(await store.visitorSalts.salt(today - 3));
      expect(await store.visitorSalts.prune(today)).toBe(1);
      // Another process pruning the same day deletes nothing more (a DELETE by day).
      expect(await (await reopen()).visitorSalts.prune(today)).toBe(0);
      // Deleted: asked again, that day has a new salt, not the one it had.
      expect(Buffer.from(await store.visitorSalts.salt(today - 3))).not.toEqual(old);
      const yesterday = Buffer.from(await store.visitorSalts.salt(today - 1));
      const current = Buffer.from(await store.visitorSalts.salt(today));
      expect(await store.visitorSalts.prune(today)).toBe(0);
      expect(Buffer.from(await store.visitorSalts.salt(today - 1))).toEqual(yesterday);
      expect(Buffer.from(await store.visitorSalts.salt(today))).toEqual(current);
    });

    test("an error group's visitors: two clients are 2, one client on two pages is 1", async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const at = Date.UTC(2026, 5, 1, 12);
      const [one, two] = [await visitorAt(store, shop, at, '203.0.113.7'), await visitorAt(store, shop, at, '198.51.100.4')];
      expect(one).toMatch(/^[0-9a-f]{16}$/);
      for (const page of ['https://shop.example/', 'https://shop.example/cart']) {
        await store.errors.insert(shop, [{ ...error, page_url: page, session_id: page, fingerprint: 'f1' }], { received_at: at, user_agent: FIREFOX, visitor: one });
      }
      expect(await store.errors.visitors(shop, { fingerprint: 'f1' })).toBe(1);
      expect(await store.errors.sessions(shop, { fingerprint: 'f1' })).toBe(2);
      await store.errors.insert(shop, [{ ...error, fingerprint: 'f1' }], { received_at: at + 1000, user_agent: FIREFOX, visitor: two });
      expect(await store.errors.visitors(shop, { fingerprint: 'f1' })).toBe(2);
      // Reports without a visitor (stored before visitors were kept) are not counted.
      await store.errors.insert(shop, [{ ...error, fingerprint: 'f1' }], { received_at: at });
      expect(await store.errors.visitors(shop, { fingerprint: 'f1' })).toBe(2);
      expect(await store.errors.visitors(shop, { fingerprint: 'other' })).toBe(0);
    });

    test('one client on two days is 2 visitors over both days, 1 over the second', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const monday = Date.UTC(2026, 5, 1, 23, 50);
      const tuesday = monday + 20 * 60_000;
      for (const at of [monday, tuesday]) {
        await store.errors.insert(shop, [{ ...error, fingerprint: 'f1' }], { received_at: at, visitor: await visitorAt(store, shop, at, '203.0.113.7') });
      }
      expect(await store.errors.visitors(shop, { fingerprint: 'f1', since: monday - DAY })).toBe(2);
      expect(await store.errors.visitors(shop, { fingerprint: 'f1', since: Date.UTC(2026, 5, 2) })).toBe(1);
    });

    test('one hash on two days is still two (day, visitor) pairs', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const at = Date.UTC(2026, 5, 1, 12);
      for (const when of [at, at + DAY]) await store.errors.insert(shop, [{ ...error, fingerprint: 'f1' }], { received_at: when, visitor: '0123456789abcdef' });
      expect(await store.errors.visitors(shop, { fingerprint: 'f1', since: at - DAY })).toBe(2);
    });

    test('error reports, CSP reports and performance sessions read back with their visitor', async ({ store, seed }) => {
      const shop = await seed.addSite(['https://shop.example']);
      const context = { received_at: Date.UTC(2026, 5, 1), user_agent: FIREFOX, visitor: '0123456789abcdef' };
      await store.errors.insert(shop, [{ ...error, fingerprint: 'f1' }], context);
      await store.csp.insert(shop, [{ report_type: 'csp-violation', effective_directive: 'img-src', blocked_host: 'cdn.example' }], context);
      await store.performance.upsert(shop, { session_id: 's1', metrics: { LCP: { value: 1200 } } }, context);
      // A later submission of the session keeps the visitor of its first.
      await store.performance.upsert(shop, { session_id: 's1', metrics: { CLS: { value: 0.1 } } }, { ...context, visitor: 'fedcba9876543210' });
      for (const kind of ['errors', 'csp', 'performance'] as const) {
        expect(await seed.stored(kind, shop)).toMatchObject([{ visitor: '0123456789abcdef' }]);
      }
    });
  });
