import { describe, expect } from 'vitest';
import { cspAlert, spikeAlerts, spikeRanges } from '../../core/alerts/periodic';
import type { RaisedAlert } from '../../core/alerts/raised';
import { p75Rank } from '../../core/vitals';
import { newCspReport, newErrorReport } from '../../core/newReports';
import type { ErrorReport } from '../../core/records';
import type { Store } from '../../store/contract';
import type { StoreTest } from './storeTest';
import { violation } from './violation';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 4, 8, 12, 3);
const WEBHOOK = { type: 'webhook', url: 'https://hooks.shop.example/alerts', format: 'json', secret: 's3cret' } as const;
const insertErrors = (store: Store, siteKey: string, reports: ErrorReport[], receivedAt = Date.now()) =>
  store.errors.insert(siteKey, reports.map((report) => newErrorReport(report)), { received_at: receivedAt });
const crash = (message: string, fields: Partial<ErrorReport> = {}): ErrorReport => ({ error_type: 'javascript_error', error_message: message, ...fields });

/**
 * Alerts raised outside ingest (docs/alerts.md, "Rule kinds"; store/contract/alerts.ts): rules with
 * their parameters, what serve's periodic evaluation reads (spike counts, a metric's p75), raising
 * under cooldowns and keys, the digest's claim of waiting rows, and the outbox's retention; part of
 * the store contract (store.contract.ts).
 *
 * @example
 * describePeriodicAlertsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describePeriodicAlertsContract = (test: StoreTest) =>
  describe('periodic alerts', () => {
    test("rules keep their kind's parameters; the periodic kinds are read for every site, with its name", async ({ store, seed }) => {
      const shop = await seed.addSite([], 'Shop');
      const blog = await seed.addSite([], 'Blog');
      const spike = await store.alerts.addRule(shop, { kind: 'spike', channels: [WEBHOOK], cooldown_minutes: 30, window_minutes: 10, factor: 2.5 });
      await store.alerts.addRule(shop, { kind: 'new_issue', channels: [WEBHOOK], cooldown_minutes: 30 });
      await store.alerts.addRule(blog, { kind: 'vital_poor', channels: [WEBHOOK], cooldown_minutes: 60, metric: 'LCP' });
      expect((await store.alerts.rules(shop))[0]).toEqual({ ...spike, window_minutes: 10, factor: 2.5 });
      expect((await store.alerts.rules(shop))[1]).not.toHaveProperty('window_minutes');
      const periodic = await store.alerts.periodicRules();
      expect(periodic.map(({ site_name, kind, window_minutes, factor, metric }) => ({ site_name, kind, window_minutes, factor, metric }))).toEqual([
        { site_name: 'Shop', kind: 'spike', window_minutes: 10, factor: 2.5, metric: undefined },
        { site_name: 'Blog', kind: 'vital_poor', window_minutes: undefined, factor: undefined, metric: 'LCP' },
      ]);
    });

    test("spike counts: each issue's occurrences in the window (a report's count included), most first, and over the baseline's days", async ({ store, seed }) => {
      const shop = await seed.addSite([]);
      const ranges = spikeRanges(10, NOW);
      await insertErrors(store, shop, [crash('hot'), crash('hot', { count: 4 }), crash('warm')], NOW - 60_000);
      await insertErrors(store, shop, [crash('hot')], NOW - 11 * 60_000);
      await insertErrors(store, shop, [crash('hot', { count: 3 }), crash('warm')], NOW - 2 * DAY);
      await insertErrors(store, shop, [crash('hot')], NOW - 8 * DAY);
      await insertErrors(store, shop, [crash('later')], NOW);
      const hot = newErrorReport(crash('hot')).fingerprint;
      const warm = newErrorReport(crash('warm')).fingerprint;
      expect(await store.alerts.spikeCounts(shop, { ...ranges, limit: 10 })).toEqual([
        { fingerprint: hot, occurrences: 5, baseline: 3 },
        { fingerprint: warm, occurrences: 1, baseline: 1 },
      ]);
      expect(await store.alerts.spikeCounts(shop, { ...ranges, limit: 1 })).toHaveLength(1);
      expect(await store.alerts.spikeCounts(await seed.addSite([]), { ...ranges, limit: 10 })).toEqual([]);
    });

    test("a metric's p75 over a range of its samples' last updates", async ({ store, seed }) => {
      const shop = await seed.addSite([]);
      for (const [index, value] of [1000, 2000, 3000, 4000, 9000].entries()) {
        await seed.upsertSession(shop, { session_id: `s${index}`, metrics: { LCP: { value } } }, NOW - 3_600_000 + index);
      }
      await seed.upsertSession(shop, { session_id: 'old', metrics: { LCP: { value: 20_000 } } }, NOW - 2 * DAY);
      expect(await store.alerts.vitalP75(shop, 'LCP', { since: NOW - DAY, until: NOW })).toEqual({ samples: 5, p75: 4000 });
      expect(await store.alerts.vitalP75(shop, 'INP', { since: NOW - DAY, until: NOW })).toEqual({ samples: 0, p75: undefined });
      // The nearest rank (core/vitals.ts p75Rank) of 12 samples is the 9th, of 7 the 6th.
      for (const [name, count] of [['TTFB', 12], ['FCP', 7]] as const) {
        for (let value = count; value >= 1; value--) await seed.upsertSession(shop, { session_id: `${name}-${value}`, metrics: { [name]: { value } } }, NOW - 60_000);
        expect(await store.alerts.vitalP75(shop, name, { since: NOW - DAY, until: NOW })).toEqual({ samples: count, p75: p75Rank(count) + 1 });
      }
    });

    test('raising: one row per channel under its key, not again for the key, nor within the cooldown; another process reads them', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite([], 'Shop');
      const rule = await store.alerts.addRule(shop, { kind: 'spike', channels: [WEBHOOK, { type: 'email', to: 'ops@shop.example' }], cooldown_minutes: 30, window_minutes: 10, count: 2 });
      await insertErrors(store, shop, [crash('hot'), crash('hot')], NOW - 60_000);
      const issues = await Promise.all((await store.alerts.spikeCounts(shop, { ...spikeRanges(10, NOW), limit: 10 })).map(async (count) => [count, (await store.issues.get(shop, count.fingerprint))!] as const));
      const raisedAt = (now: number) =>
        spikeAlerts({ rule, site: { key: shop, name: 'Shop' }, counts: issues.map(([count]) => count), issues: new Map(issues.map(([count, issue]) => [count.fingerprint, issue])), now });
      expect(await store.alerts.raise(raisedAt(NOW))).toBe(2);
      const second = await reopen();
      // The same window from another collector: the same keys, nothing written.
      expect(await second.alerts.raise(raisedAt(NOW + 60_000))).toBe(0);
      // The next window within the cooldown: nothing; past it, alerts again.
      expect(await second.alerts.raise(raisedAt(NOW + 20 * 60_000))).toBe(0);
      expect(await second.alerts.raise(raisedAt(NOW + 31 * 60_000))).toBe(2);
      const rows = await store.alerts.deliveries(shop, { limit: 10 });
      expect(rows).toHaveLength(4);
      expect(rows.every((row) => row.payload.id == row.id && row.payload.kind == 'spike' && row.status == 'pending')).toBe(true);
      expect(rows.map(({ fingerprint }) => fingerprint)).toEqual(Array(4).fill(newErrorReport(crash('hot')).fingerprint));
      expect(await store.alerts.raise([])).toBe(0);
    });

    test('a new enforced CSP block alerts with its report, once per directive and host; a report-only one is no block', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite([], 'Shop');
      const quiet = await seed.addSite([]);
      const enforced = (directive: string, blocked: string) => ({ ...violation(directive, blocked), disposition: 'enforce' });
      // Blocked before the rule existed: not new when the rule reads it.
      await seed.insertCsp(shop, [enforced('img-src', 'https://old.example/a.png')]);
      const rule = await store.alerts.addRule(shop, { kind: 'csp_enforced_new', channels: [WEBHOOK], cooldown_minutes: 0 });
      await seed.insertCsp(quiet, [enforced('script-src', 'https://evil.example/x.js')]);
      await seed.insertCsp(shop, [enforced('script-src', 'https://evil.example/x.js'), enforced('script-src', 'https://evil.example/y.js'), enforced('img-src', 'https://old.example/b.png')]);
      await seed.insertCsp(shop, [{ ...violation('style-src', 'https://fonts.example/a.css'), disposition: 'report' }]);
      const csp = async () => (await store.alerts.deliveries(shop, { limit: 10 })).map(({ rule, payload }) => ({ rule, kind: payload.kind, csp: payload.csp }));
      expect(await csp()).toEqual([{ rule: String(rule.id), kind: 'csp_enforced_new', csp: { directive: 'script-src', blocked_host: 'evil.example', page_url: 'https://shop.example/' } }]);
      // Again, from another process: not new any more. The report-only directive and host, now enforced: new.
      const second = await reopen();
      await second.csp.insert(shop, [enforced('script-src', 'https://evil.example/z.js')].map(newCspReport), { received_at: Date.now() });
      await seed.insertCsp(shop, [enforced('style-src', 'https://fonts.example/b.css')]);
      expect((await csp()).map(({ csp }) => csp?.directive).sort()).toEqual(['script-src', 'style-src']);
      expect(await store.alerts.deliveries(quiet, { limit: 10 })).toEqual([]);
    });

    test('two processes raising the same alerts at once write each row once', async ({ store, seed, reopen }) => {
      const shop = await seed.addSite([], 'Shop');
      const rule = await store.alerts.addRule(shop, { kind: 'csp_enforced_new', channels: [WEBHOOK], cooldown_minutes: 0 });
      const raised: RaisedAlert[] = ['a', 'b', 'c'].map((host) => cspAlert({ rule, site: { key: shop, name: 'Shop' }, block: { directive: 'script-src', blocked_host: `${host}.example` }, now: NOW }));
      const second = await reopen();
      const written = await Promise.all([store.alerts.raise(raised), second.alerts.raise(raised), store.alerts.raise(raised)]);
      expect(written.reduce((sum, count) => sum + count, 0)).toBe(3);
      expect(await store.alerts.deliveries(shop, { limit: 10 })).toHaveLength(3);
    });

    test("a digest's claim takes a site and channel's due first tries, not retries, digests, others' channels, nor rows claimed", async ({ store, seed }) => {
      const shop = await seed.addSite([]);
      const email = { type: 'email', to: 'ops@shop.example' } as const;
      await store.alerts.addRule(shop, { kind: 'new_issue', channels: [WEBHOOK, email], cooldown_minutes: 60 });
      await insertErrors(store, shop, ['a', 'b', 'c', 'd'].map((message) => crash(message)), NOW);
      const now = Date.now();
      const [claimed] = await store.alerts.claimDue(now, { limit: 1, leaseMs: 60_000 });
      const waiting = await store.alerts.claimWaiting(shop, JSON.stringify(claimed!.channel), now, { limit: 10, leaseMs: 60_000 });
      expect(waiting).toHaveLength(3);
      expect(waiting.every((row) => JSON.stringify(row.channel) == JSON.stringify(claimed!.channel) && row.id != claimed!.id)).toBe(true);
      expect(await store.alerts.claimWaiting(shop, JSON.stringify(claimed!.channel), now, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      expect((await store.alerts.claimDue(now, { limit: 10, leaseMs: 60_000 })).map(({ channel }) => channel.type)).toEqual(Array(4).fill(claimed!.channel.type == 'email' ? 'webhook' : 'email'));
    });

    test('the store is active while a rule, a user with alert mail, or an unfinished delivery exists', async ({ store, seed }) => {
      expect(await store.alerts.active()).toBe(false);
      const shop = await seed.addSite([]);
      const rule = await store.alerts.addRule(shop, { kind: 'new_issue', channels: [WEBHOOK], cooldown_minutes: 60 });
      expect(await store.alerts.active()).toBe(true);
      await insertErrors(store, shop, [crash('a')], NOW);
      await store.alerts.removeRule(shop, rule.id);
      // No rule now, but a delivery to make.
      expect(await store.alerts.active()).toBe(true);
      const [row] = await store.alerts.claimDue(Date.now(), { limit: 1, leaseMs: 0 });
      await store.alerts.record(row!.id, { status: 'sent' }, Date.now(), undefined);
      expect(await store.alerts.active()).toBe(false);
      await store.users.create({ email: 'ops@shop.example', password_hash: 'x' });
      expect(await store.alerts.active()).toBe(false);
      await store.alerts.setEmailAlerts('ops@shop.example', true);
      expect(await store.alerts.active()).toBe(true);
    });

    test('the retention deletes sent, failed and digested rows created before its time, never pending or retrying ones', async ({ store, seed }) => {
      const shop = await seed.addSite([]);
      await store.alerts.addRule(shop, { kind: 'new_issue', channels: [WEBHOOK], cooldown_minutes: 60 });
      await insertErrors(store, shop, ['a', 'b', 'c', 'd', 'e'].map((message) => crash(message)), NOW);
      const now = Date.now();
      const [sent, failed, retrying, digested] = await store.alerts.claimDue(now, { limit: 4, leaseMs: 0 });
      await store.alerts.record(sent!.id, { status: 'sent' }, now, undefined);
      await store.alerts.record(failed!.id, { status: 'fail', error: 'HTTP 404' }, now, undefined);
      await store.alerts.record(retrying!.id, { status: 'retry', error: 'HTTP 503' }, now, now + 30_000);
      await store.alerts.digest([digested!.id], { id: 'digest-1', site_key: shop, channel: WEBHOOK, payload: { ...digested!.payload, id: 'digest-1', kind: 'digest' }, created_at: now });
      const created = (await store.alerts.deliveries(shop, { limit: 10 })).map(({ created_at }) => created_at);
      expect(await store.alerts.pruneOutbox(Math.min(...created), { limit: 10 })).toBe(0);
      expect(await store.alerts.pruneOutbox(Math.max(...created) + 1, { limit: 2 })).toBe(2);
      expect(await store.alerts.pruneOutbox(Math.max(...created) + 1, { limit: 10 })).toBe(1);
      expect((await store.alerts.deliveries(shop, { limit: 10 })).map(({ status }) => status).sort()).toEqual(['pending', 'pending', 'retrying']);
    });
  });
