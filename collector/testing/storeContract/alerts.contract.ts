import { describe, expect } from 'vitest';
import { newErrorReport } from '../../core/newReports';
import type { ErrorReport } from '../../core/records';
import type { Store } from '../../store/contract';
import type { OutboxRow } from '../../store/contract/alerts';
import { ingest } from './issues.contract';
import type { StoreTest } from './storeTest';

const T0 = Date.UTC(2026, 4, 1, 12);
const HOUR = 3_600_000;
const crash = (fields: Partial<ErrorReport> = {}): ErrorReport => ({ error_type: 'javascript_error', error_message: 'cart is empty', ...fields });
const WEBHOOK = { type: 'webhook', url: 'https://hooks.shop.example/alerts', format: 'json', secret: 's3cret' } as const;

/** Every outbox row of a site as kind, rule and channel type, by rule (rows of one transaction share their time). */
const outbox = async (store: Store, site: string) =>
  (await store.alerts.deliveries(site, { limit: 100 }))
    .map((row) => ({ kind: row.payload.kind, rule: row.rule, channel: row.channel.type, status: row.status }))
    .sort((a, b) => Number(a.rule) - Number(b.rule));

/**
 * Alerts (docs/alerts.md; store/contract/alerts.ts): rules, the outbox written by the ingest
 * transaction where an issue's fold is new or a regression, cooldowns, and claims; part of the
 * store contract (store.contract.ts).
 *
 * @example
 * describeAlertsContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeAlertsContract = (test: StoreTest) =>
  describe('alerts', () => {
    test('rules are stored per site with their channels; removed by id; an unknown site rejects', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const rule = await store.alerts.addRule(site, { kind: 'new_issue', channels: [WEBHOOK, { type: 'email', to: 'owner@shop.example' }], cooldown_minutes: 30 });
      await store.alerts.addRule(site, { kind: 'spike', channels: [{ type: 'email', to: 'owner@shop.example' }], cooldown_minutes: 60 });
      expect((await store.alerts.rules(site)).map(({ kind, channels, cooldown_minutes }) => ({ kind, channels, cooldown_minutes }))).toEqual([
        { kind: 'new_issue', channels: [WEBHOOK, { type: 'email', to: 'owner@shop.example' }], cooldown_minutes: 30 },
        { kind: 'spike', channels: [{ type: 'email', to: 'owner@shop.example' }], cooldown_minutes: 60 },
      ]);
      expect(await store.alerts.removeRule(await seed.addSite([]), rule.id)).toBe(false);
      expect(await store.alerts.removeRule(site, rule.id)).toBe(true);
      expect((await store.alerts.rules(site)).map(({ kind }) => kind)).toEqual(['spike']);
      await expect(store.alerts.addRule('no-such-site', { kind: 'new_issue', channels: [], cooldown_minutes: 5 })).rejects.toMatchObject({ name: 'UnknownSiteError' });
    });

    test('a new issue writes one outbox row per channel with its reports; a second report of it none', async ({ store, seed }) => {
      const site = await seed.addSite([], 'Shop');
      await store.alerts.addRule(site, { kind: 'new_issue', channels: [WEBHOOK, { type: 'email', to: 'owner@shop.example' }], cooldown_minutes: 60 });
      await store.alerts.addRule(site, { kind: 'regression', channels: [WEBHOOK], cooldown_minutes: 60 });
      await ingest(store, site, [crash(), crash()]);
      await ingest(store, site, [crash()], { received_at: T0 + HOUR });
      const rows = await store.alerts.deliveries(site, { limit: 10 });
      expect(rows.map(({ channel, status, tries }) => ({ type: channel.type, status, tries })).sort((a, b) => a.type.localeCompare(b.type))).toEqual([
        { type: 'email', status: 'pending', tries: 0 },
        { type: 'webhook', status: 'pending', tries: 0 },
      ]);
      const { fingerprint } = newErrorReport(crash());
      expect(rows[0]!.payload).toMatchObject({ id: rows[0]!.id, kind: 'new_issue', site: { key: site, name: 'Shop' }, issue: { fingerprint, title: 'cart is empty' } });
      expect(new Set(rows.map(({ id }) => id)).size).toBe(2);
    });

    test('built-in rules mail the users who opted in to the site, no one else; the opt-in is off by default', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      const other = await seed.addSite([]);
      for (const [email, site_keys] of [['all@shop.example', undefined], ['mine@shop.example', [site]], ['other@shop.example', [other]], ['quiet@shop.example', undefined]] as const) {
        await store.users.create({ email, password_hash: 'x', site_keys: site_keys && [...site_keys] });
      }
      expect(await store.alerts.setEmailAlerts('nobody@shop.example', true)).toBe(false);
      await ingest(store, site, [crash({ error_message: 'before opting in' })]);
      expect(await outbox(store, site)).toEqual([]);
      for (const email of ['all@shop.example', 'mine@shop.example', 'other@shop.example']) expect(await store.alerts.setEmailAlerts(email, true)).toBe(true);
      await ingest(store, site, [crash()]);
      const rows = await store.alerts.deliveries(site, { limit: 10 });
      expect(rows.map(({ channel, rule }) => [rule, channel.type == 'email' && channel.to]).sort()).toEqual([
        ['default:new_issue', 'all@shop.example'],
        ['default:new_issue', 'mine@shop.example'],
      ]);
    });

    test('a regression after a resolve writes one alert; another within the cooldown none; a rule of 0 minutes alerts again', async ({ store, seed, reopen }) => {
      const site = await seed.addSite([]);
      const slow = await store.alerts.addRule(site, { kind: 'regression', channels: [WEBHOOK], cooldown_minutes: 60 });
      const quick = await store.alerts.addRule(site, { kind: 'regression', channels: [{ type: 'email', to: 'ops@shop.example' }], cooldown_minutes: 0 });
      const { fingerprint } = newErrorReport(crash());
      await ingest(store, site, [crash()]);
      expect(await outbox(store, site)).toEqual([]);
      await store.issues.update(site, fingerprint, { status: 'resolved' });
      // From a second process: its transaction reads the outbox the first one wrote for the cooldown.
      await ingest(await reopen(), site, [crash()], { received_at: T0 + HOUR });
      expect(await outbox(store, site)).toEqual([
        { kind: 'regression', rule: String(slow.id), channel: 'webhook', status: 'pending' },
        { kind: 'regression', rule: String(quick.id), channel: 'email', status: 'pending' },
      ]);
      await store.issues.update(site, fingerprint, { status: 'resolved' });
      await ingest(store, site, [crash()], { received_at: T0 + 2 * HOUR });
      expect((await outbox(store, site)).map(({ channel }) => channel)).toEqual(['webhook', 'email', 'email']);
      expect((await outbox(store, site)).map(({ rule }) => rule)).toEqual([String(slow.id), String(quick.id), String(quick.id)]);
    });

    test('a report that is not stored writes no alert', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      await store.alerts.addRule(site, { kind: 'new_issue', channels: [WEBHOOK], cooldown_minutes: 60 });
      await store.sites.rotateKey(site, `${site}-new`);
      await expect(ingest(store, site, [crash()])).rejects.toMatchObject({ name: 'UnknownSiteError' });
      expect(await outbox(store, site)).toEqual([]);
      expect(await outbox(store, `${site}-new`)).toEqual([]);
    });

    test('claims take due rows once, past a lease; outcomes record sent, retrying and failed', async ({ store, seed, reopen }) => {
      const site = await seed.addSite([]);
      await store.alerts.addRule(site, { kind: 'new_issue', channels: [WEBHOOK, WEBHOOK, WEBHOOK], cooldown_minutes: 60 });
      await ingest(store, site, [crash()]);
      const now = Date.now();
      const second = await reopen();
      const [a, b] = await Promise.all([store.alerts.claimDue(now, { limit: 2, leaseMs: 60_000 }), second.alerts.claimDue(now, { limit: 2, leaseMs: 60_000 })]);
      const claimed = [...a, ...b].map(({ id }) => id);
      expect(claimed).toHaveLength(3);
      expect(new Set(claimed).size).toBe(3);
      expect(await store.alerts.claimDue(now + 1000, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      const [sent, retried, failed] = claimed as [string, string, string];
      await store.alerts.record(sent, { status: 'sent' }, now, undefined);
      await store.alerts.record(retried, { status: 'retry', error: 'HTTP 503' }, now, now + 30_000);
      await store.alerts.record(failed, { status: 'fail', error: 'HTTP 404' }, now, undefined);
      const byId = new Map((await store.alerts.deliveries(site, { limit: 10 })).map((row) => [row.id, row]));
      expect(byId.get(sent)).toMatchObject({ status: 'sent', tries: 1, sent_at: now, last_error: null });
      expect(byId.get(retried)).toMatchObject({ status: 'retrying', tries: 1, next_attempt_at: now + 30_000, last_error: 'HTTP 503' });
      expect(byId.get(failed)).toMatchObject({ status: 'failed', tries: 1, sent_at: null, last_error: 'HTTP 404' });
      expect((await store.alerts.claimDue(now + 30_000, { limit: 10, leaseMs: 60_000 })).map(({ id }) => id)).toEqual([retried]);
    });

    test('a digest row is written with its held rows marked digested; postponed rows are due later; recent sends and digests are read', async ({ store, seed }) => {
      const site = await seed.addSite([]);
      await store.alerts.addRule(site, { kind: 'new_issue', channels: [WEBHOOK], cooldown_minutes: 60 });
      await ingest(store, site, [crash({ error_message: 'a' }), crash({ error_message: 'b' }), crash({ error_message: 'c' })]);
      const now = Date.now();
      const [first, second, third] = (await store.alerts.claimDue(now, { limit: 10, leaseMs: 60_000 })) as [OutboxRow, OutboxRow, OutboxRow];
      await store.alerts.record(first.id, { status: 'sent' }, now, undefined);
      await store.alerts.postpone([second.id], now + 5000);
      await store.alerts.digest([third.id], { id: 'digest-1', site_key: site, channel: WEBHOOK, payload: { ...third.payload, id: 'digest-1', kind: 'digest' }, created_at: now });
      expect((await store.alerts.claimDue(now + 1000, { limit: 10, leaseMs: 60_000 })).map(({ id, rule }) => [id, rule])).toEqual([['digest-1', 'digest']]);
      expect((await store.alerts.claimDue(now + 5000, { limit: 10, leaseMs: 60_000 })).map(({ id }) => id)).toEqual([second.id]);
      const statuses = new Map((await store.alerts.deliveries(site, { limit: 10 })).map((row) => [row.id, row.status]));
      expect(statuses.get(third.id)).toBe('digested');
      const recent = await store.alerts.recentSends(site, now - 1);
      expect(recent.map(({ digest, sent_at }) => [digest, sent_at]).sort()).toEqual([[false, now], [true, null]]);
      expect(recent.every(({ channel }) => JSON.parse(channel).url == WEBHOOK.url)).toBe(true);
    });
  });
