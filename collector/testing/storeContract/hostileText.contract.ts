import { describe, expect } from 'vitest';
import { DEFAULT_SITE_KEY } from '../../core/records';
import type { StoreTest } from './storeTest';

/**
 * Hostile text and keys, part of the store contract (store.contract.ts): what PostgreSQL cannot hold
 * (NUL, lone surrogates) is kept the same way by every store, and lookups by what no row can have
 * find nothing instead of failing (store/storedText.ts).
 *
 * @example
 * describeHostileTextContract(storeTest(() => ({ store, seed, reopen })));
 */
export const describeHostileTextContract = (test: StoreTest) =>
  describe('hostile text', () => {
    test('text is stored as well-formed Unicode without NUL (each becomes U+FFFD), the same in every store', async ({ seed }) => {
      // PostgreSQL's text cannot hold NUL, nor its jsonb a lone surrogate; UTF-8 cannot hold a lone
      // surrogate either: a hostile report is stored, not refused (store/storedText.ts).
      const hostile = 'a\0b\uD800c\uDC00\uD83D\uDE00';
      const kept = 'a\uFFFDb\uFFFDc\uFFFD\uD83D\uDE00';
      await seed.insertErrors(DEFAULT_SITE_KEY, [{ error_type: 'js', error_message: hostile, extra: { note: hostile, 'key\0': 1 } }], Date.now(), hostile);
      const [error] = await seed.stored('errors', DEFAULT_SITE_KEY);
      expect(error).toMatchObject({ error_message: kept, user_agent: kept, extra: { note: kept, 'key\0': 1 } });
      const violation = { report_type: 'csp-violation', effective_directive: 'img-src', blocked_uri: `https://cdn.example/${hostile}` };
      await seed.insertCsp(DEFAULT_SITE_KEY, [{ ...violation, body: { x: hostile } }]);
      expect((await seed.stored('csp', DEFAULT_SITE_KEY))[0]).toMatchObject({ blocked_uri: `https://cdn.example/${kept}`, body: { x: kept } });
      await seed.upsertSession(DEFAULT_SITE_KEY, { session_id: hostile, page_url: hostile, metrics: { LCP: { value: 1, id: hostile } } });
      expect((await seed.stored('performance', DEFAULT_SITE_KEY))[0]).toMatchObject({ session_id: kept, page_url: kept, metrics: { LCP: { value: 1, id: kept } } });
    });

    test('a key, URL or id no row can have finds nothing and throws nothing', async ({ store }) => {
      expect(await store.sites.get('a\0b')).toBeUndefined();
      expect(await store.sites.get('\uD800')).toBeUndefined();
      expect(await store.apiKeys.findByHash('\0')).toBeUndefined();
      expect(await store.wordpress.findByUrl('https://shop.example/\0')).toBeUndefined();
      expect(await store.agents.get('\0')).toBeUndefined();
      for (const id of [0, -1, 1.5, 2 ** 64, Number.MAX_VALUE]) {
        expect(await store.actions.get(id)).toBeUndefined();
        expect(await store.cspProjects.get(id)).toBeUndefined();
      }
      expect((await store.errors.list('\0')).data).toEqual([]);
      expect(await store.errors.groups('\0', {})).toEqual([]);
    });
  });
