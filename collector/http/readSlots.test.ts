import { afterEach, describe, expect, test, vi } from 'vitest';
import { createTestCollector } from '../testing/testCollector';
import { callerOf, createReadSlots, HEAVY_READS_PER_CALLER } from './readSlots';

describe('createReadSlots', () => {
  test('a caller gets at most its share at once, then 429 rate_limited with Retry-After; other callers are not counted against it', () => {
    const slots = createReadSlots({ perCaller: 2 });
    const first = slots.take('key:1');
    slots.take('key:1');
    let refusal: unknown;
    try {
      slots.take('key:1');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toMatchObject({ status: 429, data: { code: 'rate_limited' } });
    expect((refusal as { headers: Headers }).headers.get('retry-after')).toBe('1');
    expect(() => slots.take('user:1')).not.toThrow();
    first();
    first();
    expect(slots.inFlight('key:1')).toBe(1);
    expect(() => slots.take('key:1')).not.toThrow();
  });

  test('a caller is its API key, else its signed-in user', () => {
    const apiKey = { id: 3, key_hash: 'h', name: 'n', created_at: '' };
    const user = { id: 3, email: 'a@example.com', password_hash: 'x', created_at: '' };
    expect(callerOf({ apiKey, user })).toBe('key:3');
    expect(callerOf({ user })).toBe('user:3');
    expect(callerOf({})).toBeUndefined();
  });
});

describe('heavy read routes', () => {
  let collector: ReturnType<typeof createTestCollector>;
  afterEach(async () => {
    expect(collector.errors).toEqual([]);
    await collector.close();
  });

  test('one key past its share of reads under way is answered 429 at once; another key, and the same key once one ends, are read', async () => {
    collector = createTestCollector();
    const shop = await collector.addSite(['https://shop.example'], 'Shop');
    const [busyKey, otherKey] = [await collector.apiKey(shop), await collector.apiKey(shop)];
    const get = (path: string, key: string) => collector.request(`/api/v1/sites/${shop}/${path}`, { headers: { authorization: `Bearer ${key}` } });
    // Every read of the error groups waits until the gate opens: the reads stay under way.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const groups = collector.store.errors.groups;
    let started = 0;
    collector.store.errors.groups = async (...args) => {
      started++;
      await gate;
      return groups(...args);
    };
    const views = ['error-groups', 'summary', 'error-groups', 'summary'];
    const underWay = views.slice(0, HEAVY_READS_PER_CALLER).map((view) => get(view, busyKey));
    await vi.waitFor(() => expect(started).toBe(HEAVY_READS_PER_CALLER));

    const refused = await get('error-groups', busyKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    // A cheap route of the same key is not bounded.
    expect((await collector.request('/api/v1/sites', { headers: { authorization: `Bearer ${busyKey}` } })).status).toBe(200);

    const other = get('error-groups', otherKey);
    await vi.waitFor(() => expect(started).toBe(HEAVY_READS_PER_CALLER + 1));
    open();
    for (const response of await Promise.all([...underWay, other])) expect(response.status).toBe(200);
    expect((await get('csp-groups', busyKey)).status).toBe(200);
  });
});
