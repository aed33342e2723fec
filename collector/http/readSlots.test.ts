import { afterEach, describe, expect, test, vi } from 'vitest';
import { createTestCollector } from '../testing/testCollector';
import { callerOf, createReadSlots, HEAVY_READS_PER_CALLER, HEAVY_READS_WAITING_PER_CALLER } from './readSlots';

const refusalOf = (taking: Promise<unknown>) => taking.then(() => undefined, (error: unknown) => error);

describe('createReadSlots', () => {
  afterEach(() => vi.useRealTimers());

  test('a caller gets its share at once; the next waits in order for a slot another read gives back; other callers are not counted against it', async () => {
    const slots = createReadSlots({ perCaller: 2, waitingPerCaller: 2, waitMs: 1_000 });
    const first = await slots.take('key:1');
    const second = await slots.take('key:1');
    const granted: string[] = [];
    const third = slots.take('key:1').then((release) => (granted.push('third'), release));
    const fourth = slots.take('key:1').then((release) => (granted.push('fourth'), release));
    expect(slots.waiting('key:1')).toBe(2);
    await expect(slots.take('user:1')).resolves.toBeTypeOf('function');

    first();
    first();
    const releaseThird = await third;
    expect(granted).toEqual(['third']);
    expect([slots.inFlight('key:1'), slots.waiting('key:1')]).toEqual([2, 1]);
    second();
    await fourth;
    expect(granted).toEqual(['third', 'fourth']);
    releaseThird();
    expect([slots.inFlight('key:1'), slots.waiting('key:1')]).toEqual([1, 0]);
  });

  test('past the waiting bound a read is refused at once, and a read that waited too long is refused: 429 rate_limited with Retry-After', async () => {
    vi.useFakeTimers();
    const slots = createReadSlots({ perCaller: 1, waitingPerCaller: 1, waitMs: 1_000 });
    await slots.take('key:1');
    const waiting = refusalOf(slots.take('key:1'));
    const atOnce = await refusalOf(slots.take('key:1'));
    expect(atOnce).toMatchObject({ status: 429, data: { code: 'rate_limited' } });
    expect((atOnce as { headers: Headers }).headers.get('retry-after')).toBe('1');

    await vi.advanceTimersByTimeAsync(999);
    expect(slots.waiting('key:1')).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await waiting).toMatchObject({ status: 429, data: { code: 'rate_limited' } });
    expect([slots.inFlight('key:1'), slots.waiting('key:1')]).toEqual([1, 0]);
  });

  test('a waiting read whose client has gone leaves the line without taking the slot', async () => {
    const slots = createReadSlots({ perCaller: 1, waitingPerCaller: 2, waitMs: 1_000 });
    const release = await slots.take('key:1');
    const client = new AbortController();
    const gone = refusalOf(slots.take('key:1', client.signal));
    const stays = slots.take('key:1');
    client.abort();
    expect(await gone).toMatchObject({ status: 429 });
    expect(slots.waiting('key:1')).toBe(1);
    release();
    await stays;
    expect([slots.inFlight('key:1'), slots.waiting('key:1')]).toEqual([1, 0]);
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

  test("one key past its share of reads under way waits for one to end; past the waiting bound it is answered 429 at once; another key is read meanwhile", async () => {
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
    const underWay = Array.from({ length: HEAVY_READS_PER_CALLER }, () => get('error-groups', busyKey));
    await vi.waitFor(() => expect(started).toBe(HEAVY_READS_PER_CALLER));
    const waiting = Array.from({ length: HEAVY_READS_WAITING_PER_CALLER }, () => get('error-groups', busyKey));

    const refused = await get('error-groups', busyKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: { code: 'rate_limited' } });
    expect(started).toBe(HEAVY_READS_PER_CALLER);
    // A cheap route of the same key is not bounded.
    expect((await collector.request('/api/v1/sites', { headers: { authorization: `Bearer ${busyKey}` } })).status).toBe(200);

    const other = get('error-groups', otherKey);
    await vi.waitFor(() => expect(started).toBe(HEAVY_READS_PER_CALLER + 1));
    open();
    for (const response of await Promise.all([...underWay, ...waiting, other])) expect(response.status).toBe(200);
    expect(started).toBe(HEAVY_READS_PER_CALLER + HEAVY_READS_WAITING_PER_CALLER + 1);
  });
});
