import { afterEach, expect, test, vi } from 'vitest';
import { getJson } from './fetchJson';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const refused = () => new Response(JSON.stringify({ error: { code: 'rate_limited', message: 'too many reads at once' } }), { status: 429, headers: { 'retry-after': '1' } });

test('a read refused as one too many (429) is tried again after Retry-After, and its answer returned', async () => {
  vi.useFakeTimers();
  const fetchMock = vi.fn().mockResolvedValueOnce(refused()).mockResolvedValueOnce(new Response(JSON.stringify({ data: [1] }), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  const read = getJson<{ data: number[] }>('/api/v1/sites');
  await vi.advanceTimersByTimeAsync(999);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await vi.advanceTimersByTimeAsync(1);
  expect(await read).toEqual({ data: [1] });
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

test('a read refused every time fails after five tries, with the collector\'s code', async () => {
  vi.useFakeTimers();
  const fetchMock = vi.fn(async () => refused());
  vi.stubGlobal('fetch', fetchMock);
  const read = getJson('/api/v1/sites').catch((error: unknown) => error);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(await read).toMatchObject({ status: 429, code: 'rate_limited' });
  expect(fetchMock).toHaveBeenCalledTimes(5);
});
