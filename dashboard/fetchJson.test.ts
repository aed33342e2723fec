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

test('at most four reads are under way at once; the others start, in order, as earlier ones end', async () => {
  const pending: Array<{ path: string; answer: () => void }> = [];
  vi.stubGlobal('fetch', (path: string) => new Promise<Response>((resolve) => pending.push({ path, answer: () => resolve(new Response(JSON.stringify({ path }), { status: 200 })) })));
  const reads = Array.from({ length: 7 }, (_, i) => getJson<{ path: string }>(`/read/${i}`));
  await vi.waitFor(() => expect(pending).toHaveLength(4));
  expect(pending.map(({ path }) => path)).toEqual(['/read/0', '/read/1', '/read/2', '/read/3']);
  pending[1]!.answer();
  expect(await reads[1]).toEqual({ path: '/read/1' });
  await vi.waitFor(() => expect(pending).toHaveLength(5));
  expect(pending[4]!.path).toBe('/read/4');
  for (const read of pending.slice()) read.answer();
  await vi.waitFor(() => expect(pending).toHaveLength(7));
  for (const read of pending.slice(5)) read.answer();
  expect((await Promise.all(reads)).map(({ path }) => path)).toEqual(['/read/0', '/read/1', '/read/2', '/read/3', '/read/4', '/read/5', '/read/6']);
});

test('a read that fails frees its place for the next', async () => {
  vi.stubGlobal('fetch', async () => new Response('{}', { status: 500 }));
  const reads = await Promise.allSettled(Array.from({ length: 9 }, (_, i) => getJson(`/failing/${i}`)));
  expect(reads.map(({ status }) => status)).toEqual(Array(9).fill('rejected'));
  vi.stubGlobal('fetch', async () => new Response('{"ok":true}', { status: 200 }));
  expect(await getJson('/after')).toEqual({ ok: true });
});
