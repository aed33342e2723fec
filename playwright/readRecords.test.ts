import { afterEach, expect, test, vi } from 'vitest';
import { readRecords } from './readRecords';

afterEach(() => vi.restoreAllMocks());

test('a list answered 429 (the key has its share of reads under way) is read again after Retry-After, the same page', async () => {
  const answers = [
    new Response(JSON.stringify({ error: { code: 'rate_limited' } }), { status: 429, headers: { 'retry-after': '0' } }),
    new Response(JSON.stringify({ data: [{ id: 1 }], next_cursor: 'c1' }), { status: 200 }),
    new Response(JSON.stringify({ error: { code: 'rate_limited' } }), { status: 429, headers: { 'retry-after': '0' } }),
    new Response(JSON.stringify({ data: [{ id: 2 }], next_cursor: null }), { status: 200 }),
  ];
  const urls: string[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (url) => {
    urls.push(String(url));
    return answers.shift()!;
  });
  const records = await readRecords({ url: 'http://127.0.0.1:1', siteKey: 'pk_a', apiKey: 'sbk_x', allowOrigin: async () => {} }, 'error-reports');
  expect(records).toEqual([{ id: 1 }, { id: 2 }]);
  expect(urls.map((url) => new URL(url).searchParams.get('cursor'))).toEqual([null, null, 'c1', 'c1']);
});
