import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { COPY_WINDOW_MS, CSP_SOURCES } from '../../core/cspCopies';
import { hashApiKey, newApiKey } from '../../core/keys';
import { DEFAULT_SITE_KEY, type CspReport, type CspSource } from '../../core/records';
import { p75Rank } from '../../core/vitals';
import { seedStore } from '../seed';
import type { Store } from '../../store/contract';
import { describeDashboardReadsContract } from './dashboardReads.contract';
import { describeHostileTextContract } from './hostileText.contract';
import { describeRetentionContract } from './retention.contract';
import { describeUnknownSiteContract } from './unknownSite.contract';
import { UnknownSiteError } from '../../store/unknownSiteError';

/**
 * What a store adapter is given to run the contract: a fresh, empty store, and the same database
 * opened again (what a restart or a second collector process sees).
 */
export interface StoreUnderTest {
  open(): Promise<Store>;
  /** Removes the database; called after each test, once its stores are closed. */
  destroy(): Promise<void>;
}

const DAY = 86_400_000;
const violation = (directive: string, blocked: string, page = 'https://shop.example/') => ({
  report_type: 'csp-violation',
  document_uri: page,
  effective_directive: directive,
  violated_directive: directive,
  blocked_uri: blocked,
});

/**
 * The storage contract (store/contract.ts) as tests: every adapter passes this suite, and passing it is
 * what adding a store means. Each test gets a fresh database from `makeDatabase`.
 *
 * @example
 * describeStoreContract('SQLite', async () => { const file = tempFile(); return { open: async () => createSqliteStore({ file }), destroy: ... }; });
 */
