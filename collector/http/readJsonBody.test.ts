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
