import fc from 'fast-check';
import { expect, test } from 'vitest';
import { MAX_JSON_DEPTH, nestsDeeper } from './readJsonBody';

/** The depth of JSON text as written: arrays and objects, strings skipped (the reference). */
const textDepth = (text: string) => {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char == '\\') index++;
      else if (char == '"') inString = false;
    } else if (char == '"') inString = true;
    else if (char == '[' || char == '{') deepest = Math.max(deepest, ++depth);
    else if (char == ']' || char == '}') depth--;
  }
  return deepest;
};

test('nestsDeeper agrees with the depth of the JSON text, for any JSON and limit', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 8 }), fc.nat(10), (value, limit) => {
      expect(nestsDeeper(value, limit)).toBe(textDepth(JSON.stringify(value)) > limit);
    }),
    { numRuns: 1000, seed: 18 },
  );
});

test('the limit: 32 levels are read, 33 are not, 100,000 are walked without recursion', () => {
  const nested = (depth: number) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  expect(nestsDeeper(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
  expect(nestsDeeper(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  expect(nestsDeeper(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  expect(nestsDeeper({ a: '[[[[' }, 1)).toBe(false);
  expect(nestsDeeper(42, 0)).toBe(false);
});

test('a body with a UTF-8 byte order mark is read as without one; bytes that are not UTF-8 are refused', async () => {
  const { createTestCollector } = await import('../testing/testCollector');
  const collector = createTestCollector();
  const body = new TextEncoder().encode('\uFEFF{"error_type":"js","error_message":"with a BOM"}');
  expect(body[0]).toBe(0xef);
  const post = (bytes: Uint8Array) => collector.request('/api/error-reports', { method: 'POST', body: new Blob([bytes as Uint8Array<ArrayBuffer>]), headers: { 'content-type': 'application/json' } });
  expect((await post(body)).status).toBe(202);
  expect((await collector.stored('errors', 'default')).map((report) => report.error_message)).toEqual(['with a BOM']);
  const refused = await post(new Uint8Array([0x7b, 0xff, 0x7d]));
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  await collector.close();
});