export const describeStoreContract = (name: string, makeDatabase: () => Promise<StoreUnderTest>) =>
  describe(`store contract: ${name}`, () => {
    let database: StoreUnderTest;
    let store: Store;
    let seed: ReturnType<typeof seedStore>;
    const opened: Store[] = [];
    const reopen = async () => {
      const next = await database.open();
      opened.push(next);
      return next;
    };

    beforeEach(async () => {
      database = await makeDatabase();
      store = await reopen();
      seed = seedStore(store);
    });
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close().catch(() => {});
      await database.destroy();
    });

    describe('sites and keys', () => {
      test('a new database has the default site, which the unkeyed endpoints store under', async () => {
        expect(await store.sites.get(DEFAULT_SITE_KEY)).toMatchObject({ site_key: DEFAULT_SITE_KEY, allowed_origins: [] });
      });

      test('create, get, list and put a site; create refuses a key that exists', async () => {
        const created = await store.sites.create({ site_key: 'a1', name: 'Shop', allowed_origins: ['https://shop.example'] });
        expect(created).toMatchObject({ site_key: 'a1', name: 'Shop', allowed_origins: ['https://shop.example'] });
        expect(Date.parse(created.created_at)).not.toBeNaN();
        await expect(store.sites.create({ site_key: 'a1', name: 'Again', allowed_origins: [] })).rejects.toThrow();
        await store.sites.put({ site_key: 'a1', name: 'Shop 2', allowed_origins: ['https://shop.example', 'https://www.shop.example'] });
        expect(await store.sites.get('a1')).toMatchObject({ name: 'Shop 2', allowed_origins: ['https://shop.example', 'https://www.shop.example'] });
        await store.sites.put({ site_key: 'b2', name: 'Blog', allowed_origins: [] });
        expect((await store.sites.list()).map((site) => site.site_key)).toEqual(expect.arrayContaining(['a1', 'b2', DEFAULT_SITE_KEY]));
        expect(await store.sites.get('nope')).toBeUndefined();
      });

      test('a site or key one process creates is found by another at once (the adapters cache nothing)', async () => {
        const other = await reopen();
        expect(await other.sites.get('c3')).toBeUndefined();
        await store.sites.create({ site_key: 'c3', name: 'Shop', allowed_origins: [] });
        expect(await other.sites.get('c3')).toMatchObject({ name: 'Shop' });
        await store.apiKeys.create({ key_hash: hashApiKey('k'), name: 'ci', site_key: 'c3' });
        expect(await other.apiKeys.findByHash(hashApiKey('k'))).toMatchObject({ site_key: 'c3' });
      });

      test('an API key is found by its hash only, with its site or none', async () => {
        const shop = await seed.addSite(['https://shop.example']);
        const key = newApiKey();
        await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'ci', site_key: shop });
        await store.apiKeys.create({ key_hash: hashApiKey('installation'), name: 'all', site_key: undefined });
        expect(await store.apiKeys.findByHash(hashApiKey(key))).toMatchObject({ name: 'ci', site_key: shop });
        expect((await store.apiKeys.findByHash(hashApiKey('installation')))?.site_key).toBeUndefined();
        expect(await store.apiKeys.findByHash(hashApiKey('other'))).toBeUndefined();
      });
    });

    describe('users and sessions', () => {
      test('a user is created once per email, found by it, and put replaces its password hash and sites', async () => {
        const shop = await seed.addSite(['https://shop.example']);
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'scrypt$a', site_keys: [shop] });
        expect(ann).toMatchObject({ email: 'ann@shop.example', password_hash: 'scrypt$a', site_keys: [shop] });
        expect(typeof ann.id).toBe('number');
        expect(Date.parse(ann.created_at)).not.toBeNaN();
        await expect(store.users.create({ email: 'ann@shop.example', password_hash: 'scrypt$b', site_keys: undefined })).rejects.toThrow();
        const every = await store.users.create({ email: 'bob@shop.example', password_hash: 'scrypt$c', site_keys: undefined });
        expect(every.site_keys).toBeUndefined();
        const put = await store.users.put({ email: 'ann@shop.example', password_hash: 'scrypt$d', site_keys: undefined });
        expect(put).toMatchObject({ id: ann.id, password_hash: 'scrypt$d' });
        expect(put.site_keys).toBeUndefined();
        expect(await store.users.findByEmail('ann@shop.example')).toEqual(put);
        expect(await store.users.findByEmail('nobody@shop.example')).toBeUndefined();
        const created = await store.users.put({ email: 'cy@shop.example', password_hash: 'scrypt$e', site_keys: [] });
        expect(created.site_keys).toEqual([]);
      });

      test('a session finds its user by token hash until it expires or is deleted, and the next process sees it', async () => {
        const user = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: ['a1', 'b2'] });
        const now = Date.now();
        await store.sessions.create({ token_hash: hashApiKey('t1'), user_id: user.id, expires_at: now + 60_000 });
        await store.sessions.create({ token_hash: hashApiKey('t2'), user_id: user.id, expires_at: now + 120_000 });
        expect(await store.sessions.findUser(hashApiKey('t1'), now)).toEqual(user);
        expect(await (await reopen()).sessions.findUser(hashApiKey('t1'), now)).toEqual(user);
        expect(await store.sessions.findUser(hashApiKey('t1'), now + 60_000)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('nope'), now)).toBeUndefined();
        await store.sessions.delete(hashApiKey('t2'));
        expect(await store.sessions.findUser(hashApiKey('t2'), now)).toBeUndefined();
        await store.sessions.delete(hashApiKey('never'));
      });

      test('a session is created only for a user who exists and, given a password hash, still has it', async () => {
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'old', site_keys: undefined });
        const now = Date.now();
        expect(await store.sessions.create({ token_hash: hashApiKey('t1'), user_id: ann.id, password_hash: 'old', expires_at: now + 60_000 })).toBe(true);
        expect(await store.sessions.create({ token_hash: hashApiKey('t2'), user_id: ann.id, password_hash: 'new', expires_at: now + 60_000 })).toBe(false);
        expect(await store.sessions.create({ token_hash: hashApiKey('t3'), user_id: ann.id + 1000, expires_at: now + 60_000 })).toBe(false);
        expect(await store.sessions.findUser(hashApiKey('t1'), now)).toEqual(ann);
        expect(await store.sessions.findUser(hashApiKey('t2'), now)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('t3'), now)).toBeUndefined();
      });

      test('a removed user is found no more and their sessions find no one, at any process; others keep theirs', async () => {
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: ['a1'] });
        const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
        const now = Date.now();
        const other = await reopen();
        await store.sessions.create({ token_hash: hashApiKey('ann'), user_id: ann.id, expires_at: now + 60_000 });
        await store.sessions.create({ token_hash: hashApiKey('bob'), user_id: bob.id, expires_at: now + 60_000 });
        expect(await other.sessions.findUser(hashApiKey('ann'), now)).toEqual(ann);
        expect(await other.users.remove('ann@shop.example')).toBe(true);
        expect(await store.users.findByEmail('ann@shop.example')).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('ann'), now)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('bob'), now)).toEqual(bob);
        expect(await store.users.remove('ann@shop.example')).toBe(false);
        // The email is free again, for a new user with nothing of the old one's.
        const again = await store.users.create({ email: 'ann@shop.example', password_hash: 'h2', site_keys: undefined });
        expect(await store.sessions.findUser(hashApiKey('ann'), now)).toBeUndefined();
        expect(again.site_keys).toBeUndefined();
      });

      test('setPasswordHash replaces the hash, keeps the sites and ends every session of the user, at any process', async () => {
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'old', site_keys: ['a1'] });
        const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
        const now = Date.now();
        for (const token of ['a', 'b']) await store.sessions.create({ token_hash: hashApiKey(token), user_id: ann.id, expires_at: now + 60_000 });
        await store.sessions.create({ token_hash: hashApiKey('bob'), user_id: bob.id, expires_at: now + 60_000 });
        const other = await reopen();
        const updated = await other.users.setPasswordHash('ann@shop.example', 'new');
        expect(updated).toEqual({ ...ann, password_hash: 'new' });
        expect(await store.users.findByEmail('ann@shop.example')).toEqual(updated);
        for (const token of ['a', 'b']) expect(await store.sessions.findUser(hashApiKey(token), now)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('bob'), now)).toEqual(bob);
        expect(await store.users.setPasswordHash('nobody@shop.example', 'x')).toBeUndefined();
      });

      test('a sign-in racing a password reset leaves no session made with the old password', async () => {
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h0', site_keys: undefined });
        const other = await reopen();
        const now = Date.now();
        for (let round = 1; round <= 10; round++) {
          // As a sign-in does: the hash it checked, then the session, while another process resets.
          const checked = (await store.users.findByEmail('ann@shop.example'))!.password_hash;
          const token = hashApiKey(`round ${round}`);
          await Promise.all([
            store.sessions.create({ token_hash: token, user_id: ann.id, password_hash: checked, expires_at: now + 60_000 }),
            other.users.setPasswordHash('ann@shop.example', `h${round}`),
          ]);
          expect(await store.sessions.findUser(token, now)).toBeUndefined();
        }
      });

      test('deleteForUser ends every session of that user only, and counts those that had not expired', async () => {
        const ann = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: undefined });
        const bob = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
        const now = Date.now();
        await store.sessions.create({ token_hash: hashApiKey('a1'), user_id: ann.id, expires_at: now + 60_000 });
        await store.sessions.create({ token_hash: hashApiKey('a2'), user_id: ann.id, expires_at: now + 120_000 });
        await store.sessions.create({ token_hash: hashApiKey('b1'), user_id: bob.id, expires_at: now + 60_000 });
        const other = await reopen();
        expect(await other.sessions.deleteForUser(ann.id)).toBe(2);
        expect(await store.sessions.findUser(hashApiKey('a1'), now)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('a2'), now)).toBeUndefined();
        expect(await store.sessions.findUser(hashApiKey('b1'), now)).toEqual(bob);
        expect(await store.users.findByEmail('ann@shop.example')).toEqual(ann);
        expect(await store.sessions.deleteForUser(ann.id)).toBe(0);
      });
    });

    describe('reports', () => {
      test('error reports list oldest first in pages by opaque cursor, and filter by since', async () => {
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

      test('a report keeps every field it was given, and only those', async () => {
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

      test("a report's causes read back with it, in order, in the list (what `export` writes) and as its group's latest; a report without has none", async () => {
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

      test('a write for an unknown site is refused, and the writes beside it still commit', async () => {
        const results = await Promise.allSettled([
          seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'a' }]),
          seed.insertErrors('no-such-site', [{ error_type: 'js', error_message: 'b' }]),
          seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'c' }]),
        ]);
        expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(UnknownSiteError);
        expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((record) => record.error_message)).toEqual(['a', 'c']);
      });

      test('what a write resolved is there for the next process, and close() commits what is queued', async () => {
        const written = seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'last' }]);
        await store.close();
        await expect(written).resolves.toBe(1);
        const next = await reopen();
        expect((await next.errors.list(DEFAULT_SITE_KEY)).data.map((record) => record.error_message)).toEqual(['last']);
      });

      test('writes made in one turn are listed in the order they were made', async () => {
        await Promise.all(['m0', 'm1', 'm2', 'm3'].map((message) => seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: message }])));
        expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((record) => record.error_message)).toEqual(['m0', 'm1', 'm2', 'm3']);
      });

      test('error groups by fingerprint: reports, occurrences, first and last seen, most first, from since', async () => {
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

      test('CSP reports: list, groups by directive and blocked host, and bounded evidence with a sample each', async () => {
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
          { directive: 'img-src', blocked_host: 'cdn.example', reports: 3 },
          { directive: 'connect-src', blocked_host: 'api.example', reports: 1 },
          { directive: 'script-src-elem', blocked_host: 'inline', reports: 1 },
        ]);
        const evidence = await store.csp.evidence(DEFAULT_SITE_KEY, { limit: 2 });
        expect(evidence).toHaveLength(2);
        expect(evidence[0]).toMatchObject({ directive: 'img-src', reports: 3, document_uri: 'https://shop.example/' });
        expect(evidence[0]!.blocked_uri).toMatch(/^https:\/\/cdn\.example\/[abc]\.png$/);
        expect(evidence[1]).toMatchObject({ directive: 'connect-src', blocked_uri: 'https://api.example/x', document_uri: 'https://shop.example/cart', reports: 1 });
      });

      // One violation, one count (issue 12; contract.ts, CspReportStore.insert; core/cspCopies.ts).
      describe('copies of one violation', () => {
        const now = Date.UTC(2026, 5, 10, 12);
        const copy = (source: CspSource, fields: Partial<CspReport> = {}): CspReport => ({
          ...violation('img-src', 'https://cdn.example.net/x.png', 'https://shop.example/cart?step=2'),
          line_number: 9,
          column_number: 27,
          source,
          ...fields,
        });

        test("the beacon's copy, then the browser's report: stored once with both sources, the browser's fields, the first arrival's time; counted once", async () => {
          const shop = await seed.addSite(['https://shop.example']);
          expect(await seed.insertCsp(shop, [copy('beacon', { disposition: 'enforce', script_sample: 'x' })], now, 'UA beacon')).toBe(1);
          expect(await seed.insertCsp(shop, [copy('report-uri', { status_code: 0, original_policy: "img-src 'self'" })], now + 2_000, 'UA native')).toBe(0);
          const stored = await seed.stored('csp', shop);
          expect(stored).toHaveLength(1);
          expect(stored[0]).toMatchObject({ source: 'report-uri', sources: ['beacon', 'report-uri'], status_code: 0, original_policy: "img-src 'self'" });
          expect(stored[0]).toMatchObject({ received_at: new Date(now).toISOString(), user_agent: 'UA beacon' });
          expect(stored[0]).not.toHaveProperty('disposition');
          expect(stored[0]).not.toHaveProperty('script_sample');
          expect(await store.csp.groups(shop, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example.net', reports: 1 }]);
          expect((await store.csp.evidence(shop, { limit: 10 })).map((group) => group.reports)).toEqual([1]);
        });

        test("the browser's report, then the beacon's copy: the browser's fields stay, the beacon's source is added", async () => {
          const shop = await seed.addSite(['https://shop.example']);
          expect(await seed.insertCsp(shop, [copy('report-to', { status_code: 200, age: 10 })], now)).toBe(1);
          expect(await seed.insertCsp(shop, [copy('beacon', { status_code: 0 })], now + 1_000)).toBe(0);
          const stored = await seed.stored('csp', shop);
          expect(stored).toMatchObject([{ source: 'report-to', sources: ['report-to', 'beacon'], status_code: 200, age: 10 }]);
        });

        test('never merged: copies from one side, report-uri with report-to, another site, another violation, outside the window, no source', async () => {
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

        test("a popular violation (a report from each of 150 visitors, then each visitor's beacon copy): each copy merges into the oldest report still awaiting one", async () => {
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

        test('any arrival order of N beacon copies and M browser reports within the window makes max(N, M) reports, as many as groups count', async () => {
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

        test('copies arriving at once (one group commit, and two processes) are matched as one after the other would be: max(N, M) reports, each counted once', async () => {
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

        test('copies arriving at once whose windows differ: each merges into the oldest report awaiting it within its own window', async () => {
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

        test('one call of many copies: each merges into the oldest stored report awaiting its side, or into a report stored before it in the call', async () => {
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

      test('a performance session is created, then each metric keeps its latest value', async () => {
        await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', page_url: 'https://shop.example/', metrics: { LCP: { value: 2000 }, TTFB: { value: 300 } } });
        await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { LCP: { value: 2500, rating: 'good' }, CLS: { value: 0.02 } } });
        const sessions = await seed.stored('performance', DEFAULT_SITE_KEY);
        expect(sessions).toHaveLength(1);
        expect(sessions[0]).toMatchObject({
          session_id: 's1',
          page_url: 'https://shop.example/',
          metrics: { LCP: { value: 2500, rating: 'good' }, TTFB: { value: 300 }, CLS: { value: 0.02 } },
        });
      });

      test('upserts of one session in one turn, and from two processes at once, merge into one row: each metric its latest value', async () => {
        const other = seedStore(await reopen());
        const t = Date.UTC(2026, 5, 10, 12);
        await Promise.all([
          seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', page_url: 'https://shop.example/', metrics: { LCP: { value: 1000 } } }, t),
          other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { CLS: { value: 0.1 } } }, t + 1),
          seed.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', navigation_type: 'reload', metrics: { LCP: { value: 1500 }, INP: { value: 80 } } }, t + 2),
          other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { TTFB: { value: 200 } } }, t + 3),
        ]);
        await other.upsertSession(DEFAULT_SITE_KEY, { session_id: 's1', metrics: { INP: { value: 120 } } }, t + 4);
        const sessions = await seed.stored('performance', DEFAULT_SITE_KEY);
        expect(sessions).toHaveLength(1);
        expect(sessions[0]).toMatchObject({
          page_url: 'https://shop.example/',
          navigation_type: 'reload',
          metrics: { LCP: { value: 1500 }, CLS: { value: 0.1 }, INP: { value: 120 }, TTFB: { value: 200 } },
        });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] })).toMatchObject({ samples: 1, p75: 1500 });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'INP', thresholds: [200, 500], since: t + 4 })).toMatchObject({ samples: 1, p75: 120 });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'TTFB', thresholds: [800, 1800], since: t + 4 })).toMatchObject({ samples: 0 });
      });

      test('metric counts against thresholds, and the value at the p75 rank', async () => {
        const values = [100, 900, 1200, 2600, 2700, 4100, 5000, 700];
        for (const [i, value] of values.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `s${i}`, metrics: { LCP: { value } } });
        const counts = await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000] });
        const sorted = [...values].sort((a, b) => a - b);
        expect(counts).toEqual({ samples: 8, good: 4, needs_improvement: 2, poor: 2, p75: sorted[Math.ceil(8 * 0.75) - 1] });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'INP', thresholds: [200, 500] })).toMatchObject({ samples: 0, p75: null });
      });

      test('metric counts from since: values on a threshold rate as the lower band, samples updated before since are left out', async () => {
        const t = Date.UTC(2026, 5, 10, 12);
        const older = [2500, 4000, 9000];
        const newer = [2500, 2500.5, 4000, 4000.5, 100, 3000, 3100];
        for (const [i, value] of older.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `o${i}`, metrics: { LCP: { value } } }, t - 1);
        for (const [i, value] of newer.entries()) await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: `n${i}`, metrics: { LCP: { value } } }, t);
        const p75 = (values: number[]) => [...values].sort((a, b) => a - b)[p75Rank(values.length)];
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t })).toEqual({
          samples: 7, good: 2, needs_improvement: 4, poor: 1, p75: p75(newer),
        });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t - 1 })).toEqual({
          samples: 10, good: 3, needs_improvement: 5, poor: 2, p75: p75([...older, ...newer]),
        });
        expect(await store.performance.metricCounts(DEFAULT_SITE_KEY, { name: 'LCP', thresholds: [2500, 4000], since: t + 1 })).toEqual({
          samples: 0, good: 0, needs_improvement: 0, poor: 0, p75: null,
        });
      });
    });

    describeRetentionContract(() => ({ store, seed }));
    describeHostileTextContract(() => ({ store, seed }));
    describeDashboardReadsContract(() => ({ store, seed }));
    describeUnknownSiteContract(() => ({ store, seed, reopen }));

    describe('integrations', () => {
      test('a WordPress install is put once per site, found by URL, and records check-ins', async () => {
        const shop = await seed.addSite(['https://shop.example']);
        await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop' });
        await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop renamed' });
        expect(await store.wordpress.findByUrl('https://shop.example')).toMatchObject({ site_key: shop, name: 'Shop renamed' });
        await store.wordpress.recordCheckIn(shop, { plugin_version: '1.4.0', status: { cache: 'on' } });
        const install = await store.wordpress.get(shop);
        expect(install).toMatchObject({ plugin_version: '1.4.0', status: { cache: 'on' } });
        expect(Date.parse(install!.last_check_in_at!)).not.toBeNaN();
        expect(await store.wordpress.findByUrl('https://other.example')).toBeUndefined();
      });

      test('actions wait, oldest first, until completed', async () => {
        const shop = await seed.addSite(['https://shop.example']);
        const first = await store.actions.add(shop, { type: 'flush_cache' });
        const second = await store.actions.add(shop, { type: 'ping', payload: { n: 1 } });
        expect((await store.actions.pending(shop)).map((action) => action.id)).toEqual([first.id, second.id]);
        await store.actions.complete(first.id, { status: 'succeeded', message: 'done', result: { entries: 3 } });
        expect(await store.actions.get(first.id)).toMatchObject({ status: 'succeeded', message: 'done', result: { entries: 3 } });
        expect((await store.actions.pending(shop)).map((action) => action.id)).toEqual([second.id]);
      });

      test('CSP projects: create, list by site, update, delete', async () => {
        const shop = await seed.addSite(['https://shop.example']);
        const project = await store.cspProjects.create({ site_key: shop, name: 'Main', mode: 'report-only', base_policy: "default-src 'self'" });
        expect(project).toMatchObject({ site_key: shop, name: 'Main', mode: 'report-only' });
        expect(await store.cspProjects.list(shop)).toHaveLength(1);
        expect(await store.cspProjects.list(DEFAULT_SITE_KEY)).toHaveLength(0);
        expect(await store.cspProjects.update(project.id, { mode: 'enforce' })).toMatchObject({ mode: 'enforce', name: 'Main' });
        await store.cspProjects.delete(project.id);
        expect(await store.cspProjects.get(project.id)).toBeUndefined();
      });

      test('server agents: added, found by id, heartbeats recorded', async () => {
        const agent = await store.agents.add({ id: 'agt_1', token_hash: hashApiKey('t'), hostname: 'web1', os: 'linux', arch: 'x86_64', agent_version: '1.0.0' });
        expect(agent).toMatchObject({ id: 'agt_1', hostname: 'web1' });
        await store.agents.recordHeartbeat('agt_1', { agent_version: '1.0.1', status: { load: 0.4 } });
        expect(await store.agents.get('agt_1')).toMatchObject({ agent_version: '1.0.1', status: { load: 0.4 } });
        expect(await store.agents.get('agt_2')).toBeUndefined();
        const shop = await seed.addSite(['https://shop.example']);
        await store.agents.add({ id: 'agt_3', token_hash: hashApiKey('u'), hostname: 'web3', os: 'linux', arch: 'arm64', agent_version: '1.0.0', site_key: shop });
        expect((await store.agents.list(shop)).map((each) => each.id)).toEqual(['agt_3']);
        expect(await store.agents.list('no-site')).toEqual([]);
      });
    });

    // Issue 11, classes 7 and 9: revocation that takes effect on the next request, and a store that
    // says whether it can write.
    describe('revocation, rotation, writability', () => {
      test('a revoked API key is found no more; other keys stay', async () => {
        await store.apiKeys.create({ key_hash: hashApiKey('one'), name: 'one', site_key: undefined });
        await store.apiKeys.create({ key_hash: hashApiKey('two'), name: 'two', site_key: undefined });
        expect(await store.apiKeys.revoke(hashApiKey('one'))).toBe(true);
        expect(await store.apiKeys.findByHash(hashApiKey('one'))).toBeUndefined();
        expect(await store.apiKeys.revoke(hashApiKey('one'))).toBe(false);
        expect(await (await reopen()).apiKeys.findByHash(hashApiKey('two'))).toMatchObject({ name: 'two' });
      });

      test("rotating a site's key moves everything stored under it, and only it, to the new key", async () => {
        const shop = await seed.addSite(['https://shop.example'], 'Shop');
        const blog = await seed.addSite(['https://blog.example'], 'Blog');
        for (const site of [shop, blog]) {
          await seed.insertErrors(site, [{ error_type: 'js', error_message: site }]);
          await seed.insertCsp(site, [violation('img-src', 'https://cdn.example/a.png')]);
          await seed.upsertSession(site, { session_id: 's', metrics: { LCP: { value: 1000 } } });
          await store.apiKeys.create({ key_hash: hashApiKey(`key-${site}`), name: site, site_key: site });
          await store.wordpress.put({ site_key: site, site_url: `https://${site}.example`, name: site });
          await store.actions.add(site, { type: 'ping' });
          await store.cspProjects.create({ site_key: site, name: site, mode: 'report-only', base_policy: "default-src 'self'" });
          await store.agents.add({ id: `agt_${site}`, token_hash: hashApiKey(site), hostname: 'h', os: 'linux', arch: 'amd64', agent_version: '1', site_key: site });
        }
        const limited = await store.users.create({ email: 'ann@shop.example', password_hash: 'h', site_keys: [blog, shop] });
        const every = await store.users.create({ email: 'bob@shop.example', password_hash: 'h', site_keys: undefined });
        const rotated = await store.sites.rotateKey(shop, 'newshopkey');
        expect(rotated).toMatchObject({ site_key: 'newshopkey', name: 'Shop', allowed_origins: ['https://shop.example'] });
        for (const view of [store, await reopen()]) {
          expect(await view.sites.get(shop)).toBeUndefined();
          expect((await view.errors.list('newshopkey')).data.map((report) => report.error_message)).toEqual([shop]);
          expect((await view.errors.groups('newshopkey')).length).toBe(1);
          expect((await view.csp.list('newshopkey')).data).toHaveLength(1);
          expect((await view.csp.groups('newshopkey')).length).toBe(1);
          expect((await view.performance.list('newshopkey')).data).toHaveLength(1);
          expect((await view.performance.metricCounts('newshopkey', { name: 'LCP', thresholds: [2500, 4000] })).samples).toBe(1);
          expect((await view.apiKeys.findByHash(hashApiKey(`key-${shop}`)))?.site_key).toBe('newshopkey');
          expect(await view.wordpress.get('newshopkey')).toMatchObject({ site_url: `https://${shop}.example` });
          expect(await view.actions.pending('newshopkey')).toHaveLength(1);
          expect(await view.cspProjects.list('newshopkey')).toHaveLength(1);
          expect((await view.agents.get(`agt_${shop}`))?.site_key).toBe('newshopkey');
          for (const kind of ['errors', 'csp', 'performance'] as const) expect((await view[kind].list(shop)).data).toEqual([]);
          expect(await view.wordpress.get(shop)).toBeUndefined();
          // The other site is untouched.
          expect((await view.errors.list(blog)).data).toHaveLength(1);
          expect((await view.apiKeys.findByHash(hashApiKey(`key-${blog}`)))?.site_key).toBe(blog);
          expect((await view.agents.get(`agt_${blog}`))?.site_key).toBe(blog);
          expect(await view.users.findByEmail(limited.email)).toEqual({ ...limited, site_keys: [blog, 'newshopkey'] });
          expect(await view.users.findByEmail(every.email)).toEqual(every);
        }
        expect(await store.sites.rotateKey('nope', 'other')).toBeUndefined();
        await expect(store.sites.rotateKey('newshopkey', blog)).rejects.toThrow();
        expect(await store.sites.get('newshopkey')).toMatchObject({ name: 'Shop' });
      });

      test("revoking a site's WordPress install removes it and its pending actions; a server agent, by id", async () => {
        const shop = await seed.addSite(['https://shop.example']);
        await store.wordpress.put({ site_key: shop, site_url: 'https://shop.example', name: 'Shop' });
        const done = await store.actions.add(shop, { type: 'ping' });
        await store.actions.complete(done.id, { status: 'succeeded' });
        await store.actions.add(shop, { type: 'flush_cache' });
        expect(await store.wordpress.revoke(shop)).toBe(true);
        expect(await store.wordpress.get(shop)).toBeUndefined();
        expect(await store.wordpress.findByUrl('https://shop.example')).toBeUndefined();
        expect(await store.actions.pending(shop)).toEqual([]);
        expect(await store.actions.get(done.id)).toMatchObject({ status: 'succeeded' });
        expect(await store.wordpress.revoke(shop)).toBe(false);

        await store.agents.add({ id: 'agt_1', token_hash: hashApiKey('t1'), hostname: 'a', os: 'linux', arch: 'amd64', agent_version: '1' });
        await store.agents.add({ id: 'agt_2', token_hash: hashApiKey('t2'), hostname: 'b', os: 'linux', arch: 'amd64', agent_version: '1' });
        expect(await store.agents.revoke('agt_1')).toBe(true);
        expect(await store.agents.revoke('agt_1')).toBe(false);
        const next = await reopen();
        expect(await next.agents.get('agt_1')).toBeUndefined();
        expect(await next.agents.get('agt_2')).toMatchObject({ hostname: 'b' });
      });

      test('a store that can write says so, and the probe changes nothing', async () => {
        await expect(store.checkWritable()).resolves.toBeUndefined();
        const sites = await store.sites.list();
        await expect(store.checkWritable()).resolves.toBeUndefined();
        expect(await store.sites.list()).toEqual(sites);
      });
    });
  });
