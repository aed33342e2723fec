import { describe, expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ErrorReport, ReceiveContext, ReceivedClient } from '../../core/records';
import type { IssueListOptions, Store } from '../../store/contract';
import type { StoreTest } from './storeTest';

const T0 = Date.UTC(2026, 4, 1, 12);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const CHROME: ReceivedClient = { browser: 'Chrome', os: 'Windows', device: 'desktop', bot: false };
export const SAFARI: ReceivedClient = { browser: 'Safari', os: 'iOS', device: 'mobile', bot: false };
export const BOT: ReceivedClient = { browser: 'Googlebot', os: null, device: 'desktop', bot: true };

/** Stores `reports` as one request would, with its context (a client parsed, a visitor); each report's fingerprint its own (no mapped frame). */
export const ingest = (store: Store, siteKey: string, reports: ErrorReport[], context: Partial<ReceiveContext> = {}) =>
  store.errors.insert(siteKey, reports.map((report) => newErrorReport(report)), { received_at: T0, client: CHROME, ...context });

export const listOf = (fields: Partial<IssueListOptions> = {}): IssueListOptions => ({ status: 'all', sort: 'last_seen', limit: 100, ...fields });

const crash = (fields: Partial<ErrorReport> = {}): ErrorReport => ({ error_type: 'javascript_error', error_message: 'cart is empty', ...fields });

