import { afterEach, beforeEach, expect } from 'vitest';
import { createTestCollector } from './testCollector';

/**
 * A fresh test collector for each test with one site of `origin` and an API key of it, checked to
 * have logged no internal error and closed after the test; `get` reads the API with that key.
 * For a route test's file: the hooks are registered where it is called.
 *
 * @example
 * const site = useSiteCollector('https://shop.example');
 * test('...', async () => expect((await site.get(`/api/v1/sites/${site.key}/vitals`)).status).toBe(200));
 */
export const useSiteCollector = (origin: string) => {
  const site = {
    origin,
    collector: undefined as unknown as ReturnType<typeof createTestCollector>,
    key: '',
    apiKey: '',
    /** GETs `path` with the site's API key: its status and its parsed JSON body. */
    get: async (path: string) => {
      const response = await site.collector.request(path, { headers: { authorization: `Bearer ${site.apiKey}` } });
      return { status: response.status, body: (await response.json()) as any };
    },
  };
  beforeEach(async () => {
    site.collector = createTestCollector();
    site.key = await site.collector.addSite([origin], 'Shop');
    site.apiKey = await site.collector.apiKey(site.key);
  }, 30_000);
  afterEach(async () => {
    expect(site.collector.errors).toEqual([]);
    await site.collector.close();
  });
  return site;
};
