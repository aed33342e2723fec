import { describe, expect } from 'vitest';
import type { OutboxRow } from '../../store/contract/alerts';
import { UnknownSiteError } from '../../store/unknownSiteError';
import type { StoreTest } from './storeTest';

const T0 = Date.UTC(2026, 4, 1, 12);

/** A test's delivery as sendTestAlert logs it: tried once, ended. */
const tested = (site: string, id: string, fields: Partial<OutboxRow> = {}): OutboxRow => ({
  id,
  site_key: site,
  rule: 'test:7',
  fingerprint: null,
  channel: { type: 'webhook', url: 'https://hooks.shop.example/in', format: 'json', secret: 's3cret' },
  payload: { id, kind: 'new_issue', site: { key: site, name: 'Shop' }, url: 'https://beacon.shop.example/sites/x', created_at: new Date(T0).toISOString(), test: true },
  status: 'sent',
  tries: 1,
  next_attempt_at: null,
  last_error: null,
  created_at: T0,
  sent_at: T0 + 40,
  ...fields,
});

/**
 * A delivery logged as it ended (store/contract/alerts.ts `logDelivery`: a rule's test, docs/alerts.md
 * "Sending a test"): listed by `deliveries` as written, newest first, never claimed; part of the store
 * contract (store.contract.ts).
 *
 * @example
 * describeAlertLogContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeAlertLogContract = (test: StoreTest) =>
  describe('alert deliveries logged as they ended', () => {
    test('a sent and a failed test are listed newest first as written, never claimed; an unknown site stores nothing', async ({ store, seed, reopen }) => {
      const site = await seed.addSite([]);
      const sent = tested(site, 'a-sent');
      const failed = tested(site, 'b-failed', { status: 'failed', last_error: 'HTTP 404: Not Found', sent_at: null, created_at: T0 + 1000, channel: { type: 'email', to: 'owner@shop.example' } });
      await store.alerts.logDelivery(sent);
      await store.alerts.logDelivery(failed);
      expect(await (await reopen()).alerts.deliveries(site, { limit: 10 })).toEqual([failed, sent]);
      expect(await store.alerts.deliveries(site, { limit: 1 })).toEqual([failed]);
      expect(await store.alerts.claimDue(T0 + 86_400_000, { limit: 10, leaseMs: 60_000 })).toEqual([]);
      await expect(store.alerts.logDelivery(tested('nosuchsite', 'c'))).rejects.toBeInstanceOf(UnknownSiteError);
      expect(await store.alerts.deliveries('nosuchsite', { limit: 10 })).toEqual([]);
    });
  });