/**
 * Issues (docs/issues.md; store/contract/issues.ts): each error group's lifecycle kept at ingest by
 * core/issueLifecycle.ts, the owner's changes, and the issue's events, tags and trends; part of the
 * store contract (store.contract.ts). The list's filters and paging: issueLists.contract.ts.
 *
 * @example
 * describeIssuesContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeIssuesContract = (test: StoreTest) =>
  describe('issues', () => {
    test('a first report makes an unresolved issue; later ones move last seen and the releases; unknown fingerprints are undefined', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      expect(await store.issues.get(site, fingerprint)).toBeUndefined();
      await ingest(store, site, [crash({ release: '1.0' })]);
      await ingest(store, site, [crash({ release: '1.1', error_message: 'cart is empty' })], { received_at: T0 + HOUR });
      await ingest(store, site, [crash()], { received_at: T0 + 2 * HOUR });
      expect(await store.issues.get(site, fingerprint)).toEqual({
        fingerprint, error_type: 'javascript_error', error_message: 'cart is empty', first_seen: T0, last_seen: T0 + 2 * HOUR,
        first_release: '1.0', last_release: '1.1', status: 'unresolved', regressed: false, resolved_in: null,
        ignore_until_count: null, ignored_occurrences: 0, ignore_until: null,
      });
      expect(await store.issues.update(site, 'f'.repeat(16), { status: 'resolved' })).toBeUndefined();
      expect(await store.issues.get(await seed.addSite([]), fingerprint)).toBeUndefined();
    });

    test('resolved in 1.2: a report from 1.1 leaves it resolved, one from 1.3 regresses it; the next change clears regressed', async ({ store, seed, reopen }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      // The site's releases arrive in this order, 1.3 with another error only.
      await ingest(store, site, [crash({ release: '1.1' })]);
      await ingest(store, site, [crash({ release: '1.2' })], { received_at: T0 + 1 });
      await ingest(store, site, [crash({ error_type: 'other', release: '1.3' })], { received_at: T0 + 2 });
      expect(await store.issues.update(site, fingerprint, { status: 'resolved', resolved_in: '1.2' })).toMatchObject({ status: 'resolved', resolved_in: '1.2' });
      await ingest(store, site, [crash({ release: '1.1' }), crash({ release: '1.2' }), crash()], { received_at: T0 + HOUR });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'resolved', regressed: false, last_seen: T0 + HOUR });
      // Another process (a second collector on the database) stores the report from 1.3.
      await ingest(await reopen(), site, [crash({ release: '1.3' })], { received_at: T0 + 2 * HOUR });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'unresolved', regressed: true, resolved_in: null, last_release: '1.3' });
      expect(await store.issues.update(site, fingerprint, { status: 'ignored' })).toMatchObject({ status: 'ignored', regressed: false });
    });

    test('resolved in a release not arrived yet: nothing regresses it until that release came and a later one', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash({ release: '1.0' })]);
      await store.issues.update(site, fingerprint, { status: 'resolved', resolved_in: '2.0' });
      await ingest(store, site, [crash({ release: '1.9' })], { received_at: T0 + 1 });
      await ingest(store, site, [crash({ release: '2.0' })], { received_at: T0 + 2 });
      expect((await store.issues.get(site, fingerprint))!.status).toBe('resolved');
      await ingest(store, site, [crash({ release: '2.1' })], { received_at: T0 + 3 });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'unresolved', regressed: true });
    });

    test('resolved without a release: any report regresses it, in one group commit with others', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash()]);
      await store.issues.update(site, fingerprint, { status: 'resolved' });
      await Promise.all([ingest(store, site, [crash()], { received_at: T0 + 1 }), ingest(store, site, [crash({ error_message: 'x', error_type: 'x' })])]);
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'unresolved', regressed: true });
    });

    test("ignored until 5 more occurrences: a report's count counts; ignored until a time: a report after it brings it back", async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash()]);
      await store.issues.update(site, fingerprint, { status: 'ignored', ignore_until_count: 5 });
      await ingest(store, site, [crash({ count: 3 }), crash()], { received_at: T0 + 1 });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'ignored', ignored_occurrences: 4 });
      await ingest(store, site, [crash()], { received_at: T0 + 2 });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'unresolved', regressed: false, ignore_until_count: null });

      await store.issues.update(site, fingerprint, { status: 'ignored', ignore_until: T0 + HOUR });
      await ingest(store, site, [crash()], { received_at: T0 + HOUR });
      expect((await store.issues.get(site, fingerprint))!.status).toBe('ignored');
      await ingest(store, site, [crash()], { received_at: T0 + HOUR + 1 });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ status: 'unresolved', ignore_until: null });
    });

    test('ignored until a time already past lists as unresolved with no report since (statusAt)', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash()]);
      await store.issues.update(site, fingerprint, { status: 'ignored', ignore_until: Date.now() - 1000 });
      expect((await store.issues.list(site, listOf({ status: 'unresolved' }))).rows.map((row) => row.fingerprint)).toEqual([fingerprint]);
      expect((await store.issues.list(site, listOf({ status: 'ignored' }))).rows).toEqual([]);
      await store.issues.update(site, fingerprint, { status: 'ignored', ignore_until: Date.now() + DAY });
      expect((await store.issues.list(site, listOf({ status: 'ignored' }))).rows).toHaveLength(1);
    });

    test('an issue outlives its reports: retention deletes them, the issue keeps its all-time first seen and state', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash()]);
      await ingest(store, site, [crash()], { received_at: T0 + 2 * DAY });
      await store.issues.update(site, fingerprint, { status: 'resolved' });
      await store.retention.deleteBefore(T0 + DAY, { limit: 100 });
      expect(await store.issues.get(site, fingerprint)).toMatchObject({ first_seen: T0, last_seen: T0 + 2 * DAY, status: 'resolved' });
      expect((await store.issues.list(site, listOf())).rows).toMatchObject([{ fingerprint, reports: 1, occurrences: 1 }]);
    });

    test('events newest first with the client parsed at ingest, paged by cursor', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      for (let index = 0; index < 5; index++) {
        await ingest(store, site, [crash({ page_url: `https://shop.example/${index}`, release: '1.0', environment: 'production' })], { received_at: T0 + index, client: index % 2 ? SAFARI : CHROME });
      }
      await ingest(store, site, [crash()], { received_at: T0 + 10, client: undefined });
      const first = await store.issues.events(site, fingerprint, { limit: 4 });
      expect(first.rows.map((row) => row.page_url)).toEqual([undefined, 'https://shop.example/4', 'https://shop.example/3', 'https://shop.example/2']);
      expect(first.rows[0]).toMatchObject({ browser: null, os: null, device: null });
      expect(first.rows[1]).toMatchObject({ browser: 'Chrome', os: 'Windows', device: 'desktop', release: '1.0', environment: 'production', received_at: new Date(T0 + 4).toISOString() });
      const second = await store.issues.events(site, fingerprint, { limit: 4, cursor: first.next_cursor! });
      expect(second.rows.map((row) => [row.page_url, row.browser])).toEqual([['https://shop.example/1', 'Safari'], ['https://shop.example/0', 'Chrome']]);
      expect(second.next_cursor).toBeNull();
    });

    test('tags count the filtered reports by browser, OS, device, page and release, bots left out', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash({ page_url: 'https://shop.example/a', release: '1.0' }), crash({ page_url: 'https://shop.example/a', release: '1.1' })]);
      await ingest(store, site, [crash({ page_url: 'https://shop.example/b', release: '1.1' })], { client: SAFARI });
      await ingest(store, site, [crash({ page_url: 'https://shop.example/c' })], { client: BOT });
      const tags = await store.issues.tags(site, fingerprint, { limit: 10 });
      expect(tags).toEqual({
        browser: [{ value: 'Chrome', reports: 2 }, { value: 'Safari', reports: 1 }],
        os: [{ value: 'Windows', reports: 2 }, { value: 'iOS', reports: 1 }],
        device: [{ value: 'desktop', reports: 2 }, { value: 'mobile', reports: 1 }],
        page: [{ value: 'https://shop.example/a', reports: 2 }, { value: 'https://shop.example/b', reports: 1 }],
        release: [{ value: '1.1', reports: 2 }, { value: '1.0', reports: 1 }],
      });
      expect((await store.issues.tags(site, fingerprint, { limit: 1, includeBots: true, release: '1.1' })).browser).toEqual([{ value: 'Chrome', reports: 1 }]);
      expect((await store.issues.tags(site, fingerprint, { limit: 5, includeBots: true })).browser).toContainEqual({ value: 'Googlebot', reports: 1 });
    });

    test('trends: occurrences per bucket from since to until, zeros where none, for each fingerprint asked', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const one = newErrorReport(crash()).fingerprint;
      const other = newErrorReport(crash({ error_type: 'other' })).fingerprint;
      await ingest(store, site, [crash({ count: 2 })], { received_at: T0 + 30 * 60_000 });
      await ingest(store, site, [crash(), crash({ error_type: 'other' })], { received_at: T0 + 2 * HOUR });
      await ingest(store, site, [crash()], { received_at: T0 + 3 * HOUR, client: BOT });
      const trends = await store.issues.trends(site, [one, other, 'f'.repeat(16)], { since: T0, until: T0 + 4 * HOUR, bucketMs: HOUR });
      expect(trends).toEqual(new Map([[one, [2, 0, 1, 0]], [other, [0, 0, 1, 0]], ['f'.repeat(16), [0, 0, 0, 0]]]));
    });

    test('a report from an unknown site stores no issue', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      await expect(ingest(store, 'pk_never_a_site', [crash()])).rejects.toThrow();
      expect(await store.issues.get('pk_never_a_site', newErrorReport(crash()).fingerprint)).toBeUndefined();
      expect((await store.issues.list(site, listOf())).rows).toEqual([]);
    });
  });
