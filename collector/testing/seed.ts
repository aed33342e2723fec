import { newSiteKey } from '../core/keys';
import { newCspReport, newErrorReport } from '../core/newReports';
import type { CspReport, ErrorReport, PerformanceSession } from '../core/records';
import type { ListOptions, Store } from '../store/contract';

/**
 * Seeding and reading a store in tests as the collector would: the site key from core, reports with
 * what core derives from them (fingerprint, blocked host), and lists read to the end.
 *
 * @example
 * const seed = seedStore(store);
 * const shop = await seed.addSite(['https://shop.example'], 'Shop');
 * await seed.insertErrors(shop, [{ error_type: 'js', error_message: 'x is not defined' }]);
 * (await seed.stored('errors', shop)).length // 1
 */
export const seedStore = (store: Store) => ({
  /** Creates a site allowed from `origins`; resolves to its key. */
  addSite: async (origins: string[], name?: string) => {
    const siteKey = newSiteKey();
    return (await store.sites.create({ site_key: siteKey, name: name ?? siteKey, allowed_origins: origins })).site_key;
  },
  insertErrors: (siteKey: string, reports: ErrorReport[], receivedAt = Date.now(), userAgent?: string) =>
    store.errors.insert(siteKey, reports.map((report) => newErrorReport(report)), { received_at: receivedAt, user_agent: userAgent }),
  insertCsp: (siteKey: string, reports: CspReport[], receivedAt = Date.now(), userAgent?: string) =>
    store.csp.insert(siteKey, reports.map(newCspReport), { received_at: receivedAt, user_agent: userAgent }),
  upsertSession: (siteKey: string, session: PerformanceSession, receivedAt = Date.now(), userAgent?: string) =>
    store.performance.upsert(siteKey, session, { received_at: receivedAt, user_agent: userAgent }),
  /** Every stored record of a kind (all pages), oldest first. */
  stored: async <K extends 'errors' | 'csp' | 'performance'>(kind: K, siteKey: string, options: Omit<ListOptions, 'cursor'> = {}) => {
    const records: Array<Awaited<ReturnType<Store[K]['list']>>['data'][number]> = [];
    for (let cursor: string | undefined; ; ) {
      const page = await store[kind].list(siteKey, { ...options, cursor });
      records.push(...(page.data as typeof records));
      if (!page.next_cursor || (options.limit !== undefined && records.length >= options.limit)) return records;
      cursor = page.next_cursor;
    }
  },
});
