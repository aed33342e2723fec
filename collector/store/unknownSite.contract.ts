import { describe, expect, test } from 'vitest';
import { DEFAULT_SITE_KEY, type CspReport } from '../core/records';
import type { seedStore } from '../testing/seed';
import type { Store } from './contract';
import { UnknownSiteError } from './unknownSiteError';

const violation = (source?: CspReport['source'], blocked = 'https://cdn.example/a.png'): CspReport => ({
  report_type: 'csp-violation',
  document_uri: 'https://shop.example/',
  effective_directive: 'img-src',
  violated_directive: 'img-src',
  blocked_uri: blocked,
  ...(source ? { source } : {}),
});

/**
 * Report writes under a site key no site has (any longer), part of the store contract
 * (store.contract.ts; contract.ts, "UnknownSiteError"): another process rotated the key after this
 * one looked it up. Each such write rejects with UnknownSiteError and stores nothing; the other
 * writes committed with it in one group are stored, once.
 *
 * @example
 * describeUnknownSiteContract(() => ({ store, seed, reopen }));
 */
export const describeUnknownSiteContract = (
  context: () => { store: Store; seed: ReturnType<typeof seedStore>; reopen: () => Promise<Store> },
) =>
  describe('writes under an unknown site key', () => {
    const rejectsAsUnknown = async (write: Promise<unknown>, siteKey: string) => {
      const error = await write.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(UnknownSiteError);
      expect(error).toMatchObject({ siteKey });
    };

    test('after another process rotated the key, every report write under the old one rejects with UnknownSiteError and stores nothing', async () => {
      const { store, seed, reopen } = context();
      const shop = await seed.addSite(['https://shop.example']);
      await seed.insertErrors(shop, [{ error_type: 'js', error_message: 'before' }]);
      await seed.upsertSession(shop, { session_id: 's1', metrics: { LCP: { value: 1000 } } });
      // The other process (the CLI's `site rotate-key`, another collector).
      expect(await (await reopen()).sites.rotateKey(shop, 'rotatedshop')).toMatchObject({ site_key: 'rotatedshop' });

      await rejectsAsUnknown(seed.insertErrors(shop, [{ error_type: 'js', error_message: 'after' }]), shop);
      await rejectsAsUnknown(seed.insertCsp(shop, [violation()]), shop);
      // A report that may be a copy of a stored violation takes the one-by-one path (issue 12).
      await rejectsAsUnknown(seed.insertCsp(shop, [violation('beacon')]), shop);
      // s1 moved with the site: under the old key it is a new session, which has no site.
      await rejectsAsUnknown(seed.upsertSession(shop, { session_id: 's1', metrics: { CLS: { value: 0.5 } } }), shop);
      await rejectsAsUnknown(seed.upsertSession(shop, { session_id: 's2', metrics: { LCP: { value: 2000 } } }), shop);

      for (const view of [store, await reopen()]) {
        for (const kind of ['errors', 'csp', 'performance'] as const) expect((await view[kind].list(shop)).data).toEqual([]);
        expect((await view.errors.list('rotatedshop')).data.map((report) => report.error_message)).toEqual(['before']);
        expect((await view.csp.list('rotatedshop')).data).toEqual([]);
        expect((await view.performance.list('rotatedshop')).data).toMatchObject([{ session_id: 's1', metrics: { LCP: { value: 1000 } } }]);
        expect((await view.performance.list('rotatedshop')).data[0]!.metrics).not.toHaveProperty('CLS');
        expect((await view.errors.groups('rotatedshop')).map((group) => group.reports)).toEqual([1]);
        expect(await view.csp.groups('rotatedshop')).toEqual([]);
      }
      expect(await store.sites.get(shop)).toBeUndefined();
    });

    test('a key that was never a site\'s rejects the same way, and the writes sent with it (one group commit) are stored once', async () => {
      const { store, seed } = context();
      const blog = await seed.addSite(['https://blog.example']);
      const shop = await seed.addSite(['https://shop.example']);
      await (await context().reopen()).sites.rotateKey(shop, 'rotatedshop');
      // Issued in one turn of the event loop: the adapters commit them together.
      const writes = [
        seed.insertErrors(blog, [{ error_type: 'js', error_message: 'one' }]),
        seed.insertErrors('nosuchsite', [{ error_type: 'js', error_message: 'lost' }]),
        seed.upsertSession(blog, { session_id: 's1', metrics: { LCP: { value: 1200 } } }),
        seed.insertCsp(shop, [violation()]),
        seed.insertCsp(blog, [violation()]),
        seed.insertCsp(blog, [violation('report-uri', 'https://cdn.example/b.png')]),
        seed.upsertSession('nosuchsite', { session_id: 's1', metrics: { LCP: { value: 9 } } }),
        seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: 'two' }, { error_type: 'js', error_message: 'three' }]),
      ];
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      await rejectsAsUnknown(writes[1]!, 'nosuchsite');
      await rejectsAsUnknown(writes[3]!, shop);
      await rejectsAsUnknown(writes[6]!, 'nosuchsite');
      expect((await seed.stored('errors', blog)).map((report) => report.error_message)).toEqual(['one']);
      expect((await seed.stored('errors', DEFAULT_SITE_KEY)).map((report) => report.error_message)).toEqual(['two', 'three']);
      expect(await seed.stored('performance', blog)).toMatchObject([{ session_id: 's1', metrics: { LCP: { value: 1200 } } }]);
      expect((await seed.stored('csp', blog)).map((report) => [report.blocked_uri, report.sources])).toEqual([
        ['https://cdn.example/a.png', undefined],
        ['https://cdn.example/b.png', ['report-uri']],
      ]);
      expect(await store.csp.groups(blog, {})).toEqual([{ directive: 'img-src', blocked_host: 'cdn.example', reports: 2 }]);
      for (const kind of ['errors', 'csp', 'performance'] as const) {
        expect(await seed.stored(kind, 'nosuchsite')).toEqual([]);
        expect(await seed.stored(kind, 'rotatedshop')).toEqual([]);
      }
    });
  });
